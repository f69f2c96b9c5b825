/**
 * HTTP-level attacks and faults against a production server of this spec's
 * own (tests/support/private-server.ts): its own database, so the before/after
 * snapshots are exact, and a process the test may stop, kill and restart.
 */
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import type { Kysely } from 'kysely'
import pg from 'pg'
import type { Database } from '#db/types.ts'
import {
	insertCommunityThread,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertLiveSession,
	insertPaidPayment,
	insertPlanPurchase,
	insertUser,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { dropServerDatabase, type PrivateServer, snapshot, startServer, startTcpProxy } from '#tests/support/private-server.ts'
import { concretePath, listRoutes, paramNames } from '#tests/support/route-table.ts'
import { expect, test } from '../support/e2e.ts'
import { type PrivateServerWithDatabase, startServerWithDatabase } from '../support/private-server-database.ts'

const { openDatabase } = await import('#app/utils/db.server.ts')
const { createSession } = await import('#app/utils/session.server.ts')
const { ORPHAN_GRACE_MS } = await import('#app/models/materials/orphans.server.ts')
const { LocalFileStorage } = await import('#app/services/storage/local.server.ts')

/** The access table's six visitors (tests/integration/security-access.test.ts): instructors of this course and of another. */
type Visitor = 'anonymous' | 'stranger' | 'student' | 'courseInstructor' | 'otherInstructor' | 'admin'
const VISITORS: Visitor[] = ['anonymous', 'stranger', 'student', 'courseInstructor', 'otherInstructor', 'admin']

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')

/** Every file under a private server's local store of course materials, hidden ones included. */
function storedMaterialFiles(dataDir: string) {
	const root = path.join(dataDir, 'files', 'courses')
	if (!fs.existsSync(root)) return []
	return fs
		.readdirSync(root, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.join(entry.parentPath, entry.name))
}

/** The names of those files with their random parts blanked, sorted; a temporary file says whether it has bytes yet. */
function storedMaterialShapes(dataDir: string) {
	return storedMaterialFiles(dataDir)
		.map((file) => {
			const name = path.basename(file).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{uuid}')
			if (!name.endsWith('.tmp')) return name
			return `${name} (${fs.statSync(file, { throwIfNoEntry: false })?.size ? 'partly written' : 'empty'})`
		})
		.sort()
}

/** Every query parameter the app's modules read, found in their source so that a new one is covered too. */
function queryParamNames() {
	// searchText (app/utils/misc.ts) reads `q` unless it is given another name; the overview's range
	// form (app/routes/admin/overview.tsx) is read whole by its Zod schema.
	const names = new Set<string>(['q', 'from', 'to', 'group'])
	for (const entry of fs.readdirSync('app', { recursive: true, withFileTypes: true })) {
		if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue
		const source = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8')
		const reads = /(?:searchParams|params)\.get(?:All)?\('(\w+)'\)|_PARAM = '(\w+)'|searchText\([^)]*?name: '(\w+)'/g
		for (const match of source.matchAll(reads)) names.add((match[1] ?? match[2] ?? match[3])!)
	}
	return [...names].sort()
}

test.describe('forgery, GET safety and headers', () => {
	test.describe.configure({ mode: 'serial' })
	let server: PrivateServer
	let db: Kysely<Database>
	let stopServer: PrivateServerWithDatabase['stop'] | undefined
	let params: Record<string, string>
	let studentId: string
	const cookies = {} as Record<Visitor, string>

	async function cookieFor(userId: string) {
		const { setCookie } = await createSession(db, userId)
		return setCookie.split(';')[0]!
	}

	test.beforeAll(async () => {
		test.setTimeout(120_000)
		;({ server, db, stop: stopServer } = await startServerWithDatabase())
		const stranger = await insertUser(db, { email: 'stranger@example.com' })
		const student = await insertUser(db, { email: 'student@example.com' })
		studentId = student
		const admin = await insertUser(db, { role: 'admin', email: 'admin@example.com' })
		const courseInstructor = await insertUser(db, { role: 'instructor', email: 'teacher@example.com' })
		const otherInstructor = await insertUser(db, { role: 'instructor', email: 'other-teacher@example.com' })
		const course = await insertCourse(db, { title: 'Crawl course', capacity: 10 })
		const otherCourse = await insertCourse(db, { title: 'Another course', capacity: 10 })
		await insertCourseStaff(db, { courseId: course.id, userId: courseInstructor })
		await insertCourseStaff(db, { courseId: otherCourse.id, userId: otherInstructor })
		const enrollment = await insertEnrollment(db, { userId: student, courseId: course.id })
		// The student pays on a plan: its update-card page is crawled and posted to as every visitor.
		const { planId } = await insertPlanPurchase(db, { userId: student, courseId: course.id, enrollmentId: enrollment.id })
		const weekId = await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Week' })
		const liveSessionId = await insertLiveSession(db, { courseId: course.id })
		const item = await db
			.insertInto('material_items')
			.values({
				material_id: weekId,
				title: 'Video',
				type: 'video',
				category: 'material',
				file_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		const message = await db
			.insertInto('messages')
			.values({ sender_id: admin, receiver_id: student, content: 'Hello' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const attachment = await db
			.insertInto('message_attachments')
			.values({ message_id: message.id, name: 'a.txt', type: 'text/plain', size_bytes: 1, storage_key: `attachments/${admin}/a.txt` })
			.returning('id')
			.executeTakeFirstOrThrow()
		const assignment = await db
			.insertInto('assignments')
			.values({ course_id: course.id, title: 'Homework' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const submission = await db
			.insertInto('assignment_submissions')
			.values({ assignment_id: assignment.id, student_id: student, body: 'My answer' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const mail = await db
			.insertInto('email_outbox')
			.values({
				to_address: 'student@example.com',
				subject: 'Hello',
				text_body: 'Hello',
				html_body: '<p>Hello</p>',
				// Already sent, so no delivery run touches it while the tests compare every table.
				status: 'sent',
				sent_at: new Date(),
				next_attempt_at: new Date(),
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		const { threadId } = await insertCommunityThread(db, { courseId: course.id, authorId: student })
		const paymentId = await insertPaidPayment(db, {
			checkoutSessionId: 'cs_test_crawl_paid',
			userId: student,
			courseId: course.id,
			courseTitle: 'Crawl course',
			customerEmail: 'crawl@example.com',
		})
		params = {
			id: String(course.id),
			paymentId: String(paymentId),
			// The student's own payment: its receipt in Settings.
			chargeKind: 'payment',
			chargeId: String(paymentId),
			courseId: String(course.id),
			weekId: String(weekId),
			itemId: String(item.id),
			attachmentId: String(attachment.id),
			assignmentId: String(assignment.id),
			submissionId: String(submission.id),
			sessionId: 'cs_test_unknown',
			mailId: String(mail.id),
			liveSessionId: String(liveSessionId),
			threadId: String(threadId),
			planId: String(planId),
			// No report preview has this id: the preview page answers 404.
			importId: '00000000-0000-4000-8000-000000000000',
			feed: 'not-a-real-calendar-token-not-a-real-one.ics',
			token: 'no-such-waitlist-token',
			// No certificate has this id: its page and downloads answer 404.
			certificateId: 'AAAAAAAAAAAAAAAAAAAAAA',
			list: '0',
		}
		cookies.anonymous = ''
		cookies.stranger = await cookieFor(stranger)
		cookies.student = await cookieFor(student)
		cookies.courseInstructor = await cookieFor(courseInstructor)
		cookies.otherInstructor = await cookieFor(otherInstructor)
		cookies.admin = await cookieFor(admin)
	})

	test.afterAll(async () => {
		await stopServer?.()
	})

	async function routePaths() {
		const seen = new Set<string>()
		for (const route of await listRoutes()) {
			const values = Object.fromEntries(paramNames(route.path).map((name) => [name, params[name]!]))
			seen.add(concretePath(route.path, values))
		}
		return [...seen]
	}

	test('a cross-site POST to every route, as every visitor, is refused with 403 and changes nothing', async () => {
		const paths = await routePaths()
		const before = await snapshot(server.databaseUrl!)
		const forgeries: Record<string, string>[] = [
			{ Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
			{ Origin: 'https://evil.example' },
			{ 'Sec-Fetch-Site': 'same-site' },
			{ Origin: 'null' },
		]
		const answers: string[] = []
		// Exempt: they carry their own proof instead of a cookie (scripts/server/http.ts FORGERY_EXEMPT_PATHS), checked below.
		const exempt = new Set(['/webhooks/stripe', '/unsubscribe/one-click'])
		for (const path of paths) {
			if (exempt.has(path)) continue
			for (const visitor of VISITORS) {
				for (const headers of forgeries) {
					const body = new URLSearchParams({
						intent: 'delete',
						name: 'Mallory',
						email: 'm@example.com',
						message: 'x',
						content: 'x',
						title: 'x',
					})
					const response = await fetch(`${server.url}${path}`, {
						method: 'POST',
						redirect: 'manual',
						body,
						headers: { ...headers, ...(cookies[visitor] ? { Cookie: cookies[visitor] } : {}) },
					})
					if (response.status !== 403) answers.push(`${path} ${visitor} ${JSON.stringify(headers)} → ${response.status}`)
					await response.arrayBuffer()
				}
			}
		}
		expect(answers).toEqual([])
		if (process.env.PRINT_HTTP)
			console.log(`forged POSTs: ${paths.length - exempt.size} routes × ${VISITORS.length} visitors × ${forgeries.length}`)
		expect(await snapshot(server.databaseUrl!)).toEqual(before)
		// The Stripe webhook is exempt (it is signed, not cookie-borne); unsigned, it changes nothing either.
		const webhook = await fetch(`${server.url}/webhooks/stripe`, {
			method: 'POST',
			body: '{}',
			headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
		})
		expect(webhook.status).toBeLessThan(500)
		// The one-click unsubscribe is exempt (mail clients post it from their sites, RFC 8058; its
		// token is signed): without a token of ours it is refused and changes nothing.
		for (const query of ['', '?token=', `?token=${encodeURIComponent('00000000-0000-4000-8000-000000000000.forged')}`]) {
			for (const visitor of VISITORS) {
				const response = await fetch(`${server.url}/unsubscribe/one-click${query}`, {
					method: 'POST',
					redirect: 'manual',
					body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }),
					headers: {
						Origin: 'https://evil.example',
						'Sec-Fetch-Site': 'cross-site',
						...(cookies[visitor] ? { Cookie: cookies[visitor] } : {}),
					},
				})
				expect(response.status, `/unsubscribe/one-click${query} as ${visitor}`).toBe(400)
				await response.arrayBuffer()
			}
		}
		expect(await snapshot(server.databaseUrl!)).toEqual(before)
	})

	test('no GET of any route, as any visitor, changes the database, answers 5xx or meets the router\'s "Unexpected Server Error"; every Set-Cookie is HttpOnly and SameSite=Lax', async () => {
		const paths = await routePaths()
		const before = await snapshot(server.databaseUrl!)
		const problems: string[] = []
		const setCookies: string[] = []
		for (const path of paths) {
			for (const visitor of VISITORS) {
				const controller = new AbortController()
				const response = await fetch(`${server.url}${path}`, {
					redirect: 'manual',
					signal: controller.signal,
					headers: cookies[visitor] ? { Cookie: cookies[visitor] } : {},
				})
				if (response.status >= 500) problems.push(`${path} ${visitor} → ${response.status}`)
				setCookies.push(...response.headers.getSetCookie())
				// The event stream never ends: take the headers and hang up.
				if (path === '/events') controller.abort()
				// What React Router says in production when a route cannot answer (a resource route without a loader: 400).
				else if ((await response.text()).includes('Unexpected Server Error')) {
					problems.push(`${path} ${visitor} → ${response.status} Unexpected Server Error`)
				}
			}
		}
		expect(problems).toEqual([])
		if (process.env.PRINT_HTTP) console.log(`crawled GETs: ${paths.length} routes × ${VISITORS.length} visitors`)
		// The one write a GET makes by design: opening a material records the student's first open
		// (docs/decisions/051), once, and for no one else.
		const after = await snapshot(server.databaseUrl!)
		expect({ ...after, material_opens: before.material_opens }).toEqual(before)
		const opens = await db.selectFrom('material_opens').select(['user_id', 'material_item_id']).execute()
		expect(opens).toEqual([{ user_id: studentId, material_item_id: Number(params.itemId) }])
		expect(setCookies.length).toBeGreaterThan(0)
		for (const setCookie of setCookies) {
			expect(setCookie).toMatch(/; HttpOnly/i)
			expect(setCookie).toMatch(/; SameSite=Lax/i)
		}
	})

	test('no GET of any route answers 5xx or redirects off the site to query parameters no link of the app produces', async () => {
		// About 6,000 requests, growing with every route: the visitors of a path are asked at once.
		test.setTimeout(180_000)
		const paths = await routePaths()
		const names = [...queryParamNames(), `week${params.weekId}`]
		expect(names).toEqual(expect.arrayContaining(['q', 'with', 'before', 'weeks', 'redirectTo', 'returnTo']))
		const problems: string[] = []
		let requests = 0
		// Ids: negative, past PostgreSQL's integer, and spellings Number() would read as one ('1e1', '12.0').
		// The last two: a path a browser reads as another host, and one a Location header cannot carry.
		for (const value of ['\u0000', '-1', '99999999999999999999', '2147483648', '1e1', '12.0', '%zz', '/\t/evil.example/x', '/\r\n\u0100']) {
			const query = new URLSearchParams(names.map((name) => [name, value]))
			for (const path of paths) {
				if (path === '/events') continue
				await Promise.all(
					VISITORS.map(async (visitor) => {
						requests++
						const response = await fetch(`${server.url}${path}?${query}`, {
							redirect: 'manual',
							headers: cookies[visitor] ? { Cookie: cookies[visitor] } : {},
						})
						if (response.status >= 500) problems.push(`${path}?…=${JSON.stringify(value)} ${visitor} → ${response.status}`)
						const location = response.headers.get('Location')
						if (location && new URL(location, `${server.url}${path}`).origin !== server.url) {
							problems.push(`${path}?…=${JSON.stringify(value)} ${visitor} → Location ${location}`)
						}
						if ((await response.text()).includes('Unexpected Server Error')) {
							problems.push(`${path}?…=${JSON.stringify(value)} ${visitor} → ${response.status} Unexpected Server Error`)
						}
					}),
				)
			}
		}
		expect(problems).toEqual([])
		if (process.env.PRINT_HTTP) console.log(`query-string GETs: ${requests} (${names.length} parameters)`)
	})

	/** One raw HTTP/1.1 request, for what fetch will not send: a target in absolute form, a broken Host. */
	function rawGet(line: string, host = new URL(server.url).host, extraHeaders = '') {
		const { port } = new URL(server.url)
		return new Promise<string>((resolve, reject) => {
			const socket = net.connect(Number(port), '127.0.0.1', () =>
				socket.write(`${line}\r\nHost: ${host}\r\n${extraHeaders}Connection: close\r\n\r\n`),
			)
			let response = ''
			socket.setEncoding('utf8')
			socket.on('data', (chunk: string) => (response += chunk))
			socket.on('end', () => resolve(response))
			socket.on('error', reject)
		})
	}

	test('a request target in absolute form is answered as its path; any other form is a 400, never a 500', async () => {
		const { port } = new URL(server.url)
		// Twice, so that the second answer comes from the shared page cache, which must not mistake the target for '/'.
		const twice = async () => [
			await rawGet(`GET http://127.0.0.1:${port}/faq HTTP/1.1`),
			await rawGet(`GET http://127.0.0.1:${port}/faq HTTP/1.1`),
		]
		let answers = await twice()
		// The crawls above stored a copy of /faq that lives 30 s and can run out between the two: only
		// when the first answer was that copy (a HIT), look again; a copy the first stored itself must answer the second.
		const hit = /X-Page-Cache: HIT/i
		for (let attempt = 1; attempt < 3 && hit.test(answers[0]!) && !hit.test(answers[1]!); attempt++) answers = await twice()
		for (const faq of answers) {
			expect(faq).toMatch(/^HTTP\/1\.1 200 /)
			expect(faq).toContain('<title>Frequently Asked Questions')
		}
		expect(answers[1]).toMatch(/X-Page-Cache: HIT/i)
		expect(await rawGet(`GET http://127.0.0.1:${port}/dashboard HTTP/1.1`)).toMatch(/^HTTP\/1\.1 302 [\s\S]*Location: \/login/i)
		for (const line of ['GET ftp://127.0.0.1/faq HTTP/1.1', 'OPTIONS * HTTP/1.1']) {
			expect(await rawGet(line), line).toMatch(/^HTTP\/1\.1 400 [\s\S]*Bad request target\./)
		}
		// Node's parser refuses a target that is no URL at all before the app sees it.
		expect(await rawGet('GET faq HTTP/1.1')).toMatch(/^HTTP\/1\.1 400 /)
	})

	test("a Host or a trusted proxy's X-Forwarded-Host that no URL can hold is a 400, never a 500", async () => {
		for (const path of ['/dashboard', '/about', '/courses']) {
			for (const host of ['', 'a b', 'example.com:99999', '[::1']) {
				expect(await rawGet(`GET ${path} HTTP/1.1`, host), `${path} with Host ${JSON.stringify(host)}`).toMatch(
					/^HTTP\/1\.1 400 [\s\S]*Bad Host header\./,
				)
			}
			// This server trusts one proxy hop (TRUST_PROXY=1), so the header counts.
			for (const forwarded of ['example.com:99999', 'a b', 'example.com:-1']) {
				const response = await rawGet(`GET ${path} HTTP/1.1`, undefined, `X-Forwarded-Host: ${forwarded}\r\n`)
				expect(response, `${path} with X-Forwarded-Host ${forwarded}`).toMatch(/^HTTP\/1\.1 400 [\s\S]*Bad Host header\./)
			}
		}
	})

	test('a body left unread by an early answer does not stall the next request on its connection', async () => {
		const { host } = new URL(server.url)
		const boundary = 'unread'
		const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n${'x'.repeat(2 * 1024 * 1024)}\r\n--${boundary}--\r\n`
		const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1')
		await once(socket, 'connect')
		let received = ''
		socket.setEncoding('utf8')
		socket.on('data', (chunk: string) => (received += chunk))
		try {
			// A student's upload to the admin-only endpoint is refused before its body is read; the next request follows on the same connection.
			socket.write(
				`POST /uploads/materials HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookies.student}\r\nOrigin: ${server.url}\r\n` +
					`Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
			)
			socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`)
			await expect.poll(() => received.match(/^HTTP\/1\.1 \d{3}/gm)?.length ?? 0, { timeout: 10_000 }).toBe(2)
			expect(received).toMatch(/^HTTP\/1\.1 302 [\s\S]*HTTP\/1\.1 200 /)
		} finally {
			socket.destroy()
		}
	})

	test('pages carry an enforced CSP with a fresh nonce, object-src and base-uri none, frame-ancestors self; no HSTS over http', async () => {
		const first = await fetch(`${server.url}/dashboard`, { headers: { Cookie: cookies.student } })
		const second = await fetch(`${server.url}/dashboard`, { headers: { Cookie: cookies.student } })
		const policies = [first, second].map((response) => response.headers.get('Content-Security-Policy') ?? '')
		for (const policy of policies) {
			expect(policy).toContain("object-src 'none'")
			expect(policy).toContain("base-uri 'none'")
			expect(policy).toContain("frame-ancestors 'self'")
			expect(policy).not.toContain("'unsafe-inline' 'self'")
			expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
			expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/)
		}
		const nonces = policies.map((policy) => /'nonce-([^']+)'/.exec(policy)![1])
		expect(nonces[0]).not.toBe(nonces[1])
		expect(first.headers.get('Content-Security-Policy-Report-Only')).toBeNull()
		expect(first.headers.get('X-Content-Type-Options')).toBe('nosniff')
		expect(first.headers.get('Strict-Transport-Security')).toBeNull()
		const publicPage = await fetch(`${server.url}/about`)
		const publicPolicy = publicPage.headers.get('Content-Security-Policy') ?? ''
		expect(publicPolicy).toContain("object-src 'none'")
		expect(publicPolicy).toMatch(/script-src 'self'( 'sha256-[^']+')*;/)
	})

	test('the development mailbox is admin-only in production', async () => {
		const anonymous = await fetch(`${server.url}/dev/mailbox`, { redirect: 'manual' })
		expect(anonymous.status).toBe(302)
		expect(anonymous.headers.get('Location')).toMatch(/^\/login/)
		const student = await fetch(`${server.url}/dev/mailbox`, { redirect: 'manual', headers: { Cookie: cookies.student } })
		expect(student.headers.get('Location')).toBe('/dashboard')
		const mailHtml = await fetch(`${server.url}/dev/mailbox/1/html`, { redirect: 'manual', headers: { Cookie: cookies.student } })
		expect(mailHtml.headers.get('Location')).toBe('/dashboard')
	})

	test('SIGTERM under load: in-flight requests finish, none answers 5xx, event streams are closed, the process exits 0', async () => {
		const stream = await fetch(`${server.url}/events`, { headers: { Cookie: cookies.student } })
		expect(stream.headers.get('Content-Type')).toMatch(/^text\/event-stream/)
		const streamEnded = stream.body!.pipeTo(new WritableStream()).then(
			() => 'ended',
			() => 'ended',
		)
		const started: Promise<number | 'refused'>[] = []
		for (let i = 0; i < 40; i++) {
			const path = ['/courses', '/dashboard', '/about', '/healthz'][i % 4]!
			started.push(
				fetch(`${server.url}${path}`, { redirect: 'manual', headers: { Cookie: cookies.student } }).then(
					async (response) => {
						await response.arrayBuffer()
						return response.status
					},
					() => 'refused' as const,
				),
			)
		}
		await new Promise((resolve) => setTimeout(resolve, 20))
		const exit = server.stop('SIGTERM')
		const statuses = await Promise.all(started)
		expect(statuses.filter((status) => typeof status === 'number' && status >= 500)).toEqual([])
		expect(statuses.filter((status) => status !== 'refused').length).toBeGreaterThan(0)
		expect(await exit, server.output()).toBe(0)
		expect(await streamEnded).toBe('ended')
	})
})

test.describe('faults', () => {
	test.describe.configure({ mode: 'serial' })
	test('PostgreSQL unreachable: /healthz 503 and a clean error page, then recovery without a restart', async () => {
		test.setTimeout(120_000)
		const { createDatabase, databaseUrl, randomDatabaseName } = await import('#tests/support/postgres.ts')
		const name = randomDatabaseName('app_outage')
		await createDatabase(name)
		const direct = new URL(databaseUrl(name))
		const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
		const viaProxy = Object.assign(new URL(direct), { port: String(proxy.port) }).toString()
		const server = await startServer({ database: 'postgres', databaseUrl: viaProxy })
		try {
			expect((await fetch(`${server.url}/courses`)).status).toBe(200)
			await proxy.down()
			const health = await fetch(`${server.url}/healthz`)
			expect(health.status).toBe(503)
			// A page that must read the database (the course list may be answered from the page cache).
			const page = await fetch(`${server.url}/courses/1`)
			expect(page.status).toBeGreaterThanOrEqual(500)
			expect(page.headers.get('Content-Type')).toMatch(/text\/html/)
			const html = await page.text()
			expect(html).not.toMatch(/at .*\.(ts|js):\d+/)
			expect(html).not.toContain('ECONNREFUSED')
			expect(server.process.exitCode).toBeNull()
			await proxy.up()
			await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: 20_000 }).toBe(200)
			expect((await fetch(`${server.url}/courses`)).status).toBe(200)
		} finally {
			await server.stop()
			await proxy.down()
			await dropServerDatabase(server)
		}
	})

	test("without trusted proxies a client's own X-Forwarded-Host is ignored, whatever it holds", async () => {
		const server = await startServer({ database: 'postgres', env: { TRUST_PROXY: '0' } })
		try {
			for (const forwarded of ['example.com:99999', 'a b', 'evil.example:8080']) {
				const response = await fetch(`${server.url}/dashboard`, { redirect: 'manual', headers: { 'X-Forwarded-Host': forwarded } })
				expect(response.status, forwarded).toBe(302)
				expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard')
			}
		} finally {
			await server.stop()
			await dropServerDatabase(server)
		}
	})

	test('a process killed inside a course deletion, its cascade waiting on a row lock, leaves every row and every stored file (files go only after commit)', async () => {
		test.setTimeout(120_000)
		const server = await startServer({ database: 'postgres' })
		const handle = await openDatabase({ databaseUrl: server.databaseUrl!, poolMax: 2 })
		const db = handle.db
		const locker = new pg.Client({ connectionString: server.databaseUrl })
		await locker.connect()
		try {
			const admin = await insertUser(db, { role: 'admin', email: 'killer@example.com' })
			const student = await insertUser(db, { role: 'student', email: 'enrolled@example.com' })
			const buyer = await insertUser(db, { role: 'student', email: 'buyer@example.com' })
			const course = await db.insertInto('courses').values({ title: 'Doomed', capacity: 10 }).returning('id').executeTakeFirstOrThrow()
			const weeks = await db
				.insertInto('course_materials')
				.values([1, 2, 3].map((week) => ({ course_id: course.id, week_number: week, topic: `Week ${week}` })))
				.returning('id')
				.execute()
			const links = await db
				.insertInto('material_items')
				.values(
					weeks.flatMap((week) =>
						[1, 2, 3, 4].map((i) => ({
							material_id: week.id,
							title: `Link ${i}`,
							type: 'video' as const,
							category: 'material' as const,
							file_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
						})),
					),
				)
				.returning('id')
				.execute()
			const storage = new LocalFileStorage(path.join(server.dataDir, 'files'))
			const key = `courses/${course.id}/weeks/${weeks[0]!.id}/material/${randomUUID()}-notes.pdf`
			await storage.put(key, PDF, { contentType: 'application/pdf' })
			await db
				.insertInto('material_items')
				.values({
					material_id: weeks[0]!.id,
					title: 'notes.pdf',
					type: 'document',
					category: 'material',
					storage_key: key,
					mime_type: 'application/pdf',
					size_bytes: PDF.byteLength,
				})
				.execute()
			await db
				.insertInto('enrollments')
				.values({ user_id: student, course_id: course.id, status: 'active', enrollment_date: new Date() })
				.execute()
			await db
				.insertInto('seat_holds')
				.values({ user_id: buyer, course_id: course.id, expires_at: new Date(Date.now() + 30 * 60_000) })
				.execute()
			const assignment = await db
				.insertInto('assignments')
				.values({ course_id: course.id, title: 'Homework' })
				.returning('id')
				.executeTakeFirstOrThrow()
			await db
				.insertInto('assignment_submissions')
				.values({ assignment_id: assignment.id, student_id: student, body: 'My answer' })
				.execute()
			const cookie = (await createSession(db, admin)).setCookie.split(';')[0]!
			const before = await snapshot(server.databaseUrl!)

			// The test's own transaction locks the last link; the delete's cascade must lock it to delete it.
			await locker.query('BEGIN')
			await locker.query('SELECT id FROM material_items WHERE id = $1 FOR UPDATE', [links.at(-1)!.id])
			const { rows: lockerRows } = await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
			const deletion = fetch(`${server.url}/dashboard/admin/courses/${course.id}/delete`, {
				method: 'POST',
				redirect: 'manual',
				headers: { Cookie: cookie, Origin: server.url },
			}).then(
				(response) => response.status,
				() => 'cut off' as const,
			)
			// Waiting on that lock inside a transaction that has written (it has an xid): the course row
			// and its weeks are already deleted there, uncommitted.
			const waiting = async () => {
				// Inside a transaction pg_stat_activity is read once unless its snapshot is cleared.
				await locker.query('SELECT pg_stat_clear_snapshot()')
				const { rows } = await locker.query<{ pid: number; query: string }>(
					'SELECT pid, query FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)) AND backend_xid IS NOT NULL',
					[lockerRows[0]!.pid],
				)
				return rows
			}
			await expect
				.poll(async () => (await waiting()).map((row) => row.query), { timeout: 20_000 })
				.toEqual([expect.stringMatching(/^delete from "courses"/)])
			const [cut] = await waiting()

			await server.stop('SIGKILL')
			expect(await deletion).toBe('cut off')
			await locker.query('ROLLBACK')
			// Freed, the backend finds its client gone and ends without a COMMIT: wait until it has.
			await expect
				.poll(async () => (await locker.query('SELECT pid FROM pg_stat_activity WHERE pid = $1', [cut!.pid])).rowCount, { timeout: 20_000 })
				.toBe(0)
			expect(await snapshot(server.databaseUrl!)).toEqual(before)
			expect(await storage.stat(key)).toMatchObject({ size: PDF.byteLength })
		} finally {
			await locker.end()
			await handle.close()
			await server.stop('SIGKILL')
			await dropServerDatabase(server)
		}
	})

	test('a process killed mid-upload writes no row; after a restart the partial file is swept and the Orphaned Materials screen offers the whole one, whose cleanup removes it', async () => {
		test.setTimeout(120_000)
		let server = await startServer({ database: 'postgres' })
		const handle = await openDatabase({ databaseUrl: server.databaseUrl!, poolMax: 2 })
		const db = handle.db
		try {
			const admin = await insertUser(db, { role: 'admin', email: 'uploader@example.com' })
			const course = await db.insertInto('courses').values({ title: 'Half uploaded' }).returning('id').executeTakeFirstOrThrow()
			const cookie = (await createSession(db, admin)).setCookie.split(';')[0]!
			const before = await snapshot(server.databaseUrl!)

			// A week with a small PDF and then a large one, whose bytes stop coming a quarter of a megabyte in.
			const boundary = `----killed-upload-${randomUUID()}`
			const part = (headers: string) => `--${boundary}\r\n${headers}\r\n\r\n`
			const field = (name: string, value: string) => `${part(`Content-Disposition: form-data; name="${name}"`)}${value}\r\n`
			const file = (name: string) =>
				part(`Content-Disposition: form-data; name="materialFiles"; filename="${name}"\r\nContent-Type: application/pdf`)
			let sender!: ReadableStreamDefaultController<Uint8Array>
			const body = new ReadableStream<Uint8Array>({
				start: (controller) => {
					sender = controller
				},
			})
			const answer = fetch(`${server.url}/uploads/materials`, {
				method: 'POST',
				body,
				duplex: 'half',
				headers: { Cookie: cookie, Origin: server.url, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
			} as RequestInit).then(
				(response) => response.status,
				() => 'cut off' as const,
			)
			const encoder = new TextEncoder()
			sender.enqueue(
				encoder.encode(field('courseId', String(course.id)) + field('weekNumber', '1') + field('topic', 'Interrupted') + file('first.pdf')),
			)
			sender.enqueue(PDF)
			sender.enqueue(encoder.encode(`\r\n${file('handbook.pdf')}`))
			const handbookStart = Buffer.alloc(256 * 1024, 0x20)
			handbookStart.write('%PDF-1.4\n')
			sender.enqueue(handbookStart)
			await expect
				.poll(() => storedMaterialShapes(server.dataDir), { timeout: 20_000 })
				.toEqual(['.{uuid}-first.pdf.meta.json', '.{uuid}-handbook.pdf.{uuid}.tmp (partly written)', '{uuid}-first.pdf'])

			await server.stop('SIGKILL')
			expect(await answer).toBe('cut off')
			expect(await snapshot(server.databaseUrl!)).toEqual(before)
			expect(await db.selectFrom('course_materials').select('id').execute()).toEqual([])
			expect(await db.selectFrom('material_items').select('id').execute()).toEqual([])
			const leftovers = storedMaterialFiles(server.dataDir)
			const weekDirectory = path.relative(path.join(server.dataDir, 'files'), path.dirname(leftovers[0]!)).split(path.sep)
			expect(weekDirectory.slice(0, 3)).toEqual(['courses', String(course.id), 'weeks'])
			const group = `${course.id}-${weekDirectory[3]}`

			// Past the orphan grace period: the local store dates an object by its file's mtime.
			const pastGrace = new Date(Date.now() - ORPHAN_GRACE_MS - 60_000)
			for (const leftover of leftovers) fs.utimesSync(leftover, pastGrace, pastGrace)
			server = await startServer({ database: 'postgres', databaseUrl: server.databaseUrl, dataDir: server.dataDir, port: server.port })
			// The restarted server sweeps the partial file away (the screen never sees hidden files); the whole one is left for the screen.
			await expect
				.poll(() => storedMaterialShapes(server.dataDir), { timeout: 20_000 })
				.toEqual(['.{uuid}-first.pdf.meta.json', '{uuid}-first.pdf'])
			const page = await fetch(`${server.url}/dashboard/admin/orphaned-materials`, { headers: { Cookie: cookie } })
			expect(page.status).toBe(200)
			const html = await page.text()
			expect(html).toContain(`value="${group}"`)
			// The file is listed by name, as a link to its download.
			expect(html).toMatch(/href="\/files\/orphaned-materials\?key=[^"]*-first\.pdf"[^>]*>first\.pdf</)
			const cleanup = await fetch(`${server.url}/dashboard/admin/orphaned-materials`, {
				method: 'POST',
				redirect: 'manual',
				headers: { Cookie: cookie, Origin: server.url },
				body: new URLSearchParams({ group }),
			})
			expect(cleanup.status).toBe(302)
			expect(storedMaterialFiles(server.dataDir)).toEqual([])
			const audit = await db.selectFrom('audit_log').select(['action', 'details']).execute()
			expect(audit).toEqual([{ action: 'orphans.cleanup', details: expect.objectContaining({ groups: [group], filesDeleted: 1 }) }])
		} finally {
			await handle.close()
			await server.stop('SIGKILL')
			await dropServerDatabase(server)
		}
	})

	test('on the embedded PostgreSQL, data written through the app survives a stop and a hard kill', async () => {
		test.setTimeout(180_000)
		const contact = (server: PrivateServer, name: string) =>
			fetch(`${server.url}/contact`, {
				method: 'POST',
				redirect: 'manual',
				headers: { Origin: server.url, 'X-Forwarded-For': `203.0.113.${name.length}` },
				body: new URLSearchParams({ name, email: 'durable@example.com', message: `Kept: ${name}` }),
			})
		let server = await startServer({ database: 'embedded' })
		const { dataDir, port } = server
		expect((await contact(server, 'Before stop')).status).toBe(302)
		expect(await server.stop('SIGTERM')).toBe(0)
		// A clean stop leaves no PostgreSQL running.
		expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false)
		server = await startServer({ database: 'embedded', dataDir, port })
		expect((await contact(server, 'Before the kill')).status).toBe(302)
		await server.stop('SIGKILL')
		// The PostgreSQL the killed app started lives on; the next start takes it over by itself.
		expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true)
		server = await startServer({ database: 'embedded', dataDir, port })
		const handle = await openDatabase({ databaseUrl: server.databaseUrl!, poolMax: 1 })
		try {
			const rows = await handle.db.selectFrom('contact_submissions').select('name').orderBy('id').execute()
			expect(rows.map((row) => row.name)).toEqual(['Before stop', 'Before the kill'])
		} finally {
			await handle.close()
		}
		expect(await server.stop('SIGTERM')).toBe(0)
		expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false)
		await dropServerDatabase(server)
	})
})
