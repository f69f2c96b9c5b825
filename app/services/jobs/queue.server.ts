import { type Kysely, sql } from 'kysely'
import type { Database } from '#db/types.ts'

export type JobSpec = {
	/** When to run; now when unset. */
	runAt?: Date
	/** At most one pending job per key: adding one with the same key replaces it. */
	jobKey?: string
	maxAttempts?: number
}

/**
 * Adds a job to the job system (graphile-worker) through its SQL API, in the caller's
 * transaction when given one: the job exists if and only if the change that asked for it commits.
 */
export async function addJob(db: Kysely<Database>, task: string, payload: Record<string, unknown> = {}, spec: JobSpec = {}) {
	await sql`SELECT graphile_worker.add_job(
		${task},
		${JSON.stringify(payload)}::json,
		run_at => ${spec.runAt ?? null}::timestamptz,
		max_attempts => ${spec.maxAttempts ?? null}::int,
		job_key => ${spec.jobKey ?? null}::text
	)`.execute(db)
}
