import { type Kysely, sql } from 'kysely'

/**
 * An announcement is for every student (course_id null) or for one course's students; it goes
 * with its course. `emailed_at` marks the announcement whose e-mails are in the outbox: the job
 * that fans them out checks and sets it in one transaction, so each student gets one copy
 * however often the job runs.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE messages
		ADD COLUMN course_id integer REFERENCES courses (id) ON DELETE CASCADE,
		ADD COLUMN emailed_at timestamptz,
		ADD CONSTRAINT messages_course_check CHECK (course_id IS NULL OR is_announcement),
		ADD CONSTRAINT messages_emailed_check CHECK (emailed_at IS NULL OR is_announcement)`.execute(db)
	await sql`CREATE INDEX messages_course_announcements_idx ON messages (course_id) WHERE course_id IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE messages DROP COLUMN course_id, DROP COLUMN emailed_at`.execute(db)
}
