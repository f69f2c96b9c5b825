/**
 * The database a launcher (server, migrate, seed, admin:create, bench) works on:
 * DATABASE_URL when set, otherwise the embedded PostgreSQL server in DATA_DIR,
 * started by this process or joined if another runs it (scripts/lib/embedded-postgres.ts).
 */
import { migrateJobSchema } from '#app/services/jobs/runner.server.ts'
import { closeDatabase, type DatabaseHandle, initDatabase } from '#app/utils/db.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { type EmbeddedRole, openEmbeddedPostgres } from './embedded-postgres.ts'
import { importPgliteData } from './pglite-import.ts'

export type DatabaseServer = {
	url: string
	embedded: boolean
	/** Stops the embedded server if this process started it; otherwise nothing. */
	stop: () => Promise<void>
}

export async function openDatabaseServer(
	env: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>,
	role: EmbeddedRole,
	log: (line: string) => void = (line) => console.log(line),
): Promise<DatabaseServer> {
	if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: false, stop: async () => {} }
	const server = await openEmbeddedPostgres({ dataDir: env.DATA_DIR, role, log })
	try {
		if (server.owned) await importPgliteData(env.DATA_DIR, server.url, log)
	} catch (error) {
		await server.stop()
		throw error
	}
	return { url: server.url, embedded: true, stop: server.stop }
}

/**
 * For a short command (migrate, seed, admin:create): the database at the latest migration, the job
 * system's schema included, given to `run`, then closed; an embedded server this command started is stopped again.
 */
export async function withMigratedDatabase<T>(
	env: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>,
	run: (handle: DatabaseHandle) => Promise<T>,
): Promise<T> {
	const server = await openDatabaseServer(env, 'command')
	try {
		const handle = await initDatabase({ databaseUrl: server.url, poolMax: 2 })
		// The seed issues a certificate, which asks the job system for its e-mail: on a fresh
		// database that schema must exist before the server first starts.
		await migrateJobSchema(server.url)
		return await run(handle)
	} finally {
		await closeDatabase()
		await server.stop()
	}
}
