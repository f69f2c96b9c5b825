import { type Kysely, sql } from 'kysely'

/**
 * The overview's attendance per session (issue 43) counts each session's statuses: found by EXPLAIN
 * on the scale data set (scripts/bench/explain.ts), the primary key led it to every attendance row
 * in the table's heap, one visit per student and session. With the status beside the key the same
 * count reads the index alone (an index-only scan).
 */
export async function up(db: Kysely<unknown>) {
	await sql`CREATE INDEX attendance_session_status ON attendance (live_session_id, user_id) INCLUDE (status)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DROP INDEX attendance_session_status`.execute(db)
}
