import { type Kysely, sql } from 'kysely'

/**
 * Run again (issue 39, docs/decisions/045): a course can be a draft, hidden from the public and
 * students until the admin publishes it. Every course so far was public, so the default is true.
 * A course made by Run again keeps the key of the form that asked for it, unique, so a double
 * submit of that form makes one copy. Its material items name the same stored files as the course
 * it came from: a storage key is no longer unique across items, only within a week, and is indexed
 * for the check that a file is still used before it is removed.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE courses
		ADD COLUMN published boolean NOT NULL DEFAULT true,
		ADD COLUMN run_again_key uuid UNIQUE`.execute(db)
	await sql`ALTER TABLE material_items DROP CONSTRAINT material_items_storage_key_key`.execute(db)
	await sql`ALTER TABLE material_items ADD CONSTRAINT material_items_week_storage_key UNIQUE (material_id, storage_key)`.execute(db)
	await sql`CREATE INDEX material_items_storage_key ON material_items (storage_key) WHERE storage_key IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DROP INDEX material_items_storage_key`.execute(db)
	await sql`ALTER TABLE material_items DROP CONSTRAINT material_items_week_storage_key`.execute(db)
	await sql`ALTER TABLE material_items ADD CONSTRAINT material_items_storage_key_key UNIQUE (storage_key)`.execute(db)
	await sql`ALTER TABLE courses DROP COLUMN run_again_key, DROP COLUMN published`.execute(db)
}
