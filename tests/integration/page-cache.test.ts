import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { stopEventHub } from '#app/services/events/hub.server.ts'
import {
	cachedPublicPage,
	configureSharedPages,
	invalidatePagesShowingData,
	publicCacheKey,
	withPublicPageCache,
} from '#app/utils/page-cache.server.ts'
import { sharedPageKindOf } from '#app/utils/root-data.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { loadRouteTable } from '#tests/support/route-table.ts'

useTestDatabase()
let sharedPatterns: string[]
beforeAll(async () => {
	// As the server does at start-up: the routes' own handles say which pages visitors share.
	const table = await loadRouteTable()
	configureSharedPages(table.map((route) => ({ pattern: route.path, handle: route.module.handle })))
	sharedPatterns = table.filter((route) => sharedPageKindOf(route.module.handle) !== null).map((route) => route.path)
})
afterAll(() => stopEventHub())

const get = (path: string, cookie?: string) => new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} })

describe('which requests share a cached page', () => {
	test('the pages whose handle says so, and only they: the public pages a visitor sees alike', () => {
		expect(sharedPatterns.sort()).toEqual(['/', '/about', '/community', '/courses', '/courses/:id', '/faq', '/privacy', '/terms'])
	})

	test.each([
		['/', '/'],
		['/courses', '/courses'],
		['/courses/12', '/courses/12'],
		['/courses.data?_routes=routes%2Fpublic%2Fcourses', '/courses.data?_routes=routes%2Fpublic%2Fcourses'],
		['/community?q=sarah', null],
		['/courses/12?dialog=auth', null],
		['/?x=1', null],
		['/login', null],
		['/dashboard', null],
	])('%s → %s', (path, key) => {
		expect(publicCacheKey(get(path))).toBe(key)
	})

	test('a visitor with a session, toast or registration cookie is never served the shared copy', () => {
		expect(publicCacheKey(get('/', 'session=abc'))).toBeNull()
		expect(publicCacheKey(get('/', 'theme=dark; toast=xyz'))).toBeNull()
		expect(publicCacheKey(get('/', '__Host-registration=1'))).toBeNull()
		expect(publicCacheKey(get('/', 'theme=dark'))).toBe('/')
	})

	test('a POST is never cached', () => {
		expect(publicCacheKey(new Request('http://localhost/', { method: 'POST' }))).toBeNull()
	})
})

