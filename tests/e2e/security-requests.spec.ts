/**
 * What an attacker sends by hand, against a production server of this spec's own
 * (tests/support/private-server.ts): redirect targets that browsers normalise, header values a
 * redirect cannot carry, methods the app does not serve, and odd headers. Nothing may leave
 * the site and nothing may answer 5xx.
 */
import net from 'node:net'
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import type { PrivateServer } from '#tests/support/private-server.ts'
import { expect, test } from '../support/e2e.ts'
import { type PrivateServerWithDatabase, startServerWithDatabase } from '../support/private-server-database.ts'

const { createSession } = await import('#app/utils/session.server.ts')
const { createUser } = await import('#app/models/accounts/users.server.ts')

const PASSWORD = 'the-right-password-1'

/**
 * Values a browser reads as another host once it has dropped tabs and newlines, turned
 * backslashes into slashes and resolved dots; percent-encoded and non-ASCII look-alikes.
 */
const OFF_SITE_TARGETS = [
	'/\t/evil.example/x',
	'/\n/evil.example/x',
	'/\r/evil.example/x',
	'/\\evil.example/x',
	'/\\/evil.example/x',
	'\\\\evil.example/x',
	'/.//evil.example/x',
	'/./\\evil.example/x',
	'/%09/evil.example/x',
	'/%2F%2Fevil.example/x',
	'/%5Cevil.example/x',
	'/\uff0f/evil.example/x',
	'/\u3002/evil.example/x',
	'//evil.example/x',
	'https://evil.example/x',
	'/\t\\\tevil.example/x',
]

/** Values a Location header cannot carry as they are: CR/LF and characters above U+00FF. */
const UNSENDABLE_TARGETS = ['/dashboard\r\nSet-Cookie: injected=1', '/dashboard\u0100', '/courses/\u2603?q=\u{1F600}', '/dash\nboard']

/** Where a browser on the site goes with this Location or href (WHATWG URL parsing is the browser's own). */
function destination(server: PrivateServer, location: string | null) {
	return location === null ? null : new URL(location, `${server.url}/somewhere`).origin
}

/** One raw HTTP/1.1 exchange, for methods and headers fetch will not send; resolves with the status line's code. */
function rawRequest(server: PrivateServer, head: string) {
	return new Promise<string>((resolve) => {
		const socket = net.connect(server.port, '127.0.0.1', () => socket.write(head))
		let response = ''
		socket.setEncoding('utf8')
		socket.setTimeout(10_000, () => socket.destroy())
		socket.on('data', (chunk: string) => {
			response += chunk
			// An event stream never ends: its head is the answer.
			if (/\r\ncontent-type: text\/event-stream/i.test(response)) socket.destroy()
		})
		socket.on('close', () => resolve(response))
		socket.on('error', () => resolve(response))
	})
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0)

const decodeHtml = (value: string) =>
	value.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&lt;', '<')

