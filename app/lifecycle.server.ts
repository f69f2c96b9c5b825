import cluster from 'node:cluster'
import { CRONTAB, TASKS } from '#app/jobs/index.server.ts'
import { detectDocumentConverter, previewsStartupLine } from '#app/services/documents/converter.server.ts'
import { getEventHub, stopEventHub } from '#app/services/events/hub.server.ts'
import { acceptStreams, closeAllStreams } from '#app/services/events/streams.server.ts'
import { addJob } from '#app/services/jobs/queue.server.ts'
import { migrateJobSchema, startJobRunner, stopJobRunner } from '#app/services/jobs/runner.server.ts'
import { configureMailDelivery } from '#app/services/mail/index.server.ts'
import { initStorage } from '#app/services/storage/index.server.ts'
import { closeDatabase, getDb, initDatabase, withMigrationLock } from './utils/db.server.ts'
import { getEnv, requireDatabaseUrl } from './utils/env.server.ts'
import { type BuildRoute, configureSharedPages, pagesOfBuild } from './utils/page-cache.server.ts'

/**
 * The HTTP server waits for open connections to end before it calls
 * shutdown(), and an event stream never ends by itself: streams are closed as
 * soon as the stop signal arrives.
 */
const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const

/**
 * Opens everything the app needs before the server accepts a request, so a
 * misconfiguration fails the start rather than the first visitor. Takes the
 * server build's routes: their handles say which pages visitors share.
 */
export async function startup({ routes }: { routes: Record<string, BuildRoute | undefined> }) {
	configureSharedPages(pagesOfBuild(routes))
	const env = getEnv()
	const databaseUrl = requireDatabaseUrl(env)
	await initDatabase({ databaseUrl, poolMax: env.DATABASE_POOL_MAX })
	await initStorage(env)
	await getEventHub()
	acceptStreams()
	for (const signal of SHUTDOWN_SIGNALS) process.once(signal, closeAllStreams)
	configureMailDelivery(env)
	await withMigrationLock(getDb(), () => migrateJobSchema(databaseUrl))
	await startJobRunner({ databaseUrl, logLevel: env.LOG_LEVEL, tasks: TASKS, crontab: CRONTAB })
	// Partial uploads a killed process left behind are looked for at once, not at the next hourly slot.
	await addJob(getDb(), 'sweep-abandoned-uploads', {}, { jobKey: 'sweep-abandoned-uploads' })
	const converter = await detectDocumentConverter(env)
	// Said once per start: by the only process, or by the cluster's first worker.
	if ((env.LOG_LEVEL === 'info' || env.LOG_LEVEL === 'debug') && (!cluster.isWorker || cluster.worker?.id === 1)) {
		console.log(previewsStartupLine(converter, env))
	}
	await addJob(getDb(), 'request-missing-previews', {}, { jobKey: 'request-missing-previews' })
}

export async function shutdown() {
	for (const signal of SHUTDOWN_SIGNALS) process.off(signal, closeAllStreams)
	closeAllStreams()
	await stopEventHub()
	await stopJobRunner()
	await closeDatabase()
}
