import { type Kysely, sql } from 'kysely'

/**
 * Run again (issue 39, docs/decisions/045): a course can be a draft, hidden from the public and
 * students until the admin publishes it. Every course so far was public, so the default is true.
 * A course made by Run again keeps the key of the form that asked for it, unique, so a double
 * submit of that form makes one copy.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE courses
		ADD COLUMN published boolean NOT NULL DEFAULT true,
		ADD COLUMN run_again_key uuid UNIQUE`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE courses DROP COLUMN run_again_key, DROP COLUMN published`.execute(db)
}
