import { type Kysely, sql } from 'kysely'

/**
 * What a person lets the school e-mail them beyond what their account needs (confirmation,
 * reset, receipts): announcements, and reminders before live sessions. Both start on; the
 * switches are in Settings, and announcements carry a one-click unsubscribe link.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE profiles
		ADD COLUMN email_announcements boolean NOT NULL DEFAULT true,
		ADD COLUMN email_reminders boolean NOT NULL DEFAULT true`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE profiles DROP COLUMN email_announcements, DROP COLUMN email_reminders`.execute(db)
}
