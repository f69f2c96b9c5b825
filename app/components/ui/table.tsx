import type { ReactNode } from 'react'

/** The caption (for screen readers) and column headers every admin table shares. */
export function TableHead({ caption, columns, leading }: { caption: string; columns: string[]; leading?: ReactNode }) {
	return (
		<>
			<caption className="sr-only">{caption}</caption>
			<thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
				<tr>
					{leading}
					{columns.map((column) => (
						<th key={column} scope="col" className="px-4 py-3 font-semibold">
							{column}
						</th>
					))}
				</tr>
			</thead>
		</>
	)
}
