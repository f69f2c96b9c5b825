import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
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
 * A query counter on the test database for the file or `describe` block that calls it: opened
 * before its tests (once `useTestDatabase` has made the database) and closed after them.
 */
export function useQueryCounter(database: { url: string }) {
	let counter: Awaited<ReturnType<typeof createQueryCounter>> | undefined
	beforeAll(async () => {
		counter = await createQueryCounter(database.url)
	})
	afterAll(async () => {
		await counter?.close()
	})
	return { record: (run: () => Promise<unknown>) => counter!.record(run) }
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
