import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { matchPath } from 'react-router'
import type { AppEvent } from '#app/services/events/events.ts'
import { getEventHub } from '#app/services/events/hub.server.ts'
import { pageUrl } from './auth.server.ts'
import { type SharedPageKind, sharedPageKindOf } from './root-data.ts'

/**
 * Anonymous visitors of the public pages all see the same page, so it is
 * rendered once and served from memory (and by a CDN, which the headers
 * allow) until the data behind it changes. Anything personal — a signed-in
 * visitor, a pending toast, a Set-Cookie — is never cached or shared.
 */
type SharedPage = { pattern: string; kind: SharedPageKind }
/** The pages whose route handle says every anonymous visitor shares them (configureSharedPages). */
let sharedPages: SharedPage[] = []
const PERSONAL_COOKIES = /(^|;\s*)(__Host-)?(session|toast|registration[^=]*)=/
/** Bounds staleness of what no event announces (a seat hold expiring) and of other processes' caches. */
const TTL_MS = 30_000
const MAX_ENTRIES = 500
/** Events that change what a public page shows. */
const INVALIDATING_EVENTS = new Set<AppEvent['type']>(['course.changed', 'enrollment.changed', 'site.changed'])

const PUBLIC_CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=30, stale-while-revalidate=30'

type Entry = {
	showsData: boolean
	body: Uint8Array<ArrayBuffer>
	/** The body gzipped on first demand, so each page is compressed once, not per visitor. */
	gzipped?: Uint8Array<ArrayBuffer>
	headers: [string, string][]
	etag: string
	storedAt: number
	/** The answers given from it, by variant: the same request gets the same object, which the HTTP server keeps its headers by. */
	answers?: Map<Variant, CachedAnswer>
}

const entries = new Map<string, Entry>()
/** Renders in progress, so a burst of visitors after an invalidation renders the page once. */
const rendering = new Map<string, Promise<Entry | Response>>()
/** Counts invalidations: a render that began before the latest one read old data and is not kept. */
let generation = 0
let subscribed: Promise<unknown> | undefined

/** What the cache needs to know of a request, so the HTTP server can ask before building a Fetch Request. */
type RequestFacts = { method: string; url: string; cookie: string | null | undefined }

/** A route as the server build lists it: its own path segment, its parent, and its module's handle. */
export type BuildRoute = { id: string; parentId?: string; path?: string; module: { handle?: unknown } }

/** The server build's routes as full URL patterns with their handles. */
export function pagesOfBuild(routes: Record<string, BuildRoute | undefined>) {
	const fullPath = (route: BuildRoute): string => {
		const parent = route.parentId ? routes[route.parentId] : undefined
		const base = parent ? fullPath(parent) : ''
		return route.path ? `${base.replace(/\/$/, '')}/${route.path.replace(/^\//, '')}` : base
	}
	return Object.values(routes).flatMap((route) => (route ? [{ pattern: fullPath(route) || '/', handle: route.module.handle }] : []))
}

/**
 * Reads the shared pages from the routes' handles (utils/root-data.ts `SHARED_PAGE_SHOWING_DATA`,
 * `SHARED_PAGE_OF_CODE`): called at start-up with the server build's routes, so a page is shared
 * by saying so in its own module and in no list here.
 */
export function configureSharedPages(pages: { pattern: string; handle: unknown }[]) {
	sharedPages = pages.flatMap(({ pattern, handle }) => {
		const kind = sharedPageKindOf(handle)
		return kind ? [{ pattern, kind }] : []
	})
}

function sharedPageOf(pathname: string) {
	return sharedPages.find((page) => matchPath(page.pattern, pathname) !== null)
}

/** The cache key of a request every anonymous visitor would get the same answer to, or null. */
export function publicCacheKey(request: Request) {
	return cacheKeyOf({ method: request.method, url: request.url, cookie: request.headers.get('Cookie') })
}

function cacheKeyOf({ method, url: href, cookie }: RequestFacts) {
	if (method !== 'GET' && method !== 'HEAD') return null
	if (PERSONAL_COOKIES.test(cookie ?? '')) return null
	const url = new URL(href)
	const { pathname } = pageUrl({ url: href })
	if (!sharedPageOf(pathname)) return null
	// Only the bare page (and the router's data request for it) is shared: query strings
	// (search, filters, dialogs) are rendered per request, so they cannot crowd out the cache.
	const params = [...url.searchParams.keys()]
	if (params.some((name) => name !== '_routes')) return null
	return `${url.pathname}${url.search}`
}

function showsData(key: string) {
	const { pathname } = pageUrl({ url: `http://localhost${key}` })
	return sharedPageOf(pathname)?.kind === 'shows-data'
}

/** The data behind the public pages changed: the copies of the pages that show it go. */
export function invalidatePagesShowingData() {
	generation += 1
	for (const [key, entry] of entries) if (entry.showsData) entries.delete(key)
	// Visitors from now on get a render of their own, not one that may have read the old data.
	for (const key of rendering.keys()) if (showsData(key)) rendering.delete(key)
}

function ensureInvalidation() {
	subscribed ??= getEventHub()
		.then((hub) =>
			hub.subscribe((event) => {
				if (INVALIDATING_EVENTS.has(event.type)) invalidatePagesShowingData()
			}),
		)
		.catch((error: unknown) => {
			subscribed = undefined
			console.error('[page-cache] cannot follow data changes; not caching', error)
		})
	return subscribed
}

