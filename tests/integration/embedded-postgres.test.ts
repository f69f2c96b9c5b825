/**
 * The embedded PostgreSQL server (scripts/lib/embedded-postgres.ts): one owner per data
 * folder, short commands join it, a second server is refused with one sentence, a server
 * left by a killed owner is taken over, and the earlier PGlite data moves over once.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, PGliteDialect } from 'kysely'
import pg from 'pg'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { migrateToLatest } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import { insertCourse, insertUser } from '#tests/support/fixtures.ts'
import { openDatabaseServer } from '../../scripts/lib/database-server.ts'
import { EmbeddedPostgresInUse, openEmbeddedPostgres } from '../../scripts/lib/embedded-postgres.ts'

const root = path.resolve(import.meta.dirname, '../..')
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function dataDir() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-test-'))
	// As root the server runs as the user postgres, which must reach the folder.
	fs.chmodSync(dir, 0o755)
	cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }))
	return dir
}

async function query<T extends pg.QueryResultRow>(url: string, text: string) {
	const client = new pg.Client({ connectionString: url })
	await client.connect()
	try {
		return (await client.query<T>(text)).rows
	} finally {
		await client.end()
	}
}

/** Another process holding the embedded server, as the running app does. */
async function holder(dir: string, role: 'server' | 'command') {
	const child = spawn(process.execPath, ['tests/support/hold-embedded-postgres.ts', dir, role], {
		cwd: root,
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	let output = ''
	child.stderr!.on('data', (chunk) => (output += chunk))
	const url = await new Promise<string>((resolve, reject) => {
		child.stdout!.on('data', (chunk) => resolve(JSON.parse(String(chunk)).url))
		child.once('exit', (code) => reject(new Error(`the holder exited with ${code}: ${output}`)))
	})
	cleanups.push(async () => void (await stop(child, 'SIGTERM')))
	return { child, url }
}

function stop(child: ChildProcess, signal: NodeJS.Signals) {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
	child.kill(signal)
	return exited
}

const postmasterRunning = (dir: string) => fs.existsSync(path.join(dir, 'postgres', 'postmaster.pid'))

// Each test starts real PostgreSQL servers (initdb, start, stop), which take seconds on a busy machine.
vi.setConfig({ testTimeout: 120_000 })

describe('one owner per data folder', () => {
	test('a second server is refused with one sentence naming the owner; a command works against the running server', async () => {
		const dir = dataDir()
		const owner = await holder(dir, 'server')
		await query(owner.url, 'CREATE TABLE kept (note text)')

		const refusal = await openEmbeddedPostgres({ dataDir: dir, role: 'server', log: () => {} }).catch((error: unknown) => error)
		expect(refusal).toBeInstanceOf(EmbeddedPostgresInUse)
		expect((refusal as Error).message).toBe(
			`The embedded database in ${path.join(dir, 'postgres')} is in use by another server, process ${owner.child.pid} (node tests/support/hold-embedded-postgres.ts): stop it first, or set DATABASE_URL to use another PostgreSQL server.`,
		)

		const command = await openEmbeddedPostgres({ dataDir: dir, role: 'command', log: () => {} })
		expect(command).toMatchObject({ owned: false, url: owner.url })
		await query(command.url, `INSERT INTO kept VALUES ('written by a command')`)
		await command.stop()
		// The command's stop leaves the owner's server alone.
		expect(await query(owner.url, 'SELECT note FROM kept')).toEqual([{ note: 'written by a command' }])

		expect(await stop(owner.child, 'SIGTERM')).toBe(0)
		expect(postmasterRunning(dir)).toBe(false)
		expect(fs.existsSync(path.join(dir, 'postgres-owner.json'))).toBe(false)
	})

	test('a server left running by a killed owner is stopped cleanly and started again, data kept', async () => {
		const dir = dataDir()
		const owner = await holder(dir, 'server')
		await query(owner.url, `CREATE TABLE kept (note text); INSERT INTO kept VALUES ('before the kill')`)
		await stop(owner.child, 'SIGKILL')
		expect(postmasterRunning(dir)).toBe(true)

		const lines: string[] = []
		const next = await openEmbeddedPostgres({ dataDir: dir, role: 'server', log: (line) => lines.push(line) })
		cleanups.push(next.stop)
		expect(lines.join('\n')).toMatch(/Stopping the embedded PostgreSQL \(process \d+\) that an earlier run left behind/)
		expect(next.owned).toBe(true)
		expect(await query(next.url, 'SELECT note FROM kept')).toEqual([{ note: 'before the kill' }])
		await next.stop()
		expect(postmasterRunning(dir)).toBe(false)
	})

	test('launchers that start at the same moment share one server', async () => {
		const dir = dataDir()
		const launchers = await Promise.all([holder(dir, 'command'), holder(dir, 'command'), holder(dir, 'command')])
		expect(new Set(launchers.map((launcher) => launcher.url)).size).toBe(1)
		expect(launchers.filter((launcher) => launcher.child.exitCode === null)).toHaveLength(3)
	})
})

describe('the earlier embedded database (PGlite)', () => {
	test('moves into the embedded PostgreSQL once, rows and sequences intact, the old folder kept', async () => {
		const dir = dataDir()
		const pglite = await PGlite.create(path.join(dir, 'db'))
		const legacy = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) })
		await migrateToLatest(legacy)
		const userId = await insertUser(legacy, { email: 'kept@example.com', name: 'Kept Student' })
		const course = await insertCourse(legacy, { title: 'Kept course' })
		await legacy.destroy()

		const lines: string[] = []
		const server = await openDatabaseServer({ DATA_DIR: dir, DATABASE_URL: undefined }, 'server', (line) => lines.push(line))
		cleanups.push(server.stop)
		expect(lines.join('\n')).toMatch(/Moved the earlier embedded database into PostgreSQL \(\d+ rows\)\. .*db is no longer used/)
		expect(await query(server.url, `SELECT id, email FROM users`)).toEqual([{ id: userId, email: 'kept@example.com' }])
		const [next] = await query<{ id: number }>(server.url, `INSERT INTO courses (title, capacity) VALUES ('New', 5) RETURNING id`)
		expect(next!.id).toBeGreaterThan(course.id)
		await server.stop()

		const again: string[] = []
		const restarted = await openDatabaseServer({ DATA_DIR: dir, DATABASE_URL: undefined }, 'server', (line) => again.push(line))
		cleanups.push(restarted.stop)
		expect(again.join('\n')).not.toMatch(/Moved/)
		expect(await query(restarted.url, `SELECT count(*)::int AS count FROM courses`)).toEqual([{ count: 2 }])
		expect(fs.existsSync(path.join(dir, 'db', 'PG_VERSION'))).toBe(true)
	}, 180_000)
})
