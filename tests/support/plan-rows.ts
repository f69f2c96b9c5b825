/**
 * What the payment-plan tests read back after an action: the plan's row, its instalments and its audit trail (the
 * mail its buyer was sent: outbox.ts).
 */
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

export function planRow(db: Kysely<Database>, planId: number) {
	return db.selectFrom('plan_purchases').selectAll().where('id', '=', planId).executeTakeFirstOrThrow()
}

/** A plan's instalments, in their order. */
export function planInstalments(db: Kysely<Database>, planId: number) {
	return db.selectFrom('plan_instalments').selectAll().where('plan_purchase_id', '=', planId).orderBy('sequence').execute()
}

/** The audit entries of a plan, oldest first. */
export function planAudits(db: Kysely<Database>, planId: number) {
	return db
		.selectFrom('audit_log')
		.select('action')
		.where('entity', '=', 'plan_purchase')
		.where('entity_id', '=', String(planId))
		.orderBy('id')
		.execute()
}
