/**
 * Builds a link to the same page with some query parameters changed (null
 * removes one): tabs, the selected contact, paging and dialogs are all URL state.
 */
export function withSearch(pathname: string, search: string, changes: Record<string, string | number | null | undefined>) {
	const params = new URLSearchParams(search)
	for (const [name, value] of Object.entries(changes)) {
		if (value === null || value === undefined || value === '') params.delete(name)
		else params.set(name, String(value))
	}
	const query = params.toString()
	return query ? `${pathname}?${query}` : pathname
}

/** A page's `withSearch` bound to its own path and query. */
export type LinkBuilder = (changes: Record<string, string | number | null>) => string
