/**
 * The PostgreSQL server of a test run: TEST_POSTGRES_URL (default: the machine's service on
 * 127.0.0.1:5432) when it answers, otherwise an embedded server of the run's own, in a
 * throwaway folder, stopped and removed at the end. The choice is handed to every step
 * of the run through TEST_POSTGRES_URL.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openEmbeddedPostgres } from '../../scripts/lib/embedded-postgres.ts'
import { testPostgresUrl } from './postgres.ts'

/** Durability is not what a throwaway server is for: these make creating and dropping hundreds of databases cheap. */
const THROWAWAY_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: 300 }

export async function answers(url: string) {
	const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
	client.on('error', () => {})
	try {
		await client.connect()
		await client.query('SELECT 1')
		return true
	} catch {
		return false
	} finally {
		await client.end().catch(() => {})
	}
}

export async function ensureTestPostgres(log: (line: string) => void = console.log) {
	const configured = testPostgresUrl()
	if (await answers(configured)) return { url: configured, stop: async () => {} }
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-postgres-'))
	// As root the server runs as the user postgres, which must reach the folder.
	fs.chmodSync(dataDir, 0o755)
	log(`Nothing answers at ${redact(configured)}: starting an embedded PostgreSQL for this run in ${dataDir}.`)
	const server = await openEmbeddedPostgres({ dataDir, role: 'server', log, settings: THROWAWAY_SETTINGS })
	process.env.TEST_POSTGRES_URL = server.adminUrl
	return {
		url: server.adminUrl,
		stop: async () => {
			await server.stop()
			fs.rmSync(dataDir, { recursive: true, force: true })
		},
	}
}

function redact(url: string) {
	const parsed = new URL(url)
	if (parsed.password) parsed.password = '***'
	return parsed.toString()
}
