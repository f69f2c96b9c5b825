import { type Kysely, sql } from 'kysely'

/**
 * A queued mail keeps the extra headers it is sent with (List-Unsubscribe on announcements) and
 * its attachments (a calendar file), so that the delivery job sends exactly what was queued.
 * Attachments are small text parts ({ filename, contentType, content }): files stay in storage
 * and are linked, not mailed.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE email_outbox
		ADD COLUMN headers jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(headers) = 'object'),
		ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(attachments) = 'array')`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE email_outbox DROP COLUMN headers, DROP COLUMN attachments`.execute(db)
}
