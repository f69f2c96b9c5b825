import type { Kysely } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { Database } from '#db/types.ts'
import { type InstalmentOutcome, nextInstalmentOf, recordInstalmentFailed, recordInstalmentPaid } from './plan-purchases.server.ts'

/*
 * The admin's list of a course's plans bought (docs/decisions/054, 059): paid k of n, the next
 * payment due, failing since; and in test mode "charge the next instalment now — succeed / fail".
 */

export type CoursePlanRow = {
	id: number
	studentName: string | null
	studentEmail: string | null
	provider: 'stripe' | 'test'
	status: string
	pauseReason: string | null
	totalCents: number
	paidCount: number
	paymentCount: number
	failingSince: Date | null
	next: { id: number; label: string; dueOn: string; amountCents: number; status: string } | null
}

/** The course's plans bought (not those whose checkout never completed), newest first. Null without the course. */
export async function listCoursePlans(db: Kysely<Database>, courseId: number) {
	const course = await db.selectFrom('courses').select(['id', 'title']).where('id', '=', courseId).executeTakeFirst()
	if (!course) return null
	const plans = await db
		.selectFrom('plan_purchases as plan')
		.leftJoin('users', 'users.id', 'plan.user_id')
		.leftJoin('profiles', 'profiles.id', 'plan.user_id')
		.select((eb) => [
			'plan.id',
			'plan.provider',
			'plan.status',
			'plan.pause_reason',
			'plan.total_cents',
			'plan.failing_since',
			'users.email',
			'profiles.name',
			eb
				.selectFrom('plan_instalments')
				.select((sub) => sub.fn.countAll<number>().as('n'))
				.whereRef('plan_instalments.plan_purchase_id', '=', 'plan.id')
				.where('plan_instalments.status', 'in', ['paid', 'paid_outside'])
				.as('paidCount'),
			eb
				.selectFrom('plan_instalments')
				.select((sub) => sub.fn.countAll<number>().as('n'))
				.whereRef('plan_instalments.plan_purchase_id', '=', 'plan.id')
				.as('paymentCount'),
		])
		.where('plan.course_id', '=', courseId)
		.where('plan.status', 'not in', ['pending', 'expired'])
		.orderBy('plan.id', 'desc')
		.execute()
	const rows: CoursePlanRow[] = []
	for (const plan of plans) {
		rows.push({
			id: plan.id,
			studentName: plan.name,
			studentEmail: plan.email,
			provider: plan.provider,
			status: plan.status,
			pauseReason: plan.pause_reason,
			totalCents: plan.total_cents,
			paidCount: Number(plan.paidCount ?? 0),
			paymentCount: Number(plan.paymentCount ?? 0),
			failingSince: plan.failing_since,
			next: (await nextInstalmentOf(db, plan.id)) ?? null,
		})
	}
	return { course, plans: rows }
}

/**
 * Test mode's "charge the next instalment now": the instalment the admin's page showed as next is
 * charged with the chosen outcome through the same functions a provider's events call. Only a
 * test-checkout plan of this course; the instalment must still be open (a second click is 'already').
 */
export async function chargeInstalmentNow(
	db: Kysely<Database>,
	input: { adminId: string; courseId: number; planId: number; instalmentId: number; outcome: 'succeed' | 'fail' },
): Promise<InstalmentOutcome> {
	const plan = await db
		.selectFrom('plan_purchases')
		.select('id')
		.where('id', '=', input.planId)
		.where('course_id', '=', input.courseId)
		.where('provider', '=', 'test')
		.executeTakeFirst()
	if (!plan) return 'not-found'
	const outcome =
		input.outcome === 'succeed'
			? await recordInstalmentPaid(db, {
					planId: plan.id,
					instalmentId: input.instalmentId,
					paymentIntentId: `pi_test_plan_${input.instalmentId}`,
				})
			: await recordInstalmentFailed(db, { planId: plan.id, instalmentId: input.instalmentId })
	if (outcome === 'recorded') {
		await recordAudit(db, {
			actorId: input.adminId,
			action: input.outcome === 'succeed' ? 'payment_plan.charge_succeeded' : 'payment_plan.charge_failed',
			entity: 'plan_purchase',
			entityId: plan.id,
			details: { instalmentId: input.instalmentId },
		})
	}
	return outcome
}
