import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { RouterContextProvider } from 'react-router'
import { getDb } from '#app/utils/db.server.ts'
import { createSession } from '#app/utils/session.server.ts'
import { getToast } from '#app/utils/toast.server.ts'
import type { Database, Role } from '#db/types.ts'
import { insertUser } from './fixtures.ts'

/** A form POST as a browser on the site would send it. */
export function formRequest(path: string, fields: Record<string, string | string[]>, init: { cookie?: string; ip?: string } = {}) {
	const body = new URLSearchParams()
	for (const [name, value] of Object.entries(fields)) {
		for (const item of Array.isArray(value) ? value : [value]) body.append(name, item)
	}
	const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', 'x-client-ip': init.ip ?? '203.0.113.1' })
	if (init.cookie) headers.set('Cookie', init.cookie)
	return new Request(`http://localhost${path}`, { method: 'POST', body, headers })
}

export function getRequest(path: string, init: { cookie?: string } = {}) {
	const headers = new Headers()
	if (init.cookie) headers.set('Cookie', init.cookie)
	return new Request(`http://localhost${path}`, { headers })
}

/** A Cookie header value for a new session of the user. */
export async function sessionCookieFor(userId: string) {
	const { setCookie } = await createSession(getDb(), userId)
	return setCookie.split(';')[0]!
}

/** A confirmed user with a profile, and the Cookie header of a new session of theirs. */
export async function signedInUser(
	db: Kysely<Database>,
	{
		role = 'student',
		name = `A ${role}`,
		email = `${role}-${randomUUID()}@example.com`,
	}: { role?: Role; name?: string; email?: string } = {},
) {
	const id = await insertUser(db, { role, name, email })
	return { id, email, cookie: await sessionCookieFor(id) }
}

/** The one-time toast a response set, as the next page reads it. */
export async function toastOf(response: Response) {
	return (await getToast(getRequest('/', { cookie: cookiesFrom(response) }))).toast
}

/** Joins the name=value parts of every Set-Cookie of a response into a Cookie header. */
export function cookiesFrom(response: Response) {
	return response.headers
		.getSetCookie()
		.map((cookie) => cookie.split(';')[0]!)
		.filter((pair) => !pair.endsWith('='))
		.join('; ')
}

/** Runs a route function and returns the Response whether it was returned or thrown. */
export async function settle(run: () => unknown): Promise<Response> {
	try {
		const result = await run()
		if (result instanceof Response) return result
		const wrapped = result as { type?: string; data?: unknown; init?: ResponseInit | null }
		if (wrapped && wrapped.type === 'DataWithResponseInit') {
			return Response.json(wrapped.data, wrapped.init ?? undefined)
		}
		return Response.json(result)
	} catch (error) {
		if (error instanceof Response) return error
		const wrapped = error as { type?: string; data?: unknown; init?: ResponseInit | null }
		if (wrapped && wrapped.type === 'DataWithResponseInit') return Response.json(wrapped.data, wrapped.init ?? undefined)
		throw error
	}
}

type RouteFunction = (args: never) => unknown

/** Calls a loader or action directly as React Router would, and returns its Response. */
export function callRoute(fn: RouteFunction, request: Request, params: Record<string, string> = {}) {
	const args: RouteArgs = { request, params, context: new RouterContextProvider(), unstable_pattern: '' }
	return settle(() => (fn as (routeArgs: RouteArgs) => unknown)(args))
}

type RouteArgs = { request: Request; params: Record<string, string>; context: RouterContextProvider; unstable_pattern: string }
