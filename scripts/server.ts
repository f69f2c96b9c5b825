/**
 * `node scripts/server.ts`: the production server on ./build (`--dev`: the sources through Vite).
 * Without DATABASE_URL this process first starts the embedded PostgreSQL server in DATA_DIR
 * (scripts/lib/embedded-postgres.ts) and stops it last, after the HTTP servers have drained.
 * With WEB_CONCURRENCY above 1 (one per CPU unless set) it migrates the database and
 * supervises that many copies of the HTTP server sharing the port (node:cluster). The
 * copies share nothing but the database and the file store, exactly like containers
 * behind a load balancer.
 */
import cluster from 'node:cluster'
import { getEnv, resetEnvCache } from '#app/utils/env.server.ts'
import { openDatabaseServer } from './lib/database-server.ts'
import { exitWithError } from './lib/processes.ts'

const isDev = process.argv.includes('--dev')
if (isDev) process.env.NODE_ENV ??= 'development'

if (cluster.isWorker) {
	await import('./server/http.ts')
} else {
	// Read before any worker starts, so that an embedded session secret is created once, here.
	const env = getEnv()
	const database = await openDatabaseServer(env, 'server').catch(exitWithError)
	// The HTTP processes (this one or the cluster's workers, which inherit the environment) use it.
	process.env.DATABASE_URL = database.url
	resetEnvCache()
	if (!isDev && env.WEB_CONCURRENCY > 1) {
		const { superviseWorkers } = await import('./server/workers.ts')
		await superviseWorkers(getEnv(), database.stop)
	} else {
		const { afterShutdown } = await import('./server/http.ts')
		afterShutdown(database.stop)
	}
}
