import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

export type AuditEntry = {
	actorId: string | null
	/** What was done, e.g. 'course.create', 'enrollment.status', 'user.remove'. */
	action: string
	/** The kind of row it was done to, e.g. 'course'. */
	entity: string
	entityId?: string | number | null
	details?: Record<string, unknown>
}

/** Records an admin mutation; call it in the same transaction as the change. */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry) {
	await db
		.insertInto('audit_log')
		.values({
			actor_id: entry.actorId,
			action: entry.action,
			entity: entry.entity,
			entity_id: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
			details: entry.details ? JSON.stringify(entry.details) : undefined,
		})
		.execute()
}

export async function listAuditEntries(db: Kysely<Database>, { entity, limit = 100 }: { entity?: string; limit?: number } = {}) {
	let query = db
		.selectFrom('audit_log')
		.leftJoin('profiles', 'profiles.id', 'audit_log.actor_id')
		.select([
			'audit_log.id',
			'audit_log.action',
			'audit_log.entity',
			'audit_log.entity_id',
			'audit_log.details',
			'audit_log.created_at',
			'profiles.name as actorName',
		])
		.orderBy('audit_log.created_at', 'desc')
		.orderBy('audit_log.id', 'desc')
		.limit(limit)
	if (entity) query = query.where('audit_log.entity', '=', entity)
	return query.execute()
}

/** The kinds of row the log has entries for, for the filter. */
export async function listAuditEntities(db: Kysely<Database>) {
	const rows = await db.selectFrom('audit_log').select('entity').distinct().orderBy('entity').execute()
	return rows.map((row) => row.entity)
}
