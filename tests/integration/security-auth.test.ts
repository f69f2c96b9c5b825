/**
 * Sessions, cookies, passwords and abuse limits that the rest of the suite
 * does not already prove (see README "Security" for the tests these sit next to).
 */
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import express from 'express'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import { trustDeviceCookie } from '#app/routes/auth/+shared/login-limits.server.ts'
import { action as loginAction } from '#app/routes/auth/login.tsx'
import { action as contactAction } from '#app/routes/public/contact.tsx'
import { clearDraftCookieHeader, draftCookieHeader } from '#app/routes/register/+shared/draft-cookie.server.ts'
import { parseEnv, resetEnvCache } from '#app/utils/env.server.ts'
import { hashPassword, PASSWORD_HASH_OPTIONS } from '#app/utils/password.server.ts'
import { baseSecurityHeaders, contentSecurityPolicy } from '#app/utils/security.server.ts'
import { clearSelectedCourseCookie } from '#app/utils/selected-course.server.ts'
import { clearSessionCookie, createSession } from '#app/utils/session.server.ts'
import { createToastHeaders } from '#app/utils/toast.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { callRoute, formRequest } from '#tests/support/requests.ts'

const t = useTestDatabase()

/** Every Set-Cookie the app can produce, through the app's own helpers. */
async function everyAppCookie(userId: string) {
	return [
		(await createSession(t.db, userId)).setCookie,
		await clearSessionCookie(),
		(await createToastHeaders({ type: 'success', title: 'Hi' })).get('Set-Cookie')!,
		await draftCookieHeader('00000000-0000-4000-8000-000000000000'),
		await clearDraftCookieHeader(),
		await clearSelectedCourseCookie(),
		await trustDeviceCookie(new Request('http://localhost/login'), 'cookies@example.com'),
	]
}

function attributesOf(setCookie: string) {
	const [pair, ...attributes] = setCookie.split(';').map((part) => part.trim())
	return { name: pair!.split('=')[0]!, attributes: attributes.map((attribute) => attribute.toLowerCase()) }
}

describe('cookies', () => {
	let userId: string
	const originalAppUrl = process.env.APP_URL
	beforeAll(async () => {
		userId = (await createUser(t.db, { email: 'cookies@example.com', name: 'Cookie Person', password: 'a-long-password-1' })).id
	})
	afterEach(() => {
		if (originalAppUrl === undefined) delete process.env.APP_URL
		else process.env.APP_URL = originalAppUrl
		resetEnvCache()
	})

	test('the helpers above are every cookie the app creates (a new createCookie or siteCookie fails here until it is listed)', () => {
		const sites: string[] = []
		const walk = (dir: string) => {
			for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
				const full = path.join(dir, entry.name)
				if (entry.isDirectory()) walk(full)
				else if (/\.tsx?$/.test(entry.name) && /\b(createCookie|siteCookie)\(/.test(fs.readFileSync(full, 'utf8')))
					sites.push(path.relative('app', full))
			}
		}
		walk('app')
		expect(sites.sort()).toEqual([
			'routes/auth/+shared/login-limits.server.ts',
			'routes/register/+shared/draft-cookie.server.ts',
			'utils/cookies.server.ts',
			'utils/selected-course.server.ts',
			'utils/session.server.ts',
			'utils/toast.server.ts',
		])
	})

	test('with an https APP_URL every cookie is __Host-, Secure, HttpOnly, SameSite=Lax, Path=/ and has no Domain', async () => {
		process.env.APP_URL = 'https://courses.example.com'
		resetEnvCache()
		expect(parseEnv(process.env).secureCookies).toBe(true)
		for (const setCookie of await everyAppCookie(userId)) {
			const { name, attributes } = attributesOf(setCookie)
			expect(name, setCookie).toMatch(/^__Host-/)
			expect(attributes, setCookie).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']))
			expect(
				attributes.some((attribute) => attribute.startsWith('domain=')),
				setCookie,
			).toBe(false)
		}
	})

	test('with an http APP_URL (development) cookies are still HttpOnly and SameSite=Lax, without Secure', async () => {
		process.env.APP_URL = 'http://localhost:3000'
		resetEnvCache()
		for (const setCookie of await everyAppCookie(userId)) {
			const { name, attributes } = attributesOf(setCookie)
			expect(name, setCookie).not.toMatch(/^__Host-/)
			expect(attributes, setCookie).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']))
			expect(attributes, setCookie).not.toContain('secure')
		}
	})
})

describe('password hashing', () => {
	test('a real hash is argon2id with m ≥ 19456 KiB, t ≥ 2, p = 1', async () => {
		const stored = await hashPassword('correct horse battery staple')
		const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored)
		expect(match, stored).not.toBeNull()
		const [, m, tCost, p] = match!.map(Number)
		expect(m).toBeGreaterThanOrEqual(19_456)
		expect(tCost).toBeGreaterThanOrEqual(2)
		expect(p).toBe(1)
		expect(PASSWORD_HASH_OPTIONS.memoryCost).toBe(m)
	})
})

/**
 * scripts/server/http.ts sets Express's 'trust proxy' to TRUST_PROXY and passes
 * req.ip on as x-client-ip. The same setting here shows which address a
 * client can and cannot choose.
 */
