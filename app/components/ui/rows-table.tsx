import type { ReactNode } from 'react'
import { TableHead } from './table.tsx'

/**
 * An admin table inside a `TableCard` or `StackingTableCard`: its caption and column heads
 * (`TableHead`), then the rows it is given, a line between each.
 */
export function RowsTable({
	caption,
	columns,
	leading,
	children,
}: {
	caption: string
	columns: string[]
	leading?: ReactNode
	children: ReactNode
}) {
	return (
		<table className="min-w-full text-left text-sm">
			<TableHead caption={caption} columns={columns} leading={leading} />
			<tbody className="divide-y divide-slate-100">{children}</tbody>
		</table>
	)
}
