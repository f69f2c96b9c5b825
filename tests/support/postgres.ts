import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** The server the tests create their throwaway databases on. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export function databaseUrl(name: string) {
	const url = new URL(TEST_POSTGRES_URL)
	url.pathname = `/${name}`
	return url.toString()
}

export async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>) {
	const client = new pg.Client({ connectionString: TEST_POSTGRES_URL })
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
