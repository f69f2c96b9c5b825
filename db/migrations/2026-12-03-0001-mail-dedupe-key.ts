import { type Kysely, sql } from 'kysely'

/**
 * A job runs at least once: when a worker stops after a mail job's transaction committed but before
 * the job was marked done, the job runs again. A mail queued by a job carries a key made of the job
 * and the recipient, and the outbox takes each key once, so the second run queues nothing.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE email_outbox ADD COLUMN dedupe_key text UNIQUE`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE email_outbox DROP COLUMN dedupe_key`.execute(db)
}
