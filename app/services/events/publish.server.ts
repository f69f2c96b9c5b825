import { type Kysely, sql } from 'kysely'
import type { Database } from '#db/types.ts'
import { type AppEvent, EVENTS_CHANNEL } from './events.ts'

/**
 * Publishes an event through PostgreSQL. Called with a transaction, the event
 * is sent only if (and when) that transaction commits.
 */
export async function publishEvent(db: Kysely<Database>, event: AppEvent) {
	await sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`.execute(db)
}
