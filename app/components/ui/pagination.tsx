import { Link } from 'react-router'
import { cn } from '#app/utils/misc.ts'
import { pageNumbers, withPage } from '#app/utils/pagination.ts'

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
