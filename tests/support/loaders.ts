import { expect } from 'vitest'
import { callRoute, getRequest } from './requests.ts'

type Loader = Parameters<typeof callRoute>[0]

/** A page's loader data as the cookie's user gets it: a GET of `path` that must answer 200, its JSON read as T. */
export async function pageData<T>(loader: Loader, path: string, cookie: string, params: Record<string, string> = {}) {
	const response = await callRoute(loader, getRequest(path, { cookie }), params)
	expect(response.status).toBe(200)
	return (await response.json()) as T
}
