/**
 * The job system: graphile-worker on the app's PostgreSQL (docs/decisions/024). Every app
 * process runs a runner; a job is taken by exactly one of them (SKIP LOCKED), and a cron item
 * runs once per slot across all processes and containers. Tasks are plain functions
 * (app/jobs), given to the runner by the app shell.
 */
import { Logger, type LogLevel, parseCrontab, type Runner, run, runMigrations, type TaskList } from 'graphile-worker'
import pg from 'pg'
import type { Env } from '#app/utils/env.server.ts'

const LEVEL_RANK = { debug: 0, info: 1, warning: 2, warn: 2, error: 3, silent: 4 } as const

/** graphile-worker's log lines through the app's LOG_LEVEL; its routine start and stop lines count as debug. */
function jobLogger(level: Env['LOG_LEVEL']) {
	return new Logger(() => (logLevel: LogLevel, message: string) => {
		const rank = logLevel === 'info' ? LEVEL_RANK.debug : LEVEL_RANK[logLevel]
		if (rank < LEVEL_RANK[level]) return
		const line = `[jobs] ${message}`
		if (logLevel === 'error') console.error(line)
		else if (logLevel === 'warning') console.warn(line)
		else console.log(line)
	})
}

/**
 * A pool of the job system's own. Like the app's (app/utils/db.server.ts), it listens for the
 * errors a client emits when its server goes away, which unheard would end the process.
 */
function jobPool(connectionString: string, max: number) {
	const pool = new pg.Pool({ connectionString, max })
	pool.on('error', (error) => console.error('[jobs] idle client error', error.message))
	pool.on('connect', (client) => client.on('error', () => {}))
	return pool
}

/** Installs or upgrades the job system's own schema (graphile_worker). Safe to call from several processes at once. */
export async function migrateJobSchema(databaseUrl: string) {
	const pgPool = jobPool(databaseUrl, 1)
	try {
		await runMigrations({ pgPool, logger: jobLogger('warn') })
	} finally {
		await pgPool.end()
	}
}

type RunnerHandle = { runner: Runner; pool: pg.Pool }
let current: RunnerHandle | undefined

export async function startJobRunner(options: { databaseUrl: string; logLevel: Env['LOG_LEVEL']; tasks: TaskList; crontab: string }) {
	const concurrency = 2
	// Its own small pool: the worker's LISTEN connection and running jobs never wait behind page requests.
	const pool = jobPool(options.databaseUrl, concurrency + 2)
	const runner = await run({
		pgPool: pool,
		concurrency,
		taskList: options.tasks,
		parsedCronItems: parseCrontab(options.crontab),
		noHandleSignals: true,
		logger: jobLogger(options.logLevel),
	})
	current = { runner, pool }
}

/** Lets running jobs finish, then releases the connections. */
export async function stopJobRunner() {
	const handle = current
	current = undefined
	if (!handle) return
	await handle.runner.stop().catch((error: unknown) => console.error('[jobs] stop failed', error))
	await handle.pool.end()
}
