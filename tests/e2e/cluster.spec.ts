/**
 * Several server processes on one port (WEB_CONCURRENCY, node:cluster), as the production
 * default runs, on an external PostgreSQL and on the embedded one: they share nothing but
 * the database, so a session, a live event and a restart must not care which process answers.
 */
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import pg from 'pg'
import { insertUser } from '#tests/support/fixtures.ts'
import { createDatabase, databaseUrl as databaseUrlOf, dropDatabase, randomDatabaseName } from '#tests/support/postgres.ts'
import { dropServerDatabase, freePort, type PrivateServer, startServer } from '#tests/support/private-server.ts'
import { childPids } from '../../scripts/lib/processes.ts'
import { expect, test } from '../support/e2e.ts'

const { openDatabase } = await import('#app/utils/db.server.ts')
const { createSession } = await import('#app/utils/session.server.ts')

async function waitFor<T>(read: () => T | Promise<T>, accept: (value: T) => boolean, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		const value = await read()
		if (accept(value) || Date.now() > deadline) return value
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
}

/** Connections of the database that LISTEN for live events: one per worker (the job runners LISTEN on channels of their own). */
async function countListeners(url: string) {
	const client = new pg.Client({ connectionString: url })
	await client.connect()
	try {
		const result = await client.query<{ count: number }>(
			`SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "app_events"'`,
		)
		return result.rows[0]!.count
	} finally {
		await client.end()
	}
}

/** A GET on a connection of its own: the cluster hands each new connection to the next worker. */
function getOnNewConnection(url: string, cookie: string) {
	return fetch(url, { headers: { Cookie: cookie, Connection: 'close' }, redirect: 'manual' })
}

