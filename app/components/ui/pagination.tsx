import { Link } from 'react-router'
import { cn } from '#app/utils/misc.ts'

/** The `page` search parameter (of a query string or its parameters): a positive whole number, 1 when missing or malformed. */
export function parsePage(search: string | URLSearchParams) {
	const value = Number(new URLSearchParams(search).get('page'))
	return Number.isSafeInteger(value) && value > 0 ? value : 1
}

/** A path on a given page: the first page has no parameter, so its address stays the one people know. */
export function withPage(path: string, page: number) {
	return page > 1 ? `${path}?page=${page}` : path
}

/** The page numbers to offer: always the first and last, and the current one with its neighbours; null marks a gap. */
export function pageNumbers(page: number, pageCount: number): Array<number | null> {
	const shown = new Set([1, pageCount, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pageCount))
	const sorted = [...shown].sort((a, b) => a - b)
	return sorted.flatMap((n, index) => (index > 0 && n - sorted[index - 1]! > 1 ? [null, n] : [n]))
}

const itemClasses = 'inline-flex h-9 min-w-9 items-center justify-center rounded-md px-3 text-sm font-semibold'
const linkClasses = cn(itemClasses, 'border border-slate-300 bg-white text-ink hover:bg-slate-100')

/** On a phone only Previous, the current page and Next fit on one line; 'Page N of M' says the rest. */
const otherPageClasses = 'hidden sm:block'

/**
 * Page links for a list split into pages: plain links, so they work in any browser. `anchor`
 * is the id of the list's heading, where each page opens.
 */
export function Pagination({
	label,
	path,
	page,
	pageCount,
	anchor,
}: {
	label: string
	path: string
	page: number
	pageCount: number
	anchor: string
}) {
	if (pageCount <= 1) return null
	const to = (n: number) => `${withPage(path, n)}#${anchor}`
	const numbers = pageNumbers(page, pageCount)
	return (
		<nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3">
			<p className="text-sm text-slate-600">
				Page {page} of {pageCount}
			</p>
			<ul className="flex flex-wrap items-center gap-1">
				{page > 1 ? (
					<li>
						<Link to={to(page - 1)} className={linkClasses}>
							Previous<span className="sr-only"> page</span>
						</Link>
					</li>
				) : null}
				{numbers.map((n, index) =>
					n === null ? (
						<li key={`gap-after-${numbers[index - 1]}`} aria-hidden className={cn(otherPageClasses, 'px-1 text-slate-500')}>
							…
						</li>
					) : (
						<li key={n} className={n === page ? undefined : otherPageClasses}>
							{n === page ? (
								<span aria-current="page" className={cn(itemClasses, 'bg-brand-700 text-white')}>
									<span className="sr-only">Page </span>
									{n}
								</span>
							) : (
								<Link to={to(n)} className={linkClasses}>
									<span className="sr-only">Page </span>
									{n}
								</Link>
							)}
						</li>
					),
				)}
				{page < pageCount ? (
					<li>
						<Link to={to(page + 1)} className={linkClasses}>
							Next<span className="sr-only"> page</span>
						</Link>
					</li>
				) : null}
			</ul>
		</nav>
	)
}
