import fs from 'node:fs'
import { createRequire } from 'node:module'
import { test as base, expect, type Page } from '@playwright/test'
import type { AxeResults, RunOptions } from 'axe-core'
import type { Kysely } from 'kysely'
import type { Database, Role } from '#db/types.ts'
import { e2eServerEnv } from './e2e-env.ts'
import { fileDocument } from './nu-checker.ts'

// The fixtures sign session cookies and open the database exactly as the server does.
Object.assign(process.env, e2eServerEnv())

const { openDatabase } = await import('#app/utils/db.server.ts')
const { createSession } = await import('#app/utils/session.server.ts')
const { hashPassword } = await import('#app/utils/password.server.ts')

const SANDBOXED_MAIL_FRAME =
	/^Blocked script execution in 'http:\/\/[^/']+\/dev\/mailbox\/\d+\/html' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

export type TestUser = { id: string; email: string; name: string; password: string; role: Role }

type WorkerFixtures = {
	db: Kysely<Database>
	/**
	 * Runs axe on a document as the server sent it, in a page of its own that shows it without
	 * running its scripts: what a browser without JavaScript shows (axe itself needs scripts).
	 */
	checkWithoutScripts: (url: string, markup: string) => Promise<AxeViolation[]>
}
type TestFixtures = {
	/** Runs axe on the page as it is now (JavaScript-enabled pages); the page fixture also checks each document a test loaded. */
	checkA11y: (page?: Page) => Promise<void>
	createUser: (options?: Partial<Omit<TestUser, 'id'>> & { confirmed?: boolean }) => Promise<TestUser>
	/** Signs the browser context in as the user by setting a real session cookie. */
	signIn: (user: TestUser) => Promise<void>
}

/**
 * axe-core's minified build: the builder's default is the readable one, twice the size, which it
 * evaluates in the page twice per check.
 */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

type AxeViolation = { url: string; id: string; help: string; targets: string[] }

declare global {
	interface Window {
		axe: typeof import('axe-core')
	}
}

function violationsOf(url: string, violations: AxeResults['violations']): AxeViolation[] {
	return violations.map((violation) => ({
		url,
		id: violation.id,
		help: violation.help,
		targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
	}))
}

/**
 * Only violations are reported in full: axe otherwise builds a selector for every node that
 * passed a rule, most of a check's time, for results nobody reads.
 */
const AXE_OPTIONS = { runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'] } satisfies RunOptions

/** What @axe-core/playwright's legacy mode sets in each frame before a run. */
const AXE_IN_FRAME = `${axeSource};axe.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } })`

/**
 * axe's legacy mode, as @axe-core/playwright runs it (axe in each frame, run from the top one,
 * which merges the frames' results; no blank page to merge in: the same rules and results in
 * about 60 % of the time), with axe evaluated once per frame instead of twice in the top one,
 * and only the violations sent back: a fifth of each check's time.
 */
async function axeViolations(page: Page) {
	for (const frame of page.frames()) {
		// A frame that goes away meanwhile is not checked, as with the builder.
		await frame.evaluate(AXE_IN_FRAME).catch(() => undefined)
	}
	const violations = await page.evaluate(
		async (options) => (await window.axe.run({ exclude: [], include: [] }, options)).violations,
		AXE_OPTIONS,
	)
	return violationsOf(page.url(), violations)
}

/**
 * Built assets (stylesheet, icons) by URL, for the page that checks documents without their
 * scripts: intercepting its requests turns the browser's cache off, and every document would
 * fetch them from the server again. Their names carry a content hash.
 */
const assetResponses = new Map<string, Promise<{ status: number; headers: Record<string, string>; body: Buffer }>>()

/** Markup this worker has already checked: most pages come back unchanged in test after test. */
const checkedMarkup = new Set<string>()

/** The document without its scripts and their per-request nonces: what a browser without JavaScript renders. */
function markupWithoutScripts(html: string) {
	return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '').replace(/ nonce="[^"]*"/g, '')
}

/**
 * Password hashes by password, made once per worker: argon2id is built to be slow (19 MiB, two
 * passes), and nearly every user a test creates has the default password. The server verifies
 * each login against the stored hash all the same.
 */
