import { type Kysely, sql } from 'kysely'

/**
 * Progress (issue 40 point 2, docs/decisions/051): the first time an enrolled student opened each
 * material or recording, written by the viewer and the file routes in the request that serves it.
 * The key makes it one row per student and item however many opens arrive at once.
 */
export async function up(db: Kysely<unknown>) {
	await sql`CREATE TABLE material_opens (
		user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
		material_item_id integer NOT NULL REFERENCES material_items (id) ON DELETE CASCADE,
		first_opened_at timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (user_id, material_item_id)
	)`.execute(db)
	await sql`CREATE INDEX material_opens_item ON material_opens (material_item_id)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DROP TABLE material_opens`.execute(db)
}
