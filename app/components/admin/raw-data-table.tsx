function cellText(value: unknown) {
	if (value === null || value === undefined) return 'null'
	if (value instanceof Date) return value.toISOString()
	if (typeof value === 'object') return JSON.stringify(value)
	return String(value)
}

/**
 * Every column of every row, as stored: a debugging view. The region scrolls (at most
 * 360 px high) and takes keyboard focus so it can be scrolled without a mouse.
 */
export function RawDataTable({ rows, label }: { rows: Array<Record<string, unknown>>; label: string }) {
	const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))]
	if (rows.length === 0) return <p className="text-sm text-slate-600">No rows.</p>
	return (
		<section
			aria-label={label}
			tabIndex={0}
			className="relative max-h-[360px] overflow-auto rounded-md border border-slate-200 focus:ring-2 focus:ring-brand-200 focus:outline-none"
		>
			<table className="min-w-full text-left font-mono text-xs">
				<thead className="sticky top-0 bg-slate-100">
					<tr>
						{columns.map((column) => (
							<th key={column} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap text-slate-800">
								{column}
							</th>
						))}
					</tr>
				</thead>
				<tbody className="divide-y divide-slate-100">
					{rows.map((row, index) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: raw rows have no key of their own, and the list never reorders on the page
						<tr key={index}>
							{columns.map((column) => (
								<td key={column} className="max-w-xs px-3 py-2 align-top text-slate-700">
									{cellText(row[column])}
								</td>
							))}
						</tr>
					))}
				</tbody>
			</table>
		</section>
	)
}
