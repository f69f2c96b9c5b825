import { sql } from 'kysely'
import { getDb } from '#app/utils/db.server.ts'

/** For load balancers and the container HEALTHCHECK: answers 200 only when the database answers. */
export async function loader() {
	try {
		await sql`SELECT 1`.execute(getDb())
		return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } })
	} catch (error) {
		console.error('[healthz] database check failed', error instanceof Error ? error.message : error)
		return Response.json({ status: 'error', database: 'unreachable' }, { status: 503, headers: { 'Cache-Control': 'no-store' } })
	}
}
