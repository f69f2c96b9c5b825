import { type Kysely, sql } from 'kysely'

/**
 * Anything that changes what the public pages show (courses, seats, the home
 * page offer) announces itself, whichever code or tool made the change, so
 * every app process drops its cached public pages (app/utils/page-cache.server.ts).
 */
const tables = ['courses', 'enrollments', 'seat_holds', 'site_settings']

export async function up(db: Kysely<unknown>) {
	await sql`CREATE FUNCTION notify_public_content_changed() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			PERFORM pg_notify('app_events', '{"type":"site.changed"}');
			RETURN NULL;
		END
	$$`.execute(db)
	for (const table of tables) {
		await sql`CREATE TRIGGER ${sql.raw(`${table}_public_content_changed`)}
			AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
			FOR EACH STATEMENT EXECUTE FUNCTION notify_public_content_changed()`.execute(db)
	}
}
