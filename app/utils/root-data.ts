import { useRouteLoaderData } from 'react-router'
import type { Role } from '#db/types.ts'
import type { ToastMessage } from './toast.ts'

/** What the root loader gives every page (app/root.tsx checks its answer against this). */
export type RootData = {
	user: { id: string; name: string; email: string; role: Role; isAdmin: boolean; emailConfirmed: boolean } | null
	toast: ToastMessage | null
	contactEmail: string
	/**
	 * When the server loaded a signed-in user's data (ms since the epoch): their live-event stream
	 * replays what came after. Null for a visitor, whose page may be a shared copy (page-cache.server.ts)
	 * that must read the same, byte for byte, from every process.
	 */
	renderedAt: number | null
}

export function useRootData() {
	return useRouteLoaderData<RootData>('root')
}

/** The signed-in user as the root loader saw it, or null. */
export function useOptionalUser() {
	return useRootData()?.user ?? null
}

export function useContactEmail() {
	return useRootData()?.contactEmail ?? ''
}

/**
 * The route handle of a page that has nothing interactive for a signed-out visitor (the
 * marketing pages): such a visitor gets it without any script, since React and the router
 * would only repeat what the HTML already does. Links are plain links; the next page loads
 * whole and, if it needs scripts, brings them.
 */
export const STATIC_FOR_VISITORS = { staticForVisitors: true } as const

/**
 * How the page cache (utils/page-cache.server.ts) keeps a page every anonymous visitor sees alike:
 * `shows-data` pages are dropped whenever the data behind the public pages changes, `code-only`
 * pages (their markup comes from the code alone) live as long as the build. A page's route handle
 * says it; nothing else lists the shared pages.
 */
export type SharedPageKind = 'shows-data' | 'code-only'
export type SharedPageHandle = { sharedWithVisitors: SharedPageKind }

export const SHARED_PAGE_SHOWING_DATA = { sharedWithVisitors: 'shows-data' } as const satisfies SharedPageHandle
export const SHARED_PAGE_OF_CODE = { sharedWithVisitors: 'code-only' } as const satisfies SharedPageHandle

export function sharedPageKindOf(handle: unknown): SharedPageKind | null {
	if (typeof handle !== 'object' || handle === null || !('sharedWithVisitors' in handle)) return null
	const kind = handle.sharedWithVisitors
	return kind === 'shows-data' || kind === 'code-only' ? kind : null
}

/**
 * The route handle of a page that moves on by itself after a pause: with JavaScript the page
 * navigates; without, root.tsx puts `<meta http-equiv="refresh">` with this content in a
 * `<noscript>` of the head (the one place a document may hold it there).
 */
export type NoscriptRefreshHandle = { noscriptRefresh: (loaderData: unknown) => string | null }

export function noscriptRefreshOf(match: { handle: unknown; loaderData: unknown } | undefined) {
	const handle = match?.handle
	if (typeof handle !== 'object' || handle === null || !('noscriptRefresh' in handle)) return null
	return (handle as NoscriptRefreshHandle).noscriptRefresh(match?.loaderData)
}