function matchesEtag(ifNoneMatch: string | null | undefined, etag: string) {
	return ifNoneMatch ? ifNoneMatch.split(',').some((value) => value.trim() === etag || value.trim() === '*') : false
}

export type CachedAnswer = { status: 200 | 304; headers: [string, string][]; body: Uint8Array<ArrayBuffer> | null }
type Variant = 'not-modified' | 'head' | 'gzip' | 'plain'

function variantOf(request: { method: string; ifNoneMatch: string | null | undefined; acceptsGzip?: boolean }, entry: Entry): Variant {
	if (matchesEtag(request.ifNoneMatch, entry.etag)) return 'not-modified'
	if (request.method === 'HEAD') return 'head'
	return request.acceptsGzip ? 'gzip' : 'plain'
}

function answer(
	variant: Variant,
	entry: Entry,
	{ cacheState, varyEncoding }: { cacheState: 'HIT' | 'MISS'; varyEncoding: boolean },
): CachedAnswer {
	const headers: [string, string][] = [
		...entry.headers,
		['ETag', entry.etag],
		['Cache-Control', PUBLIC_CACHE_CONTROL],
		['Vary', varyEncoding ? 'Cookie, Accept-Encoding' : 'Cookie'],
		['X-Page-Cache', cacheState],
	]
	if (variant === 'not-modified') return { status: 304, headers, body: null }
	if (variant === 'head') return { status: 200, headers, body: null }
	if (variant === 'plain') return { status: 200, headers, body: entry.body }
	entry.gzipped ??= gzipSync(entry.body)
	headers.push(['Content-Encoding', 'gzip'])
	return { status: 200, headers, body: entry.gzipped }
}

function respond(request: Request, entry: Entry, cacheState: 'HIT' | 'MISS') {
	const variant = variantOf({ method: request.method, ifNoneMatch: request.headers.get('If-None-Match') }, entry)
	const { status, headers, body } = answer(variant, entry, { cacheState, varyEncoding: false })
	return new Response(body, { status, headers })
}

/**
 * A fresh cached copy for this request, or null. The HTTP server asks before handing the
 * request to React Router, so a hit costs no more than sending the stored bytes.
 */
export function cachedPublicPage(request: {
	method: string
	/** The request's path and query, as it came. */
	target: string
	cookie: string | null | undefined
	ifNoneMatch: string | null | undefined
	acceptsGzip: boolean
}): CachedAnswer | null {
	if (request.method !== 'GET' && request.method !== 'HEAD') return null
	// Keys are normalised paths, which parse to themselves: a target stored as it came needs no parsing.
	let cached = entries.get(request.target)
	if (cached === undefined) {
		const key = cacheKeyOf({ method: request.method, url: `http://localhost${request.target}`, cookie: request.cookie })
		cached = key === null ? undefined : entries.get(key)
	} else if (PERSONAL_COOKIES.test(request.cookie ?? '')) return null
	if (!cached || Date.now() - cached.storedAt >= TTL_MS) return null
	const variant = variantOf(request, cached)
	cached.answers ??= new Map()
	let given = cached.answers.get(variant)
	if (!given) {
		given = answer(variant, cached, { cacheState: 'HIT', varyEncoding: true })
		cached.answers.set(variant, given)
	}
	return given
}

/** Serves a cached copy, or renders, stores and serves; other requests pass straight through. */
export async function withPublicPageCache(request: Request, render: () => Promise<Response>): Promise<Response> {
	const key = publicCacheKey(request)
	if (!key) return render()
	const cached = entries.get(key)
	if (cached && Date.now() - cached.storedAt < TTL_MS) return respond(request, cached, 'HIT')

	let pending = rendering.get(key)
	const renderedHere = !pending
	if (!pending) {
		const started = renderEntry(key, render).finally(() => {
			if (rendering.get(key) === started) rendering.delete(key)
		})
		pending = started
		rendering.set(key, started)
	}
	const result = await pending
	// A response that cannot be shared (an error, a redirect) goes only to the request that rendered it.
	if (result instanceof Response) return renderedHere ? result : render()
	return respond(request, result, 'MISS')
}

async function renderEntry(key: string, render: () => Promise<Response>): Promise<Entry | Response> {
	// Listening first, so that no change can slip in between reading the data and hearing of it.
	await ensureInvalidation()
	const renderedIn = generation
	const response = await render()
	if (response.status !== 200 || response.headers.has('Set-Cookie') || !response.body) return response
	const body = new Uint8Array(await response.arrayBuffer())
	const entry: Entry = {
		showsData: showsData(key),
		body,
		headers: [...response.headers.entries()].filter(([name]) => name !== 'content-length'),
		etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
		storedAt: Date.now(),
	}
	if (subscribed && (!entry.showsData || generation === renderedIn)) {
		if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
		entries.set(key, entry)
	}
	return entry
}

/** Script hashes for a page rendered without a nonce: the bytes are the same for everyone, so a CDN may keep them. */
export function inlineScriptHashes(html: string) {
	const hashes = new Set<string>()
	for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
		hashes.add(`'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`)
	}
	return [...hashes]
}