const passwordHashes = new Map<string, Promise<string>>()
function passwordHash(password: string) {
	let hashed = passwordHashes.get(password)
	if (!hashed) {
		hashed = hashPassword(password)
		passwordHashes.set(password, hashed)
	}
	return hashed
}

let counter = 0
function uniqueEmail(prefix = 'user') {
	counter += 1
	return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
	// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's needs from its first parameter, which must be destructured
	extraHTTPHeaders: async ({}, use) => {
		const octet = () => Math.floor(Math.random() * 254) + 1
		// 198.18.0.0/15 is reserved for benchmarking: never a real visitor.
		await use({ 'X-Forwarded-For': `198.18.${octet()}.${octet()}` })
	},

	db: [
		// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's needs from its first parameter, which must be destructured
		async ({}, use) => {
			const handle = await openDatabase({ databaseUrl: e2eServerEnv().DATABASE_URL, poolMax: 2 })
			await use(handle.db)
			await handle.close()
		},
		{ scope: 'worker' },
	],

	checkWithoutScripts: [
		async ({ browser }, use) => {
			let checker: Page | undefined
			await use(async (url, markup) => {
				if (!checker) {
					checker = await (await browser.newContext({ javaScriptEnabled: true })).newPage()
					// axe is in every document (and frame) the checker opens, evaluated before the document's own content.
					await checker.addInitScript({ content: axeSource })
					await checker.route('**/*', async (route) => {
						const request = route.request()
						// The page itself, and any frame in a document (its content is not the document's).
						if (request.isNavigationRequest()) {
							return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Checker</title>' })
						}
						const { pathname } = new URL(request.url())
						if (!pathname.startsWith('/assets/') && pathname !== '/favicon.svg') return route.continue()
						let asset = assetResponses.get(request.url())
						if (!asset) {
							asset = route.fetch().then(async (response) => ({
								status: response.status(),
								headers: response.headers(),
								body: await response.body(),
							}))
							assetResponses.set(request.url(), asset)
							// A fetch that failed is asked again next time, not answered from the cache.
							asset.catch(() => assetResponses.delete(request.url()))
						}
						return route.fulfill(await asset)
					})
					// On the site's origin, so that the documents' own addresses (stylesheets, frames) resolve as they do there.
					await checker.goto(url)
				}
				// Written into the one open document (document.open/write, as the server's bytes arrive
				// in a browser), which keeps axe loaded: a navigation per document costs as much again.
				await checker.setContent(markup)
				const violations = await checker.evaluate(async (options) => {
					// Elements styled before the stylesheet arrived would start their colour transitions
					// from none: the check is of the page as it settles, the state a reader is left with.
					for (const animation of document.getAnimations()) {
						if (animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY) animation.finish()
					}
					return (await window.axe.run(document, options)).violations
				}, AXE_OPTIONS)
				return violationsOf(url, violations)
			})
			// An asset still being fetched when the worker ends would throw "Response has been disposed"
			// outside any test: the handlers' late errors are dropped with the routes.
			await checker?.unrouteAll({ behavior: 'ignoreErrors' })
			await checker?.context().close()
		},
		{ scope: 'worker' },
	],

	page: [
		async ({ page, javaScriptEnabled, checkWithoutScripts }, use, testInfo) => {
			const consoleErrors: string[] = []
			const pageErrors: string[] = []
			const expectedFailures = new Set<string>()
			/** Every document the test loaded (GET or the answer to a form post), as the server sent it. */
			const documents: Array<{ url: string; html: Promise<string> }> = []
			page.on('response', (response) => {
				const request = response.request()
				const status = response.status()
				// 4xx answers to pages and to the router's data requests are the app speaking (validation, 404, 429).
				if (status >= 400 && status < 500 && ['document', 'fetch'].includes(request.resourceType())) {
					expectedFailures.add(response.url())
				}
				if (request.frame() !== page.mainFrame() || request.resourceType() !== 'document') return
				const type = response.headers()['content-type'] ?? ''
				if (type.startsWith('text/html')) documents.push({ url: response.url(), html: response.text().catch(() => '') })
			})
			page.on('console', (message) => {
				if (message.type() !== 'error' || expectedFailures.has(message.location().url)) return
				// The dev mailbox shows a mail's HTML in a frame sandboxed without scripts: the browser
				// refuses the test harness's own scripts there and says so, which is the sandbox working.
				if (SANDBOXED_MAIL_FRAME.test(message.text())) return
				consoleErrors.push(message.text())
			})
			page.on('pageerror', (error) => pageErrors.push(error.message))
			// A violation the page's code catches (an eval probe, say) logs nothing: listen for the event itself.
			const cspViolations: string[] = []
			if (javaScriptEnabled) {
				await page.exposeFunction('__reportCspViolation', (violation: string) => cspViolations.push(violation))
				await page.addInitScript(() => {
					document.addEventListener('securitypolicyviolation', (event) => {
						const report = (window as unknown as { __reportCspViolation: (violation: string) => void }).__reportCspViolation
						void report(
							`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber}) on ${location.pathname}`,
						)
					})
				})
			}
			if (javaScriptEnabled) {
				// A test acts on a page once React has hydrated it, as a person would once it responds
				// (a page sent without scripts is ready as it is).
				const goto = page.goto.bind(page)
				page.goto = async (url, options) => {
					const response = await goto(url, options)
					await page.waitForFunction(
						() => document.documentElement.dataset.hydrated === 'true' || !document.querySelector('script[type="module"]'),
					)
					return response
				}
			}
			await use(page)

			// Each distinct document goes to the Nu Html Checker once the run ends (e2e-global-teardown.ts).
			const nuDirectory = process.env.E2E_HTML_DIR
			if (nuDirectory) {
				for (const document of documents) {
					const html = await document.html
					if (html) fileDocument(nuDirectory, document.url, html, markupWithoutScripts(html))
				}
			}
			const violations: AxeViolation[] = []
			if (javaScriptEnabled && !page.isClosed()) {
				// From the top, as the page first shows: at the scroll a test leaves, a control that happens to
				// pass under the sticky header is judged by the sliver left visible (axe's target size).
				await page.evaluate(() => window.scrollTo(0, 0)).catch(() => {})
				violations.push(...(await axeViolations(page)))
			}
			// The JavaScript-disabled project runs every test but the @js-only ones and checks the same
			// documents: here only those tests' documents need it.
			if (!javaScriptEnabled || testInfo.tags.includes('@js-only')) {
				for (const document of documents) {
					const markup = markupWithoutScripts(await document.html)
					if (!markup || checkedMarkup.has(markup)) continue
					checkedMarkup.add(markup)
					violations.push(...(await checkWithoutScripts(document.url, markup)))
				}
			}
			expect(violations, 'accessibility violations (axe)').toEqual([])
			expect(pageErrors, 'uncaught page errors').toEqual([])
			expect(consoleErrors, 'console errors (including CSP violations)').toEqual([])
			expect(cspViolations, 'CSP violations reported by the browser').toEqual([])
		},
		// Checking every document a test loaded with axe takes a while of its own.
		{ scope: 'test', timeout: 120_000 },
	],

	checkA11y: async ({ page }, use) => {
		await use(async (target = page) => {
			expect(await axeViolations(target)).toEqual([])
		})
	},

	createUser: async ({ db }, use) => {
		await use(async (options = {}) => {
			const email = (options.email ?? uniqueEmail(options.role ?? 'student')).toLowerCase()
			const password = options.password ?? 'correct-horse-battery'
			const name = options.name ?? 'Test Student'
			const role = options.role ?? 'student'
			const user = await db
				.insertInto('users')
				.values({
					email,
					password_hash: await passwordHash(password),
					email_confirmed_at: options.confirmed === false ? null : new Date(),
				})
				.returning('id')
				.executeTakeFirstOrThrow()
			await db.insertInto('profiles').values({ id: user.id, name, role }).execute()
			return { id: user.id, email, name, password, role }
		})
	},

	signIn: async ({ db, context, baseURL }, use) => {
		await use(async (user) => {
			const { setCookie } = await createSession(db, user.id)
			const [pair] = setCookie.split(';')
			const separator = pair!.indexOf('=')
			await context.addCookies([
				{
					name: pair!.slice(0, separator),
					value: pair!.slice(separator + 1),
					url: baseURL!,
					httpOnly: true,
					sameSite: 'Lax',
				},
			])
		})
	},
})

export { expect }
