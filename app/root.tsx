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
	useMatches,
	useRouteLoaderData,
} from 'react-router'
import type { Route } from './+types/root'
import stylesheet from './app.css?url'
import { GeneralErrorBoundary } from './components/error-boundary.tsx'
import { Toaster, type ToastMessage } from './components/ui/toast.tsx'
import { getUser } from './utils/auth.server.ts'
import { getEnv } from './utils/env.server.ts'
import { withPublicPageCache } from './utils/page-cache.server.ts'
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
	{ rel: 'stylesheet', href: stylesheet },
	{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ request, context }: Route.LoaderArgs) {
	const [user, { toast, headers }] = await Promise.all([getUser(request), getActionToast(context) ?? getToast(request)])
	const env = getEnv()
	return data(
		{
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
		},
		{ headers: headers ?? undefined },
	)
}

/**
 * React Router skips revalidation after an action that answered 4xx/5xx, but such an answer may
 * carry a toast in a cookie: the root loader (the one that reads it, and cheap) runs again to show it.
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
	if (actionStatus !== undefined && actionStatus >= 400) return true
	return defaultShouldRevalidate
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>['data']

/** The signed-in user as the root loader saw it, or null. */
export function useOptionalUser() {
	return useRouteLoaderData<typeof loader>('root')?.user ?? null
}

export function useContactEmail() {
	return useRouteLoaderData<typeof loader>('root')?.contactEmail ?? ''
}

/**
 * The route handle of a page that has nothing interactive for a signed-out visitor (the
 * marketing pages): such a visitor gets it without any script, since React and the router
 * would only repeat what the HTML already does. Links are plain links; the next page loads
 * whole and, if it needs scripts, brings them.
 */
export const STATIC_FOR_VISITORS = { staticForVisitors: true } as const

function isStaticForVisitors(handle: unknown) {
	return typeof handle === 'object' && handle !== null && 'staticForVisitors' in handle && handle.staticForVisitors === true
}

/**
 * Whether this document goes out without scripts: a static page for a visitor with no
 * session and no pending toast (a toast hides itself with JavaScript). Only the server's
 * render decides; in the browser the scripts are already running.
 */
function useScriptlessDocument() {
	const root = useRouteLoaderData<typeof loader>('root')
	const page = useMatches().at(-1)
	if (typeof document !== 'undefined' || !root) return false
	return !root.user && !root.toast && isStaticForVisitors(page?.handle)
}

export function Layout({ children }: { children: React.ReactNode }) {
	const scriptless = useScriptlessDocument()
	return (
		<html lang="en">
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="theme-color" content="#1b5e46" />
				<Meta />
				<Links />
			</head>
			<body className="min-h-screen">
				<a
					href="#main"
					className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[70] focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
				>
					Skip to content
				</a>
				{children}
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

/** A page whose loader reports an outcome as a toast (no action to redirect from) returns it as `pageToast`. */
function usePageToast() {
	const data = useMatches().at(-1)?.loaderData
	const pageToast = data && typeof data === 'object' && 'pageToast' in data ? data.pageToast : null
	return (pageToast as ToastMessage | null) ?? null
}

export default function App({ loaderData }: Route.ComponentProps) {
	const pageToast = usePageToast()
	// Marks the page as interactive: styles and tests can tell the enhanced page from the plain one.
	useEffect(() => {
		document.documentElement.dataset.hydrated = 'true'
	}, [])
	return (
		<>
			<Outlet />
			<Toaster toast={loaderData.toast ?? pageToast} />
		</>
	)
}

export function ErrorBoundary() {
	return (
		<main id="main" className="mx-auto max-w-2xl px-4 py-16">
			<GeneralErrorBoundary />
		</main>
	)
}