describe('trusted proxy and X-Forwarded-For', () => {
	let base: string
	let server: ReturnType<express.Express['listen']>
	const servers: ReturnType<express.Express['listen']>[] = []

	async function start(trustProxy: string | undefined) {
		const app = express()
		app.set('trust proxy', parseEnv({ NODE_ENV: 'test', TRUST_PROXY: trustProxy }).TRUST_PROXY)
		app.get('/', (req, res) => {
			res.send(req.ip)
		})
		server = app.listen(0, '127.0.0.1')
		servers.push(server)
		await new Promise((resolve) => server.once('listening', resolve))
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	}
	const ipFor = (forwardedFor?: string) =>
		fetch(base, { headers: forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {} }).then((response) => response.text())

	afterAll(() => {
		for (const running of servers) running.close()
	})

	test('TRUST_PROXY unset (0): X-Forwarded-For is ignored, the socket address counts', async () => {
		await start(undefined)
		expect(await ipFor()).toMatch(/127\.0\.0\.1$/)
		expect(await ipFor('1.2.3.4')).toMatch(/127\.0\.0\.1$/)
		expect(await ipFor('1.2.3.4, 5.6.7.8')).toMatch(/127\.0\.0\.1$/)
	})

	test('TRUST_PROXY=1: only the hop the proxy appended counts, whatever the client put before it', async () => {
		await start('1')
		expect(await ipFor()).toMatch(/127\.0\.0\.1$/)
		// The proxy appends the address it saw: 203.0.113.9. The client forged everything before it.
		expect(await ipFor('203.0.113.9')).toBe('203.0.113.9')
		expect(await ipFor('1.2.3.4, 203.0.113.9')).toBe('203.0.113.9')
		expect(await ipFor('10.0.0.1, 1.2.3.4, 203.0.113.9')).toBe('203.0.113.9')
		expect(await ipFor('garbage, 203.0.113.9')).toBe('203.0.113.9')
	})

	test('login failures stay limited when the client rotates a spoofed X-Forwarded-For', async () => {
		await start('1')
		const password = 'the-right-password-1'
		const user = await createUser(t.db, { email: 'spoof@example.com', name: 'Spoof Target', password, confirmed: true })
		const statuses: number[] = []
		for (let attempt = 0; attempt < 6; attempt++) {
			// Each attempt claims a new address: were it believed, the limit per account and address would never be reached.
			const ip = await ipFor(`192.0.2.${attempt + 1}, 203.0.113.77`)
			const response = await callRoute(loginAction, formRequest('/login', { email: user.email, password: 'wrong-password-1' }, { ip }))
			statuses.push(response.status)
		}
		expect(statuses).toEqual([400, 400, 400, 400, 400, 429])
		const ip = await ipFor('198.51.100.200, 203.0.113.77')
		const refused = await callRoute(loginAction, formRequest('/login', { email: user.email, password }, { ip }))
		expect(refused.status).toBe(429)
	})
})

describe('contact form abuse', () => {
	test('the sixth message within the hour from one address answers 429 with a clear message, and is not stored', async () => {
		const ip = '203.0.113.50'
		const before = await t.db
			.selectFrom('contact_submissions')
			.select((eb) => eb.fn.countAll<string>().as('n'))
			.executeTakeFirstOrThrow()
		const post = () =>
			callRoute(contactAction, formRequest('/contact', { name: 'Flooder', email: 'flood@example.com', message: 'Again' }, { ip }))
		for (let i = 0; i < 5; i++) expect((await post()).status).toBe(302)
		const refused = await post()
		expect(refused.status).toBe(429)
		expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/)
		expect(JSON.stringify(await refused.json())).toContain('Too many messages from your network. Please wait an hour and try again.')
		const after = await t.db
			.selectFrom('contact_submissions')
			.select((eb) => eb.fn.countAll<string>().as('n'))
			.executeTakeFirstOrThrow()
		expect(Number(after.n) - Number(before.n)).toBe(5)
		// Another address is not affected.
		const other = await callRoute(
			contactAction,
			formRequest('/contact', { name: 'Someone', email: 'someone@example.com', message: 'Hi' }, { ip: '203.0.113.51' }),
		)
		expect(other.status).toBe(302)
	})

	test('a filled honeypot is refused and stores nothing', async () => {
		await t.db.deleteFrom('contact_submissions').execute()
		const response = await callRoute(
			contactAction,
			formRequest(
				'/contact',
				{ name: 'Bot', email: 'bot@example.com', message: 'Buy', website: 'https://spam.example' },
				{ ip: '203.0.113.52' },
			),
		)
		expect(response.status).toBe(400)
		expect(await t.db.selectFrom('contact_submissions').selectAll().execute()).toEqual([])
	})
})

describe('security headers', () => {
	test('HSTS is sent in production over https only', () => {
		expect(baseSecurityHeaders({ isProduction: true, secure: true })['Strict-Transport-Security']).toBe(
			'max-age=31536000; includeSubDomains',
		)
		expect(baseSecurityHeaders({ isProduction: true, secure: false })['Strict-Transport-Security']).toBeUndefined()
		expect(baseSecurityHeaders({ isProduction: false, secure: true })['Strict-Transport-Security']).toBeUndefined()
	})

	test('the production CSP allows scripts by nonce or hash only, and sets object-src, base-uri and frame-ancestors', () => {
		for (const policy of [
			contentSecurityPolicy({ nonce: 'abc', isDevelopment: false }),
			contentSecurityPolicy({ scriptHashes: ["'sha256-xyz'"], isDevelopment: false }),
		]) {
			const directives = Object.fromEntries(policy.split('; ').map((directive) => [directive.split(' ')[0], directive]))
			expect(directives['script-src']).not.toContain('unsafe-inline')
			expect(directives['script-src']).not.toContain('unsafe-eval')
			expect(directives['object-src']).toBe("object-src 'none'")
			expect(directives['base-uri']).toBe("base-uri 'none'")
			expect(directives['frame-ancestors']).toBe("frame-ancestors 'self'")
			expect(directives['default-src']).toBe("default-src 'self'")
		}
	})
})
