import { type Kysely, sql } from 'kysely'

/**
 * Office documents get a PDF preview made on the server (docs/decisions/028). The state
 * refers to one stored file (`preview_for_key`): a replaced file needs a preview of its own.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE material_items
		ADD COLUMN preview_status text CONSTRAINT material_items_preview_status_check
			CHECK (preview_status IN ('pending', 'ready', 'failed', 'unavailable')),
		ADD COLUMN preview_for_key text,
		ADD CONSTRAINT material_items_preview_state_check CHECK ((preview_status IS NULL) = (preview_for_key IS NULL))`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE material_items DROP COLUMN preview_status, DROP COLUMN preview_for_key`.execute(db)
}
