// First, so that Zod is configured before any module builds a schema.
import './utils/zod-config.ts'
import { useEffect } from 'react'
import {
	data,
	Links,
	Meta,
	Outlet,
	Scripts,
	ScrollRestoration,
	type ShouldRevalidateFunctionArgs,
	useLocation,
	useMatches,
} from 'react-router'
import type { Route } from './+types/root'
import stylesheet from './app.css?url'
import { GeneralErrorBoundary } from './components/error-boundary.tsx'
import { getUser } from './utils/auth.server.ts'
import { getEnv } from './utils/env.server.ts'
import { liveEventsOf, livePartsScript } from './utils/live-parts.ts'
import { useNonce } from './utils/nonce.tsx'
import { withPublicPageCache } from './utils/page-cache.server.ts'
import { noscriptRefreshOf, type RootData, useRootData } from './utils/root-data.ts'
import { getActionToast, getToast } from './utils/toast.server.ts'

/**
 * Public pages are shared by every anonymous visitor (see page-cache.server.ts);
 * every other answer is private to its visitor unless a route says otherwise.
 */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request }, next) => {
		const response = await withPublicPageCache(request, next)
		if (!response.headers.has('Cache-Control')) response.headers.set('Cache-Control', 'private, no-store')
		return response
	},
]

export const links: Route.LinksFunction = () => [
	{ rel: 'stylesheet', href: stylesheet, precedence: 'default' },
	{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ request, context }: Route.LoaderArgs) {
	const [user, { toast, headers }] = await Promise.all([getUser(request), getActionToast(context) ?? getToast(request)])
	const env = getEnv()
	const rootData: RootData = {
		user: user
			? {
					id: user.id,
					name: user.name,
					email: user.email,
					role: user.role,
					isAdmin: user.isAdmin,
					emailConfirmed: user.emailConfirmed,
				}
			: null,
		toast,
		contactEmail: env.CONTACT_EMAIL,
		renderedAt: user ? Date.now() : null,
	}
	return data(rootData, { headers: headers ?? undefined })
}

/**
 * React Router skips revalidation after an action that answered 4xx/5xx, but such an answer may
 * carry a toast in a cookie: the root loader (the one that reads it, and cheap) runs again to show it.
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
	if (actionStatus !== undefined && actionStatus >= 400) return true
	return defaultShouldRevalidate
}

function isStaticForVisitors(handle: unknown) {
	return typeof handle === 'object' && handle !== null && 'staticForVisitors' in handle && handle.staticForVisitors === true
}

/**
 * Whether this document goes out without scripts: a static page for a visitor with no
 * session and no pending toast (a toast hides itself with JavaScript), unless it shows a
 * dialog (which takes focus and closes on Escape with JavaScript). Only the server's render
 * decides; in the browser the scripts are already running.
 */
function useScriptlessDocument(page: { handle: unknown } | undefined) {
	const root = useRootData()
	const { search } = useLocation()
	if (typeof document !== 'undefined' || !root) return false
	return !root.user && !root.toast && isStaticForVisitors(page?.handle) && !new URLSearchParams(search).has('dialog')
}

export function Layout({ children }: { children: React.ReactNode }) {
	const page = useMatches().at(-1)
	const scriptless = useScriptlessDocument(page)
	const refresh = noscriptRefreshOf(page)
	const liveEvents = scriptless ? liveEventsOf(page?.handle) : null
	const nonce = useNonce()
	return (
		<html lang="en">
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="theme-color" content="#1b5e46" />
				<Meta />
				<Links />
				{refresh ? (
					<noscript>
						<meta httpEquiv="refresh" content={refresh} />
					</noscript>
				) : null}
			</head>
			<body className="min-h-screen">
				<a
					href="#main"
					className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[70] focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
				>
					Skip to content
				</a>
				{children}
				{/* Only the server renders it (`liveEvents` is null in the browser): the check keeps the script's code out of the client bundle. */}
				{import.meta.env.SSR && liveEvents ? (
					// biome-ignore lint/security/noDangerouslySetInnerHtml: the app's own script (utils/live-parts.ts), no user data
					<script nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: livePartsScript(liveEvents) }} />
				) : null}
				{scriptless ? null : (
					<>
						<ScrollRestoration />
						<Scripts />
					</>
				)}
			</body>
		</html>
	)
}

/** The toast is shown by the layouts, first in their main content (components/ui/toast.tsx). */
export default function App() {
	// Marks the page as interactive: styles and tests can tell the enhanced page from the plain one.
	useEffect(() => {
		document.documentElement.dataset.hydrated = 'true'
	}, [])
	return <Outlet />
}

export function ErrorBoundary() {
	return (
		<main id="main" className="mx-auto max-w-2xl px-4 py-16">
			<GeneralErrorBoundary />
		</main>
	)
}
