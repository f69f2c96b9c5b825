import type { ReactNode } from 'react'
import { Card } from './card.tsx'

/**
 * A card whose table scrolls sideways on a narrow screen. `relative` makes it the containing
 * block of the table's visually hidden (absolutely positioned) text, which would otherwise
 * escape the scrolling and widen the whole page.
 */
export function TableCard({ children }: { children: ReactNode }) {
	return <Card className="relative overflow-x-auto">{children}</Card>
}

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
