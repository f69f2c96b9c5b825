/**
 * HTTP-level attacks and faults against a production server of this spec's
 * own (tests/security/server.ts): its own database, so the before/after
 * snapshots are exact, and a process the test may stop, kill and restart.
 */
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { concretePath, listRoutes, paramNames } from '#tests/support/route-table.ts'
import { dropServerDatabase, snapshot, startServer, startTcpProxy, type PrivateServer } from '#tests/security/server.ts'
import { expect, test } from '../support/e2e.ts'

const { openDatabase } = await import('#app/utils/db.server.ts')
const { createSession } = await import('#app/utils/session.server.ts')

type Visitor = 'anonymous' | 'stranger' | 'student' | 'admin'
const VISITORS: Visitor[] = ['anonymous', 'stranger', 'student', 'admin']

test.describe('forgery, GET safety and headers', () => {
	test.describe.configure({ mode: 'serial' })
	let server: PrivateServer
	let db: Kysely<Database>
	let close: () => Promise<void>
	let params: Record<string, string>
	const cookies = {} as Record<Visitor, string>

	async function cookieFor(userId: string) {
		const { setCookie } = await createSession(db, userId)
		return setCookie.split(';')[0]!
	}

	test.beforeAll(async () => {
		test.setTimeout(120_000)
		server = await startServer({ database: 'postgres' })
		const handle = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: 'unused', poolMax: 2 })
		db = handle.db
		close = () => handle.close()
		const user = async (role: 'student' | 'admin', email: string) => {
			const row = await db.insertInto('users').values({ email, password_hash: 'unused', email_confirmed_at: new Date() }).returning('id').executeTakeFirstOrThrow()
			await db.insertInto('profiles').values({ id: row.id, name: `A ${role}`, role }).execute()
			return row.id
		}
		const [stranger, student, admin] = [await user('student', 'stranger@example.com'), await user('student', 'student@example.com'), await user('admin', 'admin@example.com')]
		const course = await db.insertInto('courses').values({ title: 'Crawl course', capacity: 10 }).returning('id').executeTakeFirstOrThrow()
		await db.insertInto('enrollments').values({ user_id: student, course_id: course.id, status: 'active', enrollment_date: new Date() }).execute()
		const week = await db.insertInto('course_materials').values({ course_id: course.id, week_number: 1, topic: 'Week' }).returning('id').executeTakeFirstOrThrow()
		const item = await db
			.insertInto('material_items')
			.values({ material_id: week.id, title: 'Video', type: 'video', category: 'material', file_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const message = await db.insertInto('messages').values({ sender_id: admin, receiver_id: student, content: 'Hello' }).returning('id').executeTakeFirstOrThrow()
		const attachment = await db
			.insertInto('message_attachments')
			.values({ message_id: message.id, name: 'a.txt', type: 'text/plain', size_bytes: 1, storage_key: `attachments/${admin}/a.txt` })
			.returning('id')
			.executeTakeFirstOrThrow()
		const assignment = await db.insertInto('assignments').values({ course_id: course.id, title: 'Homework' }).returning('id').executeTakeFirstOrThrow()
		const submission = await db
			.insertInto('assignment_submissions')
			.values({ assignment_id: assignment.id, student_id: student, body: 'My answer' })
			.returning('id')
			.executeTakeFirstOrThrow()
		params = {
			id: String(course.id),
			courseId: String(course.id),
			weekId: String(week.id),
			itemId: String(item.id),
			attachmentId: String(attachment.id),
			assignmentId: String(assignment.id),
			submissionId: String(submission.id),
			sessionId: 'cs_test_unknown',
		}
		cookies.anonymous = ''
		cookies.stranger = await cookieFor(stranger)
		cookies.student = await cookieFor(student)
		cookies.admin = await cookieFor(admin)
	})

	test.afterAll(async () => {
		await close?.()
		await server?.stop()
		if (server) await dropServerDatabase(server)
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
		for (const path of paths) {
			if (path === '/webhooks/stripe') continue
			for (const visitor of VISITORS) {
				for (const headers of forgeries) {
					const body = new URLSearchParams({ intent: 'delete', name: 'Mallory', email: 'm@example.com', message: 'x', content: 'x', title: 'x' })
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
		expect(await snapshot(server.databaseUrl!)).toEqual(before)
		// The Stripe webhook is exempt (it is signed, not cookie-borne); unsigned, it changes nothing either.
		const webhook = await fetch(`${server.url}/webhooks/stripe`, { method: 'POST', body: '{}', headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } })
		expect(webhook.status).toBeLessThan(500)
		expect(await snapshot(server.databaseUrl!)).toEqual(before)
	})

	test('no GET of any route, as any visitor, changes the database or answers 5xx; every Set-Cookie is HttpOnly and SameSite=Lax', async () => {
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
				else await response.arrayBuffer()
			}
		}
		expect(problems).toEqual([])
		expect(await snapshot(server.databaseUrl!)).toEqual(before)
		expect(setCookies.length).toBeGreaterThan(0)
		for (const setCookie of setCookies) {
			expect(setCookie).toMatch(/; HttpOnly/i)
			expect(setCookie).toMatch(/; SameSite=Lax/i)
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
	})

	test('SIGTERM under load: in-flight requests finish, none answers 5xx, event streams are closed, the process exits 0', async () => {
		const stream = await fetch(`${server.url}/events`, { headers: { Cookie: cookies.student } })
		expect(stream.headers.get('Content-Type')).toMatch(/^text\/event-stream/)
		const streamEnded = stream.body!.pipeTo(new WritableStream()).then(() => 'ended', () => 'ended')
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
		const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 })
		const { createDatabase, databaseUrl, randomDatabaseName } = await import('#tests/support/postgres.ts')
		const name = randomDatabaseName('app_outage')
		await createDatabase(name)
		const viaProxy = databaseUrl(name).replace(':5432/', `:${proxy.port}/`)
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

	test('a process killed during course deletions leaves each course whole or wholly gone', async () => {
		test.setTimeout(120_000)
		const server = await startServer({ database: 'postgres' })
		const handle = await openDatabase({ databaseUrl: server.databaseUrl, dataDir: 'unused', poolMax: 2 })
		const db = handle.db
		try {
			const admin = await db.insertInto('users').values({ email: 'killer@example.com', password_hash: 'unused', email_confirmed_at: new Date() }).returning('id').executeTakeFirstOrThrow()
			await db.insertInto('profiles').values({ id: admin.id, name: 'Admin', role: 'admin' }).execute()
			const cookie = (await createSession(db, admin.id)).setCookie.split(';')[0]!
			const courseIds: number[] = []
			for (let c = 0; c < 6; c++) {
				const course = await db.insertInto('courses').values({ title: `Doomed ${c}` }).returning('id').executeTakeFirstOrThrow()
				courseIds.push(course.id)
				const weeks = await db
					.insertInto('course_materials')
					.values(Array.from({ length: 20 }, (_, week) => ({ course_id: course.id, week_number: week + 1, topic: `Week ${week + 1}` })))
					.returning('id')
					.execute()
				await db
					.insertInto('material_items')
					.values(weeks.flatMap((week) => Array.from({ length: 5 }, (_, i) => ({ material_id: week.id, title: `Link ${i}`, type: 'video' as const, category: 'material' as const, file_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }))))
					.execute()
			}
			const deletions = courseIds.map((id) =>
				fetch(`${server.url}/dashboard/admin/courses/${id}/delete`, { method: 'POST', redirect: 'manual', headers: { Cookie: cookie, Origin: server.url } }).catch(() => null),
			)
			await new Promise((resolve) => setTimeout(resolve, 40))
			await server.stop('SIGKILL')
			await Promise.all(deletions)
			for (const id of courseIds) {
				const course = await db.selectFrom('courses').select('id').where('id', '=', id).executeTakeFirst()
				const weeks = await db.selectFrom('course_materials').select('id').where('course_id', '=', id).execute()
				const items = weeks.length
					? await db.selectFrom('material_items').select('id').where('material_id', 'in', weeks.map((week) => week.id)).execute()
					: []
				expect([course ? 'whole' : 'gone', weeks.length, items.length]).toEqual(course ? ['whole', 20, 100] : ['gone', 0, 0])
			}
		} finally {
			await handle.close()
			await server.stop('SIGKILL')
			await dropServerDatabase(server)
		}
	})

	test('on the embedded PGlite, data written through the app survives a stop and a hard kill', async () => {
		test.setTimeout(180_000)
		const contact = (server: PrivateServer, name: string) =>
			fetch(`${server.url}/contact`, {
				method: 'POST',
				redirect: 'manual',
				headers: { Origin: server.url, 'X-Forwarded-For': `203.0.113.${name.length}` },
				body: new URLSearchParams({ name, email: 'durable@example.com', message: `Kept: ${name}` }),
			})
		let server = await startServer({ database: 'pglite' })
		const { dataDir, port } = server
		expect((await contact(server, 'Before stop')).status).toBe(302)
		expect(await server.stop('SIGTERM')).toBe(0)
		server = await startServer({ database: 'pglite', dataDir, port })
		expect((await contact(server, 'Before the kill')).status).toBe(302)
		await server.stop('SIGKILL')
		server = await startServer({ database: 'pglite', dataDir, port })
		expect(await server.stop('SIGTERM')).toBe(0)
		const handle = await openDatabase({ dataDir })
		try {
			const rows = await handle.db.selectFrom('contact_submissions').select('name').orderBy('id').execute()
			expect(rows.map((row) => row.name)).toEqual(['Before stop', 'Before the kill'])
		} finally {
			await handle.close()
			await dropServerDatabase(server)
		}
	})
})
