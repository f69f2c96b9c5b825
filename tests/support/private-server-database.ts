/**
 * A private server (private-server.ts) on a fresh PostgreSQL database, with a handle on that
 * database for the rows a spec writes and reads behind the server's back: what the HTTP-level
 * specs start before their tests and end after them.
 */
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import './e2e.ts'
import { dropServerDatabase, type PrivateServer, startServer } from './private-server.ts'

// After e2e.ts, which gives this process the server's environment.
const { openDatabase } = await import('#app/utils/db.server.ts')

export type PrivateServerWithDatabase = {
	server: PrivateServer
	db: Kysely<Database>
	/** Closes the handle, stops the server and drops its database. */
	stop: () => Promise<void>
}

export async function startServerWithDatabase(env?: Record<string, string>): Promise<PrivateServerWithDatabase> {
	const server = await startServer({ database: 'postgres', env })
	const stopServer = async () => {
		await server.stop()
		await dropServerDatabase(server)
	}
	try {
		const handle = await openDatabase({ databaseUrl: server.databaseUrl!, poolMax: 2 })
		return {
			server,
			db: handle.db,
			stop: async () => {
				await handle.close()
				await stopServer()
			},
		}
	} catch (error) {
		await stopServer()
		throw error
	}
}
