import { getDb } from './db.server.ts'
import { clientAddress } from './rate-limit.server.ts'
import { createSession, getSessionUser, readSessionToken, type SessionUser } from './session.server.ts'
import { redirectWithToast } from './toast.server.ts'

/** Starts a new session (a new id every login) and returns its Set-Cookie header. */
export async function startSession(request: Request, userId: string) {
	const { setCookie } = await createSession(getDb(), userId, {
		userAgent: request.headers.get('user-agent'),
		ip: clientAddress(request),
	})
	return setCookie
}

/** The one lookup per request, however many loaders ask. */
const userByRequest = new WeakMap<Request, Promise<SessionUser | null>>()

export function getUser(request: Request) {
	let pending = userByRequest.get(request)
	if (!pending) {
		pending = getSessionUser(request)
		userByRequest.set(request, pending)
	}
	return pending
}

/** The message a visitor sees when a protected page sends them to log in. */
function loginRequiredMessage(pathname: string) {
	if (pathname === '/dashboard/admin/messages' || pathname.startsWith('/dashboard/admin/messages/')) {
		return 'You must be logged in to access this page'
	}
	if (pathname === '/dashboard/messages') return 'You must be logged in to access messages'
	if (pathname === '/dashboard') return 'Please login to access the dashboard'
	return 'Please log in to access this page'
}

/**
 * The URL the visitor sees. A client-side navigation or submission reaches
 * loaders and actions as `/path.data?_routes=…`; strip that back to `/path`.
 */
export function pageUrl(request: Pick<Request, 'url'>) {
	const url = new URL(request.url)
	if (url.pathname.endsWith('.data')) {
		url.pathname = url.pathname === '/_root.data' ? '/' : url.pathname.slice(0, -'.data'.length)
		url.searchParams.delete('_routes')
		url.searchParams.delete('index')
	}
	return url
}

/** An announcement posted without a live session says whether the session ran out or never was. */
async function announcementLoginMessage(request: Request, url: URL) {
	if (request.method !== 'POST' || url.pathname !== '/dashboard/admin/messages/broadcast') return null
	return (await readSessionToken(request))
		? 'Your session has expired. Please log in again.'
		: 'You must be logged in to send announcements'
}

export async function requireUser(request: Request): Promise<SessionUser> {
	const user = await getUser(request)
	if (user) return user
	const url = pageUrl(request)
	const origin = request.method === 'GET' ? `${url.pathname}${url.search}` : url.pathname
	const target = `/login?redirectTo=${encodeURIComponent(origin)}`
	const title = (await announcementLoginMessage(request, url)) ?? loginRequiredMessage(url.pathname)
	throw await redirectWithToast(target, { type: 'error', title })
}

export async function requireAdmin(request: Request): Promise<SessionUser> {
	const user = await requireUser(request)
	if (user.isAdmin) return user
	throw await refuseArea(request)
}

/**
 * Admins and instructors: the teaching staff who enter /dashboard/admin (docs/decisions/056). An
 * instructor gets only what each route then allows them, for the courses they teach.
 */
export async function requireStaff(request: Request): Promise<SessionUser> {
	const user = await requireUser(request)
	if (user.isAdmin || user.role === 'instructor') return user
	throw await refuseArea(request)
}

/** The answer to a signed-in person who may not enter a staff page: back to their dashboard. */
async function refuseArea(request: Request) {
	const { pathname } = pageUrl(request)
	const title =
		pathname === '/dashboard/admin/messages' || pathname.startsWith('/dashboard/admin/messages/')
			? "You don't have permission to access this page"
			: "You don't have permission to access this area"
	return redirectWithToast('/dashboard', { type: 'error', title })
}
