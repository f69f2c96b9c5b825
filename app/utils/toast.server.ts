import { randomUUID } from 'node:crypto'
import { createContext, type RouterContextProvider, redirect } from 'react-router'
import { z } from 'zod'
import { siteCookie } from './cookies.server.ts'

const ToastSchema = z.object({
	id: z.string().default(() => randomUUID()),
	type: z.enum(['success', 'error', 'info', 'warning']).default('info'),
	title: z.string(),
	description: z.string().optional(),
})

export type Toast = z.infer<typeof ToastSchema>
export type ToastInput = z.input<typeof ToastSchema>

function toastCookie() {
	return siteCookie('toast', { maxAgeSeconds: 60 })
}

export async function createToastHeaders(toast: ToastInput) {
	const value = ToastSchema.parse(toast)
	return new Headers({ 'Set-Cookie': await toastCookie().serialize(value) })
}

/** What an action is called with that decides how its toast travels. */
export type ActionRequest = { request: Request; context: Readonly<RouterContextProvider> }

/** The toast of an action that answers a page post with data: the page rendered in the same request shows it. */
const actionToastContext = createContext<Toast | null>(null)

/**
 * Headers for an action that answers with data (not a redirect) and a toast. A client-side
 * submission (a `.data` request) gets the toast as a cookie, read by the revalidation that
 * follows. A page post (no JavaScript) renders its answer in the same request, where a cookie
 * would only show on the next page: the toast goes to that render through the request context.
 */
export async function actionToastHeaders({ request, context }: ActionRequest, toast: ToastInput) {
	if (new URL(request.url).pathname.endsWith('.data')) return createToastHeaders(toast)
	context.set(actionToastContext, ToastSchema.parse(toast))
	return undefined
}

/** Post/redirect/get with a one-time toast that the next page shows. */
export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
	const headers = new Headers(init?.headers)
	const toastHeaders = await createToastHeaders(toast)
	headers.append('Set-Cookie', toastHeaders.get('Set-Cookie')!)
	return redirect(url, { ...init, headers })
}

/** The toast an action of this request answered a page post with (see actionToastHeaders), if any. */
export function getActionToast(context: Readonly<RouterContextProvider>) {
	const toast = context.get(actionToastContext)
	return toast ? { toast, headers: null } : null
}

/** Reads the pending toast and returns the header that clears it. */
export async function getToast(request: Request) {
	const cookie = toastCookie()
	const raw = await cookie.parse(request.headers.get('Cookie'))
	const parsed = ToastSchema.safeParse(raw)
	if (!parsed.success) return { toast: null, headers: null }
	return {
		toast: parsed.data,
		headers: new Headers({ 'Set-Cookie': await cookie.serialize('', { maxAge: 0 }) }),
	}
}
