/**
 * What the payment-plan tests read back after an action: the plan's row, its audit trail, and the
 * mail its buyer was sent.
 */
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

export function planRow(db: Kysely<Database>, planId: number) {
	return db.selectFrom('plan_purchases').selectAll().where('id', '=', planId).executeTakeFirstOrThrow()
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

/** The mail queued for an address whose subject starts with `subjectStart`, oldest first. */
export function mailsStartingWith(db: Kysely<Database>, address: string, subjectStart: string) {
	return db
		.selectFrom('email_outbox')
		.select(['subject', 'text_body'])
		.where('to_address', '=', address)
		.where('subject', 'like', `${subjectStart}%`)
		.orderBy('id')
		.execute()
}
