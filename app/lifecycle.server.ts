import { sweepExpiredRegistrations } from '#app/models/registration.server.ts'
import { getEventHub, stopEventHub } from '#app/services/events/hub.server.ts'
import { acceptStreams, closeAllStreams } from '#app/services/events/streams.server.ts'
import { startMailWorker, stopMailWorker } from '#app/services/mail/index.server.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { initStorage, removeAbandonedUploads } from '#app/services/storage/index.server.ts'
import { closeDatabase, getDb, initDatabase } from './utils/db.server.ts'
import { getEnv, requireDatabaseUrl } from './utils/env.server.ts'
import { sweepRateLimits } from './utils/rate-limit.server.ts'

/**
 * The HTTP server waits for open connections to end before it calls
 * shutdown(), and an event stream never ends by itself: streams are closed as
 * soon as the stop signal arrives.
 */
const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const

/** Expired registration drafts, checkouts, seat holds and rate-limit counters are cleared this often. */
const SWEEP_INTERVAL_MS = 60_000
let sweeper: NodeJS.Timeout | undefined
let sweeping = false

function sweep() {
	if (sweeping) return
	sweeping = true
	const logFailure = (error: unknown) => console.error('[sweep] failed:', error instanceof Error ? error.message : error)
	Promise.all([sweepExpiredRegistrations(getDb(), getPayments()).catch(logFailure), sweepRateLimits(getDb()).catch(logFailure)]).finally(
		() => (sweeping = false),
	)
}

/** Partial uploads left by a killed process are looked for at start-up and then this often. */
const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000
let uploadSweeper: NodeJS.Timeout | undefined

function sweepAbandonedUploads() {
	removeAbandonedUploads().catch((error: unknown) =>
		console.error('[sweep] abandoned uploads:', error instanceof Error ? error.message : error),
	)
}

/**
 * Opens everything the app needs before the server accepts a request, so a
 * misconfiguration fails the start rather than the first visitor.
 */
export async function startup() {
	const env = getEnv()
	await initDatabase({ databaseUrl: requireDatabaseUrl(env), poolMax: env.DATABASE_POOL_MAX })
	await initStorage(env)
	await getEventHub()
	acceptStreams()
	for (const signal of SHUTDOWN_SIGNALS) process.once(signal, closeAllStreams)
	startMailWorker(env)
	sweeper = setInterval(sweep, SWEEP_INTERVAL_MS)
	sweeper.unref()
	sweepAbandonedUploads()
	uploadSweeper = setInterval(sweepAbandonedUploads, UPLOAD_SWEEP_INTERVAL_MS)
	uploadSweeper.unref()
}

export async function shutdown() {
	clearInterval(sweeper)
	clearInterval(uploadSweeper)
	for (const signal of SHUTDOWN_SIGNALS) process.off(signal, closeAllStreams)
	closeAllStreams()
	await stopEventHub()
	await stopMailWorker()
	await closeDatabase()
}
