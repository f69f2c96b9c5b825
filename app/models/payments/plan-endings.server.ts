import type { Transaction } from 'kysely'
import { addJob } from '#app/services/jobs/queue.server.ts'
import type { Database } from '#db/types.ts'

/*
 * A plan's lock and its end (docs/decisions/063), apart from the rest of the plan's state machine so
 * that ending an enrolment (models/enrollment) can end its plan without loading the plan's e-mails.
 */

/** The plan's row, locked for this transaction: each change of a plan and its instalments takes it first. */
export async function lockPlan(trx: Transaction<Database>, planId: number) {
	return trx.selectFrom('plan_purchases').selectAll().where('id', '=', planId).forUpdate().executeTakeFirst()
}

export const OPEN_INSTALMENT = ['scheduled', 'failed'] as const

/** The statuses of a plan bought and not ended: its instalments can still be paid or fail. */
export const BOUGHT_STATUSES: readonly string[] = ['active', 'past_due', 'paused']

/** 'collected-by-provider': the change is one the provider's own collection rules out (paid outside on a Stripe plan). */
export type PlanChangeOutcome = 'changed' | 'already' | 'not-found' | 'collected-by-provider'

/** The job that makes the provider follow a plan the app changed: cancel, pause or resume its subscription. */
export const FOLLOW_PLAN_AT_PROVIDER_TASK = 'follow-plan-at-provider'

/**
 * Queued in the transaction that ended, paused or resumed a plan a provider collects (Stripe), so it
 * exists if and only if the change commits; the provider is never called inside the transaction.
 * The admin's request asks the provider at once after the commit; this job, a minute later and retried
 * with backoff until the provider answers, makes sure the provider follows the plan's state as it is
 * then (a crash, an unreachable provider, the enrolment's own refund, which has no request to wait on).
 */
export async function queueProviderFollowUp(trx: Transaction<Database>, plan: { id: number; provider_subscription_id: string | null }) {
	if (!plan.provider_subscription_id) return
	await addJob(
		trx,
		FOLLOW_PLAN_AT_PROVIDER_TASK,
		{ planId: plan.id },
		{ jobKey: `${FOLLOW_PLAN_AT_PROVIDER_TASK}:${plan.id}`, runAt: new Date(Date.now() + 60_000) },
	)
}

/**
 * Ends a plan bought: what is still to pay (scheduled or failed) is cancelled, and the plan is
 * 'cancelled' (or 'completed' when nothing was left). The enrolment is not touched: the admin's
 * "cancel the rest" keeps the student, a refund or the provider ending the subscription decides
 * that themselves.
 */
export async function endPlan(trx: Transaction<Database>, input: { planId: number; now: Date }): Promise<PlanChangeOutcome> {
	const plan = await lockPlan(trx, input.planId)
	if (!plan) return 'not-found'
	if (!BOUGHT_STATUSES.includes(plan.status)) return 'already'
	const cancelled = await trx
		.updateTable('plan_instalments')
		.set({ status: 'cancelled' })
		.where('plan_purchase_id', '=', plan.id)
		.where('status', 'in', OPEN_INSTALMENT)
		.executeTakeFirst()
	await trx
		.updateTable('plan_purchases')
		.set({
			status: Number(cancelled.numUpdatedRows) > 0 ? 'cancelled' : 'completed',
			failing_since: null,
			pause_reason: null,
			updated_at: input.now,
		})
		.where('id', '=', plan.id)
		.execute()
	await queueProviderFollowUp(trx, plan)
	return 'changed'
}

/** The plan of an enrolment that ends (a refund), if it is still running: what is left is cancelled. */
export async function endPlanOfEnrollment(trx: Transaction<Database>, input: { enrollmentId: number; now: Date }) {
	const plan = await trx.selectFrom('plan_purchases').select('id').where('enrollment_id', '=', input.enrollmentId).executeTakeFirst()
	if (plan) await endPlan(trx, { planId: plan.id, now: input.now })
}
