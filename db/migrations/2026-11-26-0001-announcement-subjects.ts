import { type Kysely, sql } from 'kysely'

/**
 * Announcements keep their subject in a column of its own, so a subject may hold a colon
 * ("Week 2: new time"). Rows written before keep `subject` null and their 'subject: message'
 * content, which is read as before (split at the first colon).
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE messages ADD COLUMN subject text
		CONSTRAINT messages_subject_check CHECK (subject IS NULL OR (is_announcement AND char_length(subject) BETWEEN 1 AND 200))`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE messages DROP COLUMN subject`.execute(db)
}
