/**
 * Every route of app/routes.ts, flattened: its id (the module path without
 * extension, as React Router names it), full URL pattern, and whether its
 * module exports a loader (answers GET) and an action (answers POST).
 * The security suites are driven by this list, so a route added to
 * app/routes.ts is tested (or fails the suite) without anyone remembering to.
 */
import type { RouteConfigEntry } from '@react-router/dev/routes'
import { matchRoutes, type RouteObject } from 'react-router'
import routes from '#app/routes.ts'

export type RouteModule = {
	loader?: (args: never) => unknown
	action?: (args: never) => unknown
	middleware?: unknown[]
	handle?: unknown
}

export type RouteInfo = {
	id: string
	file: string
	/** The full URL pattern, '/' for the index route, with `:param` and `*` segments. */
	path: string
	/** The ids of the layouts above it, outermost first. */
	parents: string[]
	index: boolean
	hasLoader: boolean
	hasAction: boolean
	module: RouteModule
}

/** A route's id as React Router names it: the one given, or the module path without its extension. */
export function routeId(entry: RouteConfigEntry) {
	return entry.id ?? entry.file.replace(/\.[tj]sx?$/, '')
}

function joinPath(parent: string, segment: string | undefined) {
	if (!segment) return parent
	return `${parent.replace(/\/$/, '')}/${segment.replace(/^\//, '')}`
}

type FlatEntry = Omit<RouteInfo, 'hasLoader' | 'hasAction' | 'module'>

function flatten(entries: RouteConfigEntry[], parentPath: string, parents: string[], into: FlatEntry[]) {
	for (const entry of entries) {
		const id = routeId(entry)
		const path = joinPath(parentPath, entry.path) || '/'
		into.push({ id, file: entry.file, path, parents, index: Boolean(entry.index) })
		if (entry.children) flatten(entry.children, path, [...parents, id], into)
	}
	return into
}

/** The routes without their modules (for HTTP tests, which run outside Vite). */
export async function listRoutes() {
	return flatten(await routes, '', [], [])
}

/** The route table with each module imported, so loader/action presence is the truth, not a guess. Vitest only. */
export async function loadRouteTable(): Promise<RouteInfo[]> {
	const moduleLoaders = import.meta.glob<RouteModule>('/app/routes/**/*.{ts,tsx}')
	const flat = await listRoutes()
	return Promise.all(
		flat.map(async (entry) => {
			const load = moduleLoaders[`/app/${entry.file}`]
			if (!load) throw new Error(`Route module not found: app/${entry.file}`)
			const module = await load()
			return {
				...entry,
				hasLoader: typeof module.loader === 'function',
				hasAction: typeof module.action === 'function',
				module,
			}
		}),
	)
}

/**
 * The route that answers a request to the URL, and its params: the deepest match, as for a
 * page; for a form's POST, the parent of an index route unless the URL says `?index`, as React
 * Router sends it. Null when nothing matches.
 */
export async function routeOf(url: URL, { post = false } = {}) {
	const matches = matchRoutes((await routes) as RouteObject[], url.pathname) ?? []
	let match = matches.at(-1)
	if (post && match?.route.index && !url.searchParams.has('index')) match = matches.at(-2)
	return match ? { id: routeId(match.route as RouteConfigEntry), params: match.params as Record<string, string> } : null
}

/** Replaces each `:param` (and a trailing `*`) of a pattern with a concrete value. */
export function concretePath(pattern: string, params: Record<string, string>) {
	return pattern
		.split('/')
		.map((segment) => {
			if (segment.startsWith(':')) {
				const name = segment.slice(1).replace(/\?$/, '')
				const value = params[name]
				if (value === undefined) throw new Error(`No value for :${name} in ${pattern}`)
				return encodeURIComponent(value)
			}
			if (segment === '*') return params['*'] ?? 'no-such-page'
			return segment
		})
		.join('/')
}

/** The names of a pattern's `:params`. */
export function paramNames(pattern: string) {
	return pattern
		.split('/')
		.filter((segment) => segment.startsWith(':'))
		.map((segment) => segment.slice(1).replace(/\?$/, ''))
}
