/** The app's job system run as in production, for tests of work that must happen once across processes. */
import { run } from 'graphile-worker'
import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import { expect } from 'vitest'
import { TASKS } from '#app/jobs/index.server.ts'
import type { Database } from '#db/types.ts'

/** How many jobs of these tasks are queued or running. */
export async function pendingJobs(db: Kysely<Database>, tasks: string[]) {
	const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs
		WHERE task_identifier IN (${sql.join(tasks)})`.execute(db)
	return rows[0]!.n
}

/**
 * Starts two job runners on the test's database, as two app processes run them, lets `queue` add
 * jobs, waits until no job of `tasks` is left, and stops the runners.
 */
export async function runInTwoJobRunners(
	{ databaseUrl, db, tasks }: { databaseUrl: string; db: Kysely<Database>; tasks: string[] },
	queue: () => Promise<unknown>,
) {
	const pools = [0, 1].map(() => new pg.Pool({ connectionString: databaseUrl, max: 4 }))
	for (const pool of pools) {
		// As the app's job pool does: a client whose server goes away (the test database dropped) must not end the run.
		pool.on('error', () => {})
		pool.on('connect', (client) => client.on('error', () => {}))
	}
	const runners = await Promise.all(
		pools.map((pgPool) => run({ pgPool, concurrency: 4, taskList: TASKS, noHandleSignals: true, crontab: '' })),
	)
	try {
		await queue()
		await expect.poll(() => pendingJobs(db, tasks), { timeout: 20_000 }).toBe(0)
	} finally {
		for (const runner of runners) await runner.stop()
		for (const pool of pools) await pool.end()
	}
}
