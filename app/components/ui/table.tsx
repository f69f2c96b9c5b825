import type { ReactNode } from 'react'
import { Card } from './card.tsx'

/**
 * A card whose table scrolls sideways on a narrow screen. A table with nothing focusable inside
 * gives a `label`: its scroller becomes a named region the keyboard can reach and scroll.
 */
export function TableCard({ children, label }: { children: ReactNode; label?: string }) {
	return (
		<Card className="overflow-hidden">
			<ScrollingTable label={label}>{children}</ScrollingTable>
		</Card>
	)
}

/**
 * A table whose rows become stacked cards on a phone, for rows with controls that must not sit
 * beyond the screen's edge: the column heads are then read out only, and each cell shows its
 * `data-label` before it.
 */
export function StackingTableCard({ children }: { children: ReactNode }) {
	return (
		<Card className="max-sm:[&_table]:block max-sm:[&_tbody]:block max-sm:[&_td]:block max-sm:[&_td]:py-1 max-sm:[&_td[data-label]]:before:block max-sm:[&_td[data-label]]:before:text-xs max-sm:[&_td[data-label]]:before:font-semibold max-sm:[&_td[data-label]]:before:text-slate-600 max-sm:[&_td[data-label]]:before:content-[attr(data-label)] max-sm:[&_thead]:sr-only max-sm:[&_tr]:block max-sm:[&_tr]:py-2 overflow-hidden">
			<div className="scroll-shadows-x relative overflow-x-auto">{children}</div>
		</Card>
	)
}

/**
 * Where a table wider than the screen scrolls sideways, saying so: a line above it on a phone and
 * a shade at each edge with more beyond. `relative` makes it the containing block of the table's
 * visually hidden (absolutely positioned) text, which would otherwise escape the scrolling and
 * widen the whole page.
 */
export function ScrollingTable({ children, className, label }: { children: ReactNode; className?: string; label?: string }) {
	return (
		<div className={className}>
			<p className="px-4 pt-3 text-xs text-slate-600 sm:hidden">
				Scroll sideways to see every column <span aria-hidden="true">→</span>
			</p>
			{label ? (
				// Without focusable content, the keyboard scrolls it only if it can take the focus itself.
				<section
					aria-label={label}
					tabIndex={0}
					className="scroll-shadows-x relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600"
				>
					{children}
				</section>
			) : (
				<div className="scroll-shadows-x relative overflow-x-auto">{children}</div>
			)}
		</div>
	)
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
