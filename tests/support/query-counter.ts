import { getDatabaseHandle, openDatabase, setDatabaseHandle } from '#app/utils/db.server.ts'

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