for (const database of ['postgres', 'embedded'] as const) {
	test.describe(`two workers on one port (${database === 'postgres' ? 'external PostgreSQL' : 'the embedded default'})`, () => {
		test.describe.configure({ mode: 'serial' })
		let server: PrivateServer
		let databaseUrl: string
		let studentCookie: string
		let adminCookie: string
		let enrollmentId: number

		test.beforeAll(async () => {
			test.setTimeout(120_000)
			server = await startServer({ database, env: { WEB_CONCURRENCY: '2' } })
			databaseUrl = server.databaseUrl!
			const handle = await openDatabase({ databaseUrl, poolMax: 2 })
			const student = await insertUser(handle.db, { email: 'cluster-student@example.com', name: 'Cluster student' })
			const admin = await insertUser(handle.db, { role: 'admin', email: 'cluster-admin@example.com', name: 'Cluster admin' })
			const course = await handle.db
				.insertInto('courses')
				.values({ title: 'Cluster course', capacity: 10 })
				.returning('id')
				.executeTakeFirstOrThrow()
			const enrollment = await handle.db
				.insertInto('enrollments')
				.values({ user_id: student, course_id: course.id, status: 'active', enrollment_date: new Date() })
				.returning('id')
				.executeTakeFirstOrThrow()
			enrollmentId = enrollment.id
			studentCookie = (await createSession(handle.db, student)).setCookie.split(';')[0]!
			adminCookie = (await createSession(handle.db, admin)).setCookie.split(';')[0]!
			await handle.close()
		})

		test.afterAll(async () => {
			await server?.stop('SIGTERM')
			if (server) await dropServerDatabase(server)
		})

		test('the primary runs two workers, each listening to the database for events', async () => {
			expect(childPids(server.process.pid!)).toHaveLength(2)
			// The first worker to listen answers health checks; the primary speaks once both do.
			expect(
				await waitFor(
					() => server.output(),
					(output) => output.includes('(production, 2 workers)'),
				),
			).toContain('(production, 2 workers)')
			expect(
				await waitFor(
					() => countListeners(databaseUrl),
					(count) => count === 2,
				),
			).toBe(2)
		})

		test('a session is valid on every worker: no sticky sessions', async () => {
			for (let i = 0; i < 6; i++) {
				const response = await getOnNewConnection(`${server.url}/dashboard`, studentCookie)
				expect(response.status).toBe(200)
				expect(await response.text()).toContain('Cluster student')
			}
		})

		test('a change made through one worker reaches live streams on every worker', async () => {
			const agent = new http.Agent({ keepAlive: false })
			const received: Promise<string>[] = []
			const requests: http.ClientRequest[] = []
			for (let i = 0; i < 4; i++) {
				await new Promise<void>((ready, fail) => {
					let buffer = ''
					received.push(
						new Promise((resolve) => {
							const request = http.get(`${server.url}/events`, { agent, headers: { Cookie: studentCookie } }, (response) => {
								response.setEncoding('utf8')
								response.on('data', (chunk: string) => {
									buffer += chunk
									if (buffer.includes('event: ready')) ready()
									if (buffer.includes('enrollment.changed')) resolve('delivered')
								})
							})
							request.on('error', fail)
							requests.push(request)
						}),
					)
				})
			}
			const change = await fetch(`${server.url}/dashboard/admin/enrollments`, {
				method: 'POST',
				body: new URLSearchParams({ intent: 'status', enrollmentId: String(enrollmentId), status: 'completed' }),
				headers: { Cookie: adminCookie, Origin: server.url, Connection: 'close' },
				redirect: 'manual',
			})
			expect(change.status).toBe(302)
			const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('timed out'), 10_000))
			expect(await Promise.all(received.map((delivery) => Promise.race([delivery, timeout])))).toEqual(Array(4).fill('delivered'))
			for (const request of requests) request.destroy()
			agent.destroy()
		})

		test('a worker that dies is replaced while the other keeps answering', async () => {
			const [victim, survivor] = childPids(server.process.pid!)
			process.kill(victim!, 'SIGKILL')
			const replaced = await waitFor(
				() => childPids(server.process.pid!),
				(pids) => pids.length === 2 && !pids.includes(victim!),
			)
			expect(replaced).toContain(survivor)
			expect(replaced).toHaveLength(2)
			// The new worker opens its LISTEN connection before it takes requests.
			expect(
				await waitFor(
					() => countListeners(databaseUrl),
					(count) => count === 2,
				),
			).toBe(2)
			expect(server.output()).toMatch(new RegExp(`Server worker ${victim} exited \\(SIGKILL\\); starting another`))
			const healthy = await waitFor(
				async () =>
					(await Promise.all([0, 1, 2, 3].map(() => getOnNewConnection(`${server.url}/healthz`, '')))).map((response) => response.status),
				(statuses) => statuses.every((status) => status === 200),
			)
			expect(healthy).toEqual([200, 200, 200, 200])
		})

		test('SIGTERM stops every worker and the primary exits 0', async () => {
			const primary = server.process.pid!
			expect(childPids(primary)).toHaveLength(2)
			expect(await server.stop('SIGTERM'), server.output()).toBe(0)
			expect(childPids(primary)).toEqual([])
			// The embedded server stops after the workers: nothing is left running.
			expect(fs.existsSync(path.join(server.dataDir, 'postgres', 'postmaster.pid'))).toBe(false)
		})
	})
}

test('a worker that cannot start stops the whole cluster with an error', async () => {
	// Something that is not this app holds the port, so no worker can listen.
	const port = await freePort()
	const squatter = net.createServer((socket) => socket.destroy())
	await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve))
	const name = randomDatabaseName('app_cluster')
	await createDatabase(name)
	try {
		const start = startServer({ database: 'postgres', databaseUrl: databaseUrlOf(name), port, env: { WEB_CONCURRENCY: '2' } })
		await expect(start).rejects.toThrow(/A server worker failed to start \(code 1\); stopping/)
	} finally {
		await new Promise((resolve) => squatter.close(resolve))
		await dropDatabase(name)
	}
})
