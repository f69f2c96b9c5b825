import { type Kysely, sql } from 'kysely'

/**
 * A person who deletes their own account leaves the messages they sent to others in place, from
 * "Deleted user" (docs/decisions/067): such a message keeps no sender. The foreign key still
 * cascades, so an admin's removal of a student (which removes their messages) is unchanged.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE messages ALTER COLUMN sender_id DROP NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DELETE FROM messages WHERE sender_id IS NULL`.execute(db)
	await sql`ALTER TABLE messages ALTER COLUMN sender_id SET NOT NULL`.execute(db)
}