describe('the cache', () => {
	test('a burst of visitors renders the page once, then it is served from memory with an ETag', async () => {
		let renders = 0
		const render = async () => {
			renders += 1
			await new Promise((resolve) => setTimeout(resolve, 20))
			return new Response('<html>same for everyone</html>', { headers: { 'Content-Type': 'text/html' } })
		}
		const responses = await Promise.all(Array.from({ length: 10 }, () => withPublicPageCache(get('/faq'), render)))
		expect(renders).toBe(1)
		expect(await Promise.all(responses.map((response) => response.text()))).toEqual(Array(10).fill('<html>same for everyone</html>'))
		const hit = await withPublicPageCache(get('/faq'), render)
		expect(hit.headers.get('X-Page-Cache')).toBe('HIT')
		const etag = hit.headers.get('ETag')!
		const revalidated = await withPublicPageCache(new Request('http://localhost/faq', { headers: { 'If-None-Match': etag } }), render)
		expect(revalidated.status).toBe(304)
		expect(renders).toBe(1)
	})

	test('an answer that cannot be shared goes to its own request only', async () => {
		let renders = 0
		const render = async () => {
			renders += 1
			await new Promise((resolve) => setTimeout(resolve, 20))
			return new Response('personal', { headers: { 'Set-Cookie': 'a=b' } })
		}
		const responses = await Promise.all(Array.from({ length: 3 }, () => withPublicPageCache(get('/about'), render)))
		expect(await Promise.all(responses.map((response) => response.text()))).toEqual(['personal', 'personal', 'personal'])
		expect(renders).toBe(3)
	})

	test('a render that began before a change is neither shared with later visitors nor kept', async () => {
		let finishOldRender!: () => void
		const oldRender = () =>
			new Promise<Response>((resolve) => {
				finishOldRender = () => resolve(new Response('before the change', { headers: { 'Content-Type': 'text/html' } }))
			})
		const early = withPublicPageCache(get('/courses/3'), oldRender)
		await expect.poll(() => finishOldRender).toBeDefined()

		invalidatePagesShowingData() // what a course, seat or settings change event does
		const late = await withPublicPageCache(
			get('/courses/3'),
			async () => new Response('after the change', { headers: { 'Content-Type': 'text/html' } }),
		)
		expect(await late.text()).toBe('after the change')
		finishOldRender()
		expect(await (await early).text()).toBe('before the change')

		const next = await withPublicPageCache(get('/courses/3'), async () => new Response('rendered again'))
		expect(next.headers.get('X-Page-Cache')).toBe('HIT')
		expect(await next.text()).toBe('after the change')
	})

	test('the HTTP server answers a fresh copy before the router: plain, gzipped once, or 304', async () => {
		const facts = { method: 'GET', target: '/courses', cookie: undefined, ifNoneMatch: undefined, acceptsGzip: false }
		expect(cachedPublicPage(facts)).toBeNull()
		const html = `<html>${'same for everyone '.repeat(200)}</html>`
		await withPublicPageCache(get('/courses'), async () => new Response(html, { headers: { 'Content-Type': 'text/html' } }))

		const plain = cachedPublicPage(facts)!
		expect(plain.status).toBe(200)
		// The same answer each time (the server keeps its headers by it); a target that needs normalising finds the same copy.
		expect(cachedPublicPage(facts)).toBe(plain)
		expect(cachedPublicPage({ ...facts, target: '/./courses' })).toBe(plain)
		expect(cachedPublicPage({ ...facts, target: '/courses?' })).toBe(plain)
		expect(new TextDecoder().decode(plain.body!)).toBe(html)
		const headers = new Map(plain.headers)
		expect(headers.get('X-Page-Cache')).toBe('HIT')
		expect(headers.get('Vary')).toBe('Cookie, Accept-Encoding')
		expect(headers.get('Content-Encoding')).toBeUndefined()

		const gzipped = cachedPublicPage({ ...facts, acceptsGzip: true })!
		expect(new Map(gzipped.headers).get('Content-Encoding')).toBe('gzip')
		expect(gunzipSync(gzipped.body!).toString()).toBe(html)
		expect(cachedPublicPage({ ...facts, acceptsGzip: true })!.body).toBe(gzipped.body)

		expect(cachedPublicPage({ ...facts, ifNoneMatch: headers.get('ETag') })).toMatchObject({ status: 304, body: null })
		expect(cachedPublicPage({ ...facts, method: 'HEAD' })).toMatchObject({ status: 200, body: null })
		expect(cachedPublicPage({ ...facts, cookie: 'session=abc' })).toBeNull()
		expect(cachedPublicPage({ ...facts, method: 'POST' })).toBeNull()
		invalidatePagesShowingData()
		expect(cachedPublicPage(facts)).toBeNull()
	})

	test('a data change drops the pages that show data and keeps those made of code alone', async () => {
		const page = (body: string) => async () => new Response(body, { headers: { 'Content-Type': 'text/html' } })
		await withPublicPageCache(get('/'), page('home before'))
		await withPublicPageCache(get('/terms'), page('terms'))
		invalidatePagesShowingData()
		expect(await (await withPublicPageCache(get('/'), page('home after'))).text()).toBe('home after')
		const terms = await withPublicPageCache(get('/terms'), page('terms rendered again'))
		expect(terms.headers.get('X-Page-Cache')).toBe('HIT')
		expect(await terms.text()).toBe('terms')
	})
})
