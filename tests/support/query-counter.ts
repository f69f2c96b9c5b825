import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { getDatabaseHandle, openDatabase, setDatabaseHandle } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'

/**
 * Counts the SQL statements app code issues: a second handle on the same database with
 * a log callback is installed as the app's database while `run` executes.
 */
export async function createQueryCounter(databaseUrl: string) {
	const statements: string[] = []
	const handle = await openDatabase({ databaseUrl, poolMax: 4, onQuery: (event) => statements.push(event.query.sql) })
	return {
		/** The statements `run` issued, in order. */
		async record(run: () => Promise<unknown>) {
			const previous = getDatabaseHandle()
			statements.length = 0
			setDatabaseHandle(handle)
			try {
				await run()
			} finally {
				setDatabaseHandle(previous)
			}
			return [...statements]
		},
		close: () => handle.close(),
	}
}

/**
 * A handle of its own on the database (one connection) that notes every SQL statement it runs,
 * for a model function that takes its db as an argument. `destroy` it when done.
 */
export function createCountingDb(databaseUrl: string) {
	const statements: string[] = []
	const db = new Kysely<Database>({
		dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }),
		log: (event) => {
			statements.push(event.query.sql)
		},
	})
	return { db, statements, destroy: () => db.destroy() }
}
