import { randomBytes } from 'node:crypto'
import pg from 'pg'

export const DEFAULT_TEST_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres'

/**
 * The server the tests create their throwaway databases on: TEST_POSTGRES_URL, or the embedded
 * server the suite started when nothing answered there (tests/support/test-postgres-server.ts).
 */
export function testPostgresUrl() {
	return process.env.TEST_POSTGRES_URL ?? DEFAULT_TEST_POSTGRES_URL
}

export function databaseUrl(name: string) {
	const url = new URL(testPostgresUrl())
	url.pathname = `/${name}`
	return url.toString()
}

export async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>) {
	const client = new pg.Client({ connectionString: testPostgresUrl() })
	await client.connect()
	try {
		return await run(client)
	} finally {
		await client.end()
	}
}

export function randomDatabaseName(prefix: string) {
	return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
}

export async function createDatabase(name: string, template?: string) {
	await withAdminClient((client) =>
		client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''}`),
	)
}

export async function dropDatabase(name: string) {
	await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`))
}
