import { randomUUID } from 'node:crypto'
import { createCookie, redirect } from 'react-router'
import { z } from 'zod'
import { getEnv } from './env.server.ts'

export const ToastSchema = z.object({
	id: z.string().default(() => randomUUID()),
	type: z.enum(['success', 'error', 'info', 'warning']).default('info'),
	title: z.string(),
	description: z.string().optional(),
})

export type Toast = z.infer<typeof ToastSchema>
export type ToastInput = z.input<typeof ToastSchema>

function toastCookie() {
	const env = getEnv()
	return createCookie(env.secureCookies ? '__Host-toast' : 'toast', {
		path: '/',
		httpOnly: true,
		sameSite: 'lax',
		secure: env.secureCookies,
		secrets: [env.SESSION_SECRET],
		maxAge: 60,
	})
}

export async function createToastHeaders(toast: ToastInput) {
	const value = ToastSchema.parse(toast)
	return new Headers({ 'Set-Cookie': await toastCookie().serialize(value) })
}

/** Post/redirect/get with a one-time toast that the next page shows. */
export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
	const headers = new Headers(init?.headers)
	const toastHeaders = await createToastHeaders(toast)
	headers.append('Set-Cookie', toastHeaders.get('Set-Cookie')!)
	return redirect(url, { ...init, headers })
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
