/** Paged lists: the page is URL state, so paging works without JavaScript. Shared by server and browser. */

/** The `page` search parameter (of a query string or its parameters): a positive whole number, 1 when missing or malformed. */
export function parsePage(search: string | URLSearchParams) {
	const value = Number(new URLSearchParams(search).get('page'))
	return Number.isSafeInteger(value) && value > 0 ? value : 1
}

/** A path (which may carry a query, a search's) on a given page: the first page has no parameter, so its address stays the one people know. */
export function withPage(path: string, page: number) {
	return page > 1 ? `${path}${path.includes('?') ? '&' : '?'}page=${page}` : path
}

/** The page numbers to offer: always the first and last, and the current one with its neighbours; null marks a gap. */
export function pageNumbers(page: number, pageCount: number): Array<number | null> {
	const shown = new Set([1, pageCount, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pageCount))
	const sorted = [...shown].sort((a, b) => a - b)
	return sorted.flatMap((n, index) => (index > 0 && n - sorted[index - 1]! > 1 ? [null, n] : [n]))
}
