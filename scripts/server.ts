/**
 * `node scripts/server.ts`: the production server on ./build (`--dev`: the sources through Vite).
 * With WEB_CONCURRENCY above 1 (PostgreSQL only; one per CPU unless set) this process
 * migrates the database and supervises that many copies of the HTTP server sharing the
 * port (node:cluster). The copies share nothing but the database and the file store,
 * exactly like containers behind a load balancer.
 */
import cluster from 'node:cluster'
import { getEnv } from '#app/utils/env.server.ts'

const isDev = process.argv.includes('--dev')
if (isDev) process.env.NODE_ENV ??= 'development'
// Read before any worker starts, so that an embedded session secret is created once, here.
const env = getEnv()

if (cluster.isPrimary && !isDev && env.WEB_CONCURRENCY > 1) {
	const { superviseWorkers } = await import('./server/workers.ts')
	await superviseWorkers(env)
} else {
	await import('./server/http.ts')
}
