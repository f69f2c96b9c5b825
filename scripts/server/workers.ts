/**
 * The cluster's primary: forks WEB_CONCURRENCY HTTP workers, replaces one that dies,
 * and on SIGTERM or SIGINT lets every worker drain and exits once they all have.
 */
import cluster, { type Worker } from 'node:cluster'
import { closeDatabase, initDatabase } from '#app/utils/db.server.ts'
import { type Env, requireDatabaseUrl } from '#app/utils/env.server.ts'

/** Longer than a worker's own shutdown deadline, which ends it first. */
const SHUTDOWN_DEADLINE_MS = 20_000

export async function superviseWorkers(env: Env, afterWorkersStopped: () => Promise<void>) {
	// Migrate once, before any worker opens the database.
	await initDatabase({ databaseUrl: requireDatabaseUrl(env), poolMax: 1 })
	await closeDatabase()

	const listening = new Set<Worker>()
	let announced = false
	let stopping = false
	let exitCode = 0

	const fork = () => {
		const worker = cluster.fork()
		worker.once('listening', (address) => {
			listening.add(worker)
			if (announced || listening.size < env.WEB_CONCURRENCY) return
			announced = true
			console.log(`Server listening on http://localhost:${address.port} (${env.NODE_ENV}, ${env.WEB_CONCURRENCY} workers)`)
		})
	}

	/** The last step: what the launcher started for the workers (the embedded database) stops after them. */
	const finish = async (code: number) => {
		await afterWorkersStopped().catch((error: unknown) => {
			console.error('Shutdown error', error)
			code = 1
		})
		process.exit(code)
	}

	const stop = (code: number) => {
		exitCode = Math.max(exitCode, code)
		if (stopping) return
		stopping = true
		const workers = Object.values(cluster.workers ?? {})
		if (workers.length === 0) void finish(exitCode)
		for (const worker of workers) worker?.process.kill('SIGTERM')
		setTimeout(() => {
			console.error('Workers did not stop in time; exiting')
			process.exit(1)
		}, SHUTDOWN_DEADLINE_MS).unref()
	}

	cluster.on('exit', (worker, code, signal) => {
		const started = listening.delete(worker)
		if (stopping) {
			// A worker still starting may die of the SIGTERM itself: that is a clean stop too.
			if (code !== 0 && signal !== 'SIGTERM') exitCode = 1
			if (Object.keys(cluster.workers ?? {}).length === 0) void finish(exitCode)
			return
		}
		const reason = signal ?? `code ${code}`
		if (!started) {
			// A worker that cannot start (configuration, port, database) would fail again: stop instead of looping.
			console.error(`A server worker failed to start (${reason}); stopping`)
			stop(1)
			return
		}
		console.error(`Server worker ${worker.process.pid} exited (${reason}); starting another`)
		fork()
	})

	for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(0))
	for (let index = 0; index < env.WEB_CONCURRENCY; index++) fork()
}
