import { startMailWorker, stopMailWorker } from '#app/services/mail/index.server.ts'
import { initStorage } from '#app/services/storage/index.server.ts'
import { closeDatabase, initDatabase } from './db.server.ts'
import { getEnv } from './env.server.ts'

/**
 * Opens everything the app needs before the server accepts a request, so a
 * misconfiguration fails the start rather than the first visitor.
 */
export async function startup() {
	const env = getEnv()
	await initDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolMax: env.DATABASE_POOL_MAX })
	await initStorage(env)
	startMailWorker(env)
}

export async function shutdown() {
	await stopMailWorker()
	await closeDatabase()
}
