/**
 * Moves the data of the earlier embedded database (PGlite, `$DATA_DIR/db`) into the
 * embedded PostgreSQL server, once: when the folder is there and the new database is
 * still empty. PGlite's own pg_dump writes the dump, which is restored in one
 * transaction; the old folder is left for the operator to delete (docs/decisions/023).
 */
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'

/** pg_dump 17+ brackets a plain dump in psql meta-commands, which only psql understands. */
const PSQL_META_COMMAND = /^\\(un)?restrict \S+$/

export async function importPgliteData(dataDir: string, url: string, log: (line: string) => void) {
	const legacy = path.resolve(dataDir, 'db')
	if (!fs.existsSync(path.join(legacy, 'PG_VERSION'))) return false
	const client = new pg.Client({ connectionString: url })
	await client.connect()
	try {
		const tables = await client.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = 'public' LIMIT 1`)
		if ((tables.rowCount ?? 0) > 0) return false

		log(`Moving the data of the earlier embedded database (PGlite, ${legacy}) into PostgreSQL…`)
		const { PGlite } = await import('@electric-sql/pglite')
		const { pgDump } = await import('@electric-sql/pglite-tools/pg_dump')
		const pglite = await PGlite.create(legacy)
		let dump: string
		try {
			dump = await (await pgDump({ pg: pglite, args: ['--no-owner', '--no-privileges'] })).text()
		} finally {
			await pglite.close()
		}
		const statements = dump
			.split('\n')
			.filter((line) => !PSQL_META_COMMAND.test(line))
			.join('\n')
		await client.query('BEGIN')
		try {
			await client.query(statements)
			await client.query('COMMIT')
			// The dump empties the session's search_path.
			await client.query('RESET search_path')
		} catch (error) {
			await client.query('ROLLBACK')
			throw new Error(`The earlier embedded database in ${legacy} could not be moved: ${(error as Error).message}`)
		}
		log(
			`Moved the earlier embedded database into PostgreSQL (${await countRows(client)} rows). ${legacy} is no longer used: delete it once you no longer need it.`,
		)
		return true
	} finally {
		await client.end()
	}
}

async function countRows(client: pg.Client) {
	const tables = await client.query<{ name: string }>(
		`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
	)
	let rows = 0
	for (const { name } of tables.rows) {
		const result = await client.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${pg.escapeIdentifier(name)}`)
		rows += result.rows[0]?.count ?? 0
	}
	return rows
}