test.describe('hostile requests', () => {
	test.describe.configure({ mode: 'serial' })
	let server: PrivateServer
	let db: Kysely<Database>
	let stopServer: PrivateServerWithDatabase['stop'] | undefined
	let student: { id: string; email: string; cookie: string }
	let partnerId: string

	test.beforeAll(async () => {
		test.setTimeout(120_000)
		;({ server, db, stop: stopServer } = await startServerWithDatabase())
		const user = await createUser(db, { email: 'redirects@example.com', name: 'Rita Redirect', password: PASSWORD, confirmed: true })
		student = { ...user, cookie: (await createSession(db, user.id)).setCookie.split(';')[0]! }
		partnerId = (await createUser(db, { email: 'partner@example.com', name: 'Admin', password: PASSWORD, role: 'admin', confirmed: true }))
			.id
	})

	test.afterAll(async () => {
		await stopServer?.()
	})

	const get = (path: string, cookie?: string) =>
		fetch(`${server.url}${path}`, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} })

	let addresses = 0
	/** A POST from an address of its own, so that no rate limit stands in the way of what is tested. */
	const post = (path: string, fields: Record<string, string>, cookie?: string) => {
		addresses += 1
		return fetch(`${server.url}${path}`, {
			method: 'POST',
			redirect: 'manual',
			body: new URLSearchParams(fields),
			headers: {
				Origin: server.url,
				'X-Forwarded-For': `198.18.${Math.floor(addresses / 250)}.${addresses % 250}`,
				...(cookie ? { Cookie: cookie } : {}),
			},
		})
	}

	test('redirectTo and returnTo values that browsers normalise never send the browser off the site', async () => {
		const escapes: string[] = []
		const check = (label: string, location: string | null) => {
			if (destination(server, location) !== server.url) escapes.push(`${label} → ${JSON.stringify(location)}`)
		}
		for (const target of OFF_SITE_TARGETS) {
			const query = new URLSearchParams({ redirectTo: target })
			const signedIn = await get(`/login?${query}`, student.cookie)
			expect(signedIn.status, target).toBe(302)
			check(`signed-in GET /login redirectTo=${JSON.stringify(target)}`, signedIn.headers.get('Location'))

			const login = await post('/login', { email: student.email, password: PASSWORD, redirectTo: target })
			expect(login.status, target).toBe(302)
			check(`POST /login redirectTo=${JSON.stringify(target)}`, login.headers.get('Location'))

			const markRead = await post('/dashboard/messages', { intent: 'mark-read', partnerId, redirectTo: target }, student.cookie)
			expect(markRead.status, target).toBe(302)
			check(`mark-read redirectTo=${JSON.stringify(target)}`, markRead.headers.get('Location'))

			const joined = await post('/waitlist', { name: 'Wanda Waiting', email: 'wanda@example.com', returnTo: target })
			expect(joined.status, target).toBe(302)
			check(`POST /waitlist returnTo=${JSON.stringify(target)}`, joined.headers.get('Location'))

			// The waitlist page's Cancel link and the form's way back are built from returnTo too.
			const page = await get(`/waitlist?${new URLSearchParams({ returnTo: target })}`)
			expect(page.status, target).toBe(200)
			const html = await page.text()
			const cancel = /<a[^>]*href="([^"]*)"[^>]*>\s*Cancel\s*<\/a>/.exec(html)?.[1]
			expect(cancel, target).toBeDefined()
			check(`waitlist Cancel link for returnTo=${JSON.stringify(target)}`, decodeHtml(cancel!))
			const returnTo = /name="returnTo" value="([^"]*)"/.exec(html)?.[1]
			check(`waitlist returnTo field for returnTo=${JSON.stringify(target)}`, decodeHtml(returnTo!))
		}
		expect(escapes).toEqual([])
	})

	test('a redirect target with CR/LF or characters above U+00FF is a same-site redirect, not a 500; the login keeps its session cookie', async () => {
		for (const target of UNSENDABLE_TARGETS) {
			const signedIn = await get(`/login?${new URLSearchParams({ redirectTo: target })}`, student.cookie)
			expect(signedIn.status, JSON.stringify(target)).toBe(302)
			expect(destination(server, signedIn.headers.get('Location'))).toBe(server.url)

			const login = await post('/login', { email: student.email, password: PASSWORD, redirectTo: target })
			expect(login.status, JSON.stringify(target)).toBe(302)
			expect(destination(server, login.headers.get('Location'))).toBe(server.url)
			expect(login.headers.getSetCookie().some((cookie) => cookie.startsWith('session='))).toBe(true)
			expect(login.headers.getSetCookie().some((cookie) => cookie.startsWith('injected='))).toBe(false)
		}
	})

	test('no method answers 5xx: the app serves GET, HEAD, POST, PUT, PATCH, DELETE and OPTIONS; anything else is a 405 or 501 with a short message', async () => {
		const methods = [
			'TRACE',
			'TRACK',
			'CONNECT',
			'PROPFIND',
			'PROPPATCH',
			'MKCOL',
			'COPY',
			'MOVE',
			'LOCK',
			'UNLOCK',
			'SEARCH',
			'PURGE',
			'LINK',
			'UNLINK',
			'REPORT',
			'MKACTIVITY',
			'CHECKOUT',
			'MERGE',
			'M-SEARCH',
			'NOTIFY',
			'SUBSCRIBE',
			'UNSUBSCRIBE',
			'QUERY',
			'FOO',
			'PUT',
			'PATCH',
			'DELETE',
			'OPTIONS',
			'HEAD',
		]
		const paths = [
			'/',
			'/login',
			'/dashboard',
			'/courses',
			'/faq',
			'/events',
			'/healthz',
			'/files/materials/1',
			'/webhooks/stripe',
			'/no-such-page',
		]
		const answers: string[] = []
		for (const method of methods) {
			// CONNECT names a host and port to tunnel to, not a path.
			for (const target of method === 'CONNECT' ? [`127.0.0.1:${server.port}`] : paths) {
				for (const cookie of ['', `Cookie: ${student.cookie}\r\n`]) {
					const response = await rawRequest(
						server,
						`${method} ${target} HTTP/1.1\r\nHost: localhost:${server.port}\r\n${cookie}Content-Length: 0\r\nConnection: close\r\n\r\n`,
					)
					const status = statusOf(response)
					const request = `${method} ${target}${cookie ? ' signed in' : ''}`
					if (status === 0 || status >= 500) answers.push(`${request} → ${status || 'no answer'}`)
					else if (!['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].includes(method) && ![400, 405, 501].includes(status)) {
						answers.push(`${request} → ${status}, not 400/405/501`)
					}
				}
			}
		}
		expect(answers).toEqual([])
		const trace = await rawRequest(server, `TRACE / HTTP/1.1\r\nHost: localhost:${server.port}\r\nConnection: close\r\n\r\n`)
		expect(trace).toMatch(/^HTTP\/1\.1 405 [\s\S]*Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS[\s\S]*\r\n\r\nMethod not allowed\.$/)
	})

	test('no header value a client can send answers 5xx', async () => {
		const headers = [
			'Cookie: session=%E0%A4%A',
			'Cookie: session="unterminated',
			'Cookie: ;;;=;=;',
			`Cookie: session=${'a'.repeat(4000)}`,
			'Cookie: trusted-device=%7B%22bad',
			'Cookie: toast=%00%01',
			'Accept: */*;q=banana',
			'Accept: text/html;q=1e999',
			'Accept-Encoding: gzip;q=-1, br;q=NaN',
			'Accept-Language: ;;;,,,q=',
			'If-None-Match: "unterminated',
			'If-Modified-Since: yesterday',
			'Range: bytes=99999999999999999999-',
			'Range: bytes=-0',
			'X-Forwarded-For: not-an-address',
			'X-Forwarded-For: ,,,',
			'X-Forwarded-Proto: gopher',
			'X-Forwarded-Host: evil.example',
			'Origin: %',
			'Referer: ::::',
			'Sec-Fetch-Site: ???',
			'Content-Type: multipart/form-data; boundary=',
			'Content-Type: application/x-www-form-urlencoded; charset=klingon',
			'Content-Encoding: gzip',
			'Transfer-Encoding: gzip',
			'User-Agent: \u00ff\u00fe',
			'X-Client-Ip: \u00ff',
		]
		const paths = ['/', '/login', '/dashboard', '/courses', '/events', '/files/materials/1', '/dashboard/messages']
		const answers: string[] = []
		for (const header of headers) {
			for (const path of paths) {
				for (const method of ['GET', 'POST']) {
					const body = method === 'POST' ? 'email=a%40example.com&password=x' : ''
					const response = await rawRequest(
						server,
						`${method} ${path} HTTP/1.1\r\nHost: localhost:${server.port}\r\nCookie: ${student.cookie}\r\n${header}\r\n` +
							`Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
					)
					const status = statusOf(response)
					if (status === 0 || status >= 500) answers.push(`${method} ${path} with ${JSON.stringify(header)} → ${status || 'no answer'}`)
				}
			}
		}
		expect(answers).toEqual([])
	})
})
