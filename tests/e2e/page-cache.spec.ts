import { expect, test } from '../support/e2e.ts'

test('an anonymous visitor gets a shared, cacheable public page with an ETag', async ({ request }) => {
	const first = await request.get('/faq')
	expect(first.status()).toBe(200)
	const etag = first.headers()['etag']
	expect(etag).toMatch(/^"[\w-]+"$/)
	expect(first.headers()['cache-control']).toContain('public')
	expect(first.headers()['vary']).toContain('Cookie')
	const csp = first.headers()['content-security-policy'] ?? ''
	expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')+/)
	expect(csp).not.toContain('nonce-')

	const second = await request.get('/faq')
	expect(second.headers()['x-page-cache']).toBe('HIT')
	expect(await second.text()).toBe(await first.text())

	const revalidated = await request.get('/faq', { headers: { 'If-None-Match': etag! } })
	expect(revalidated.status()).toBe(304)
})

test('a signed-in visitor is never served the shared copy', async ({ page, createUser, signIn }) => {
	const user = await createUser({ name: 'Cache Checker' })
	await signIn(user)
	const response = await page.goto('/faq')
	expect(response?.headers()['cache-control']).toBe('private, no-store')
	expect(response?.headers()['x-page-cache']).toBeUndefined()
	expect(response?.headers()['content-security-policy']).toMatch(/'nonce-[^']+'/)
	await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeAttached()
})

test('a new course shows on the cached course list at once', async ({ request, db }) => {
	await request.get('/courses')
	const cached = await request.get('/courses')
	expect(cached.headers()['x-page-cache']).toBe('HIT')
	const title = `Cache Busting Course ${Date.now()}`
	const course = await db.insertInto('courses').values({ title, capacity: 5 }).returning('id').executeTakeFirstOrThrow()
	await db.selectNoFrom((eb) => eb.fn<unknown>('pg_notify', [eb.val('app_events'), eb.val(JSON.stringify({ type: 'course.changed', courseId: course.id }))]).as('n')).execute()
	await expect.poll(async () => (await (await request.get('/courses')).text()).includes(title)).toBe(true)
})

test('the shared pages run their scripts under the hash policy without violations', async ({ page }) => {
	await page.goto('/')
	await page.goto('/courses')
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
})
