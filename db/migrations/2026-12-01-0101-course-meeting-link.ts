import { type Kysely, sql } from 'kysely'

/**
 * One meeting link per course (issue 39 point 3, docs/decisions/046): every week's live session is
 * joined by it unless the week has its own link. An https address or nothing, as the course form
 * allows.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE courses
		ADD COLUMN meeting_link text CHECK (meeting_link IS NULL OR (meeting_link ~ '^https://[^\\s/]+\\.[^\\s]*$' AND char_length(meeting_link) <= 2000))`.execute(
		db,
	)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE courses DROP COLUMN meeting_link`.execute(db)
}
