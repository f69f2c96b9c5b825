import { expect, test } from '../support/e2e.ts'

test('the health check answers and security headers are set', async ({ request }) => {
	const response = await request.get('/healthz')
	expect(response.status()).toBe(200)
	expect(await response.json()).toEqual({ status: 'ok' })
	expect(response.headers()['x-content-type-options']).toBe('nosniff')
})

test('a personal document carries a per-response nonce in its Content-Security-Policy', async ({ request }) => {
	const response = await request.get('/login')
	const csp = response.headers()['content-security-policy'] ?? ''
	expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
	expect(csp).toContain("object-src 'none'")
	expect(csp).toContain("base-uri 'none'")
	expect(csp).toContain("frame-ancestors 'self'")
	const again = (await request.get('/login')).headers()['content-security-policy']
	expect(again).not.toBe(csp)
})

test('an unknown route shows the 404 page', async ({ page }) => {
	const response = await page.goto('/no-such-page')
	expect(response?.status()).toBe(404)
	await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible()
	await page.getByRole('link', { name: /home/i }).first().click()
	await expect(page).toHaveURL(/\/$/)
})

test('a cross-site form post is refused', async ({ request }) => {
	const response = await request.post('/contact', {
		headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
		form: { name: 'Mallory', email: 'm@example.com', message: 'hi' },
	})
	expect(response.status()).toBe(403)
})

test('a signed-in visitor sees Dashboard and Logout; logging out signs them out', async ({ page, createUser, signIn }) => {
	const user = await createUser({ name: 'Header Tester' })
	await signIn(user)
	await page.goto('/about')
	const header = page.getByRole('banner')
	await page.setViewportSize({ width: 1280, height: 800 })
	await expect(header.getByRole('link', { name: 'Dashboard' })).toBeVisible()
	await header.getByRole('button', { name: 'Logout' }).click()
	await expect(page.getByText('Logged out successfully')).toBeVisible()
	await expect(header.getByRole('link', { name: 'Log in' })).toBeVisible()
})

test('the mobile menu opens without JavaScript', async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 800 })
	await page.goto('/about')
	// One menu for every screen: on a phone its list shows once the Menu button opens it.
	const nav = page.getByRole('navigation', { name: 'Main' })
	await expect(nav).toBeHidden()
	await page.getByLabel('Menu').click()
	await expect(nav.getByRole('link', { name: 'Contact' })).toBeVisible()
	// The list follows its button: the next Tab reaches its first link.
	await page.keyboard.press('Tab')
	await expect(nav.getByRole('link', { name: 'Home' })).toBeFocused()
	await nav.getByRole('link', { name: 'Contact' }).click()
	await expect(page).toHaveURL(/\/contact$/)
	// A new page comes with the menu closed.
	await expect(nav).toBeHidden()
})

test('an aborted data request is not reported as an error, and any other failure still is @js-only', async ({ browser, baseURL }) => {
	// A page of its own: the control failure below would fail the page fixture's own check.
	const context = await browser.newContext({ baseURL })
	const page = await context.newPage()
	const errors: string[] = []
	page.on('pageerror', (error) => errors.push(error.message))
	await page.goto('/login')
	await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')

	// As React Router's decoder leaves a request aborted mid-response: the stream's `closed` promise, unhandled.
	await page.evaluate(() => {
		const controller = new AbortController()
		const stream = new ReadableStream({
			start: (source) => controller.signal.addEventListener('abort', () => source.error(controller.signal.reason)),
		})
		void stream.getReader().closed.then(() => undefined)
		controller.abort()
	})
	await page.evaluate(() => {
		void Promise.reject(new Error('a real failure'))
	})
	await expect.poll(() => errors).toEqual(['a real failure'])
	await context.close()
})

test('the accessibility check of a document without its scripts finds what is wrong with it, styles included', async ({
	request,
	checkWithoutScripts,
}) => {
	const login = await (await request.get('/login')).text()
	const stylesheet = login.match(/href="(\/assets\/[^"]+\.css)"/)?.[1]
	expect(stylesheet).toBeTruthy()
	const documentWith = (body: string) =>
		`<!DOCTYPE html><html lang="en"><head><title>Check</title><link rel="stylesheet" href="${stylesheet}"></head><body><main>${body}</main></body></html>`
	const broken = await checkWithoutScripts(
		'/accessibility-check',
		documentWith('<img src="/favicon.svg"><input name="q"><p class="text-brand-100">Faint text on white</p>'),
	)
	expect(broken.map((violation) => violation.id).sort()).toEqual(['color-contrast', 'image-alt', 'label'])
	const fixed = await checkWithoutScripts(
		'/accessibility-check',
		documentWith('<img src="/favicon.svg" alt="Logo"><label>Search <input name="q"></label><p class="text-ink">Clear text on white</p>'),
	)
	expect(fixed).toEqual([])
})
