import { type Kysely, sql, type Transaction } from 'kysely'
import { transaction } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import { offeredPlan, type PlanOffer } from './instalment-plans.server.ts'
import { DEFAULT_GRACE_DAYS } from './instalment-plans.ts'
import type { PlanNotice, PlanOfferView } from './plan-purchases.ts'
import { sendInstalmentFailedNotice, sendInstalmentReceipt } from './plan-purchases-emails.server.ts'

/*
 * Plans bought (issue 41, docs/decisions/054 and 059): the checkout opened on a plan records it
 * with its schedule, 'pending'; the first payment, fulfilled by the same `fulfil` as a payment in
 * full, makes it 'active' with its first instalment paid. The rest of the state machine (later
 * instalments paid or failed, the pause) works on these rows.
 */

/** The plan a buyer may choose on the course's pages today, or null: none offered, or none that fits today. */
export async function planOfferForBuyer(db: Kysely<Database>, courseId: number): Promise<PlanOfferView | null> {
	const offer = await offeredPlan(db, courseId)
	return offer ? { totalCents: offer.schedule.totalCents, paidInFullBy: offer.paidInFullBy, payments: offer.schedule.payments } : null
}

/** Records the plan a checkout sells, with its schedule as offered when the checkout opened (a snapshot). */
export async function recordPlanPurchase(
	trx: Transaction<Database>,
	input: { checkoutSessionId: string; provider: 'stripe' | 'test'; userId: string; courseId: number; offer: PlanOffer },
) {
	const purchase = await trx
		.insertInto('plan_purchases')
		.values({
			checkout_session_id: input.checkoutSessionId,
			provider: input.provider,
			user_id: input.userId,
			course_id: input.courseId,
			kind: input.offer.terms.kind,
			total_cents: input.offer.schedule.totalCents,
		})
		.onConflict((conflict) => conflict.column('checkout_session_id').doNothing())
		.returning('id')
		.executeTakeFirst()
	if (!purchase) return
	await trx
		.insertInto('plan_instalments')
		.values(
			input.offer.schedule.payments.map((payment) => ({
				plan_purchase_id: purchase.id,
				sequence: payment.sequence,
				is_deposit: payment.isDeposit,
				label: payment.label,
				due_on: payment.dueOn,
				amount_cents: payment.amountCents,
			})),
		)
		.execute()
}

/**
 * Inside the fulfilment of a paid checkout: the plan it sold, if any, becomes the enrolment's, its
 * first payment paid, and the provider's subscription that collects the rest (Stripe) its own.
 * Runs once, under the payment row's lock that `fulfil` holds.
 */
export async function activatePlanPurchase(
	trx: Transaction<Database>,
	input: { checkoutSessionId: string; enrollmentId: number; paymentIntentId: string | null; subscriptionId: string | null; now: Date },
) {
	const purchase = await trx
		.updateTable('plan_purchases')
		.set({ status: 'active', enrollment_id: input.enrollmentId, provider_subscription_id: input.subscriptionId, updated_at: input.now })
		.where('checkout_session_id', '=', input.checkoutSessionId)
		.where('status', '=', 'pending')
		.returning('id')
		.executeTakeFirst()
	if (!purchase) return
	await trx
		.updateTable('plan_instalments')
		.set({ status: 'paid', paid_at: input.now, payment_intent_id: input.paymentIntentId })
		.where('plan_purchase_id', '=', purchase.id)
		.where('sequence', '=', 1)
		.execute()
}

/** A checkout that will never enrol (expired, or paid for a seat no longer there): its plan is not bought. */
export async function closePendingPlanPurchase(trx: Transaction<Database>, input: { checkoutSessionId: string; now: Date }) {
	await trx
		.updateTable('plan_purchases')
		.set({ status: 'expired', updated_at: input.now })
		.where('checkout_session_id', '=', input.checkoutSessionId)
		.where('status', '=', 'pending')
		.execute()
}

export type PlanScheduleRow = { sequence: number; label: string; dueOn: string; amountCents: number; status: string }

/** The plan a checkout sold, for its checkout page and its receipt: the total and each payment. Null for a payment in full. */
export async function planOfCheckout(db: Kysely<Database>, checkoutSessionId: string) {
	const purchase = await db
		.selectFrom('plan_purchases')
		.select(['id', 'total_cents', 'status'])
		.where('checkout_session_id', '=', checkoutSessionId)
		.executeTakeFirst()
	if (!purchase) return null
	const payments = await db
		.selectFrom('plan_instalments')
		.select(['sequence', 'label', 'due_on as dueOn', 'amount_cents as amountCents', 'status'])
		.where('plan_purchase_id', '=', purchase.id)
		.orderBy('sequence')
		.execute()
	return { totalCents: purchase.total_cents, status: purchase.status, payments: payments satisfies PlanScheduleRow[] }
}

/*
 * The state machine after the purchase (docs/decisions/054): the test checkout's admin buttons, the
 * student's payment after a failure and (next slice) Stripe's webhooks call these, so the e-mail,
 * the pause and the restored access are one code path whoever collects.
 */

/** The plan's row, locked for this transaction: each change of a plan and its instalments takes it first. */
async function lockPlan(trx: Transaction<Database>, planId: number) {
	return trx.selectFrom('plan_purchases').selectAll().where('id', '=', planId).forUpdate().executeTakeFirst()
}

const OPEN_INSTALMENT = ['scheduled', 'failed'] as const

/**
 * After an instalment changed: nothing left to pay completes the plan; nothing failed any more
 * lifts an overdue pause and the past-due state at once. An admin's pause stays.
 */
async function settlePlan(trx: Transaction<Database>, planId: number, now: Date) {
	const plan = await trx.selectFrom('plan_purchases').select(['status', 'pause_reason']).where('id', '=', planId).executeTakeFirstOrThrow()
	const open = await trx
		.selectFrom('plan_instalments')
		.select('status')
		.where('plan_purchase_id', '=', planId)
		.where('status', 'in', OPEN_INSTALMENT)
		.execute()
	if (open.length === 0) {
		// Nothing left to pay: paid in full, unless what was not paid was cancelled (then so is the plan, never paid in full).
		const cancelled = await trx
			.selectFrom('plan_instalments')
			.select('id')
			.where('plan_purchase_id', '=', planId)
			.where('status', '=', 'cancelled')
			.executeTakeFirst()
		await trx
			.updateTable('plan_purchases')
			.set({ status: cancelled ? 'cancelled' : 'completed', failing_since: null, pause_reason: null, updated_at: now })
			.where('id', '=', planId)
			.execute()
		return
	}
	const overdue = open.some((instalment) => instalment.status === 'failed')
	if (!overdue && (plan.status === 'past_due' || (plan.status === 'paused' && plan.pause_reason === 'overdue'))) {
		await trx
			.updateTable('plan_purchases')
			.set({ status: 'active', failing_since: null, pause_reason: null, updated_at: now })
			.where('id', '=', planId)
			.execute()
	}
}

export type InstalmentOutcome = 'recorded' | 'already' | 'not-found'

/**
 * An instalment was paid: it becomes 'paid' once, however often and however concurrently this is
 * called (the plan's row lock, then `WHERE status` on the instalment); the plan completes or gets
 * its access back at once.
 */
export async function recordInstalmentPaid(
	db: Kysely<Database>,
	input: { planId: number; instalmentId: number; paymentIntentId: string | null; providerInvoiceId?: string | null; now?: Date },
): Promise<InstalmentOutcome> {
	const now = input.now ?? new Date()
	return transaction(db, async (trx) => {
		const plan = await lockPlan(trx, input.planId)
		if (!plan || !BOUGHT_STATUSES.includes(plan.status)) return 'not-found'
		const paid = await trx
			.updateTable('plan_instalments')
			.set({ status: 'paid', paid_at: now, payment_intent_id: input.paymentIntentId, provider_invoice_id: input.providerInvoiceId ?? null })
			.where('id', '=', input.instalmentId)
			.where('plan_purchase_id', '=', plan.id)
			.where('status', 'in', OPEN_INSTALMENT)
			.executeTakeFirst()
		if (Number(paid.numUpdatedRows) === 0) return 'already'
		await settlePlan(trx, plan.id, now)
		await sendInstalmentReceipt(trx, { planId: plan.id, instalmentId: input.instalmentId, paymentReference: input.paymentIntentId })
		return 'recorded'
	})
}

/**
 * An instalment's charge failed: it is 'failed', the plan past due from its first failure (the grace
 * period counts from then), and the student is e-mailed once for this instalment, whatever retries follow.
 */
export async function recordInstalmentFailed(
	db: Kysely<Database>,
	input: { planId: number; instalmentId: number; now?: Date },
): Promise<InstalmentOutcome> {
	const now = input.now ?? new Date()
	return transaction(db, async (trx) => {
		const plan = await lockPlan(trx, input.planId)
		if (!plan || !BOUGHT_STATUSES.includes(plan.status)) return 'not-found'
		const failed = await trx
			.updateTable('plan_instalments')
			.set({ status: 'failed', failed_at: now })
			.where('id', '=', input.instalmentId)
			.where('plan_purchase_id', '=', plan.id)
			.where('status', 'in', OPEN_INSTALMENT)
			.executeTakeFirst()
		if (Number(failed.numUpdatedRows) === 0) return 'already'
		if (plan.status === 'active') {
			await trx
				.updateTable('plan_purchases')
				.set({ status: 'past_due', failing_since: plan.failing_since ?? now, updated_at: now })
				.where('id', '=', plan.id)
				.execute()
		}
		const firstNotice = await trx
			.updateTable('plan_instalments')
			.set({ failure_notified_at: now })
			.where('id', '=', input.instalmentId)
			.where('failure_notified_at', 'is', null)
			.returning(['amount_cents', 'label'])
			.executeTakeFirst()
		if (firstNotice)
			await sendInstalmentFailedNotice(trx, { planId: plan.id, amountCents: firstNotice.amount_cents, label: firstNotice.label })
		return 'recorded'
	})
}

/**
 * The provider stopped collecting the plan (Stripe ended its subscription, docs/decisions/062): what
 * nobody will charge any more is cancelled. Paid in full, the plan completes; with nothing owed, it is
 * cancelled; with a failed instalment still owed it stays past due or paused, so ending the collection
 * never lifts a pause nor forgives the debt.
 */
export async function endPlanCollection(db: Kysely<Database>, input: { planId: number; now?: Date }): Promise<InstalmentOutcome> {
	const now = input.now ?? new Date()
	return transaction(db, async (trx) => {
		const plan = await lockPlan(trx, input.planId)
		if (!plan || !BOUGHT_STATUSES.includes(plan.status)) return 'already'
		await trx
			.updateTable('plan_instalments')
			.set({ status: 'cancelled' })
			.where('plan_purchase_id', '=', plan.id)
			.where('status', '=', 'scheduled')
			.execute()
		await settlePlan(trx, plan.id, now)
		return 'recorded'
	})
}

/** The statuses of a plan bought and not ended: its instalments can still be paid or fail. */
const BOUGHT_STATUSES: readonly string[] = ['active', 'past_due', 'paused']

/**
 * The pause job: plans past due for longer than their course's grace days (7 when the course's plan
 * row is gone) pause, with the reason 'overdue'. One UPDATE: run by several processes at once, each
 * plan pauses once (the second waits for the first's row lock and finds it paused). `now` is the
 * clock, passed in by tests.
 */
export async function pauseOverduePlans(db: Kysely<Database>, now = new Date()) {
	const paused = await sql<{ id: number; course_id: number; user_id: string | null }>`
		UPDATE plan_purchases AS plan SET status = 'paused', pause_reason = 'overdue', updated_at = ${now}
		WHERE plan.status = 'past_due'
			AND plan.failing_since + make_interval(days => COALESCE(
				(SELECT grace_days FROM course_payment_plans WHERE course_id = plan.course_id), ${DEFAULT_GRACE_DAYS}
			)) <= ${now}
		RETURNING plan.id, plan.course_id, plan.user_id`.execute(db)
	return paused.rows
}

/** The next instalment to charge: the earliest not paid, failed ones first in line. Null when none is left. */
export async function nextInstalmentOf(db: Kysely<Database>, planId: number) {
	return db
		.selectFrom('plan_instalments')
		.select(['id', 'sequence', 'label', 'due_on as dueOn', 'amount_cents as amountCents', 'status'])
		.where('plan_purchase_id', '=', planId)
		.where('status', 'in', OPEN_INSTALMENT)
		.orderBy('sequence')
		.limit(1)
		.executeTakeFirst()
}

/** The student's plans in trouble, for the dashboard's banner: past due (access pauses on a day) or paused. */
export async function planNoticesOf(db: Kysely<Database>, userId: string): Promise<PlanNotice[]> {
	const rows = await db
		.selectFrom('plan_purchases as plan')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.leftJoin('course_payment_plans as terms', 'terms.course_id', 'plan.course_id')
		.select((eb) => [
			'plan.id',
			'plan.course_id',
			'courses.title',
			'plan.status',
			'plan.pause_reason',
			'plan.failing_since',
			'terms.grace_days',
			eb
				.selectFrom('plan_instalments')
				.select((sub) => sub.fn.coalesce(sub.fn.sum<string>('amount_cents'), sub.lit(0)).as('overdue'))
				.whereRef('plan_instalments.plan_purchase_id', '=', 'plan.id')
				.where('plan_instalments.status', '=', 'failed')
				.as('overdue'),
		])
		.where('plan.user_id', '=', userId)
		.where('plan.status', 'in', ['past_due', 'paused'])
		.orderBy('plan.id')
		.execute()
	return rows.map((row) => {
		const failingSince = row.failing_since ?? new Date()
		const graceDays = row.grace_days ?? DEFAULT_GRACE_DAYS
		return {
			planId: row.id,
			courseId: row.course_id,
			courseTitle: row.title,
			status: row.status === 'paused' ? 'paused' : 'past_due',
			pauseReason: row.pause_reason,
			failingSince: failingSince.toISOString(),
			pausesOn: new Date(failingSince.getTime() + graceDays * 86_400_000).toISOString(),
			overdueCents: Number(row.overdue ?? 0),
		}
	})
}

/** A student's own plan, for paying what failed: null unless it is theirs. */
export async function ownPlan(db: Kysely<Database>, { planId, userId }: { planId: number; userId: string }) {
	const plan = await db
		.selectFrom('plan_purchases as plan')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.select([
			'plan.id',
			'plan.status',
			'plan.pause_reason',
			'plan.provider',
			'plan.provider_subscription_id',
			'plan.total_cents',
			'courses.title',
			'courses.id as courseId',
		])
		.where('plan.id', '=', planId)
		.where('plan.user_id', '=', userId)
		.where('plan.status', 'in', ['active', 'past_due', 'paused', 'completed'])
		.executeTakeFirst()
	if (!plan) return null
	const payments = await db
		.selectFrom('plan_instalments')
		.select(['id', 'sequence', 'label', 'due_on as dueOn', 'amount_cents as amountCents', 'status'])
		.where('plan_purchase_id', '=', planId)
		.orderBy('sequence')
		.execute()
	return { ...plan, payments }
}

/**
 * The student pays what failed (test mode: the card typed on the update-card page): each failed
 * instalment is paid, and the plan's access comes back at once. Returns how many were paid.
 */
export async function payFailedInstalments(db: Kysely<Database>, { planId, now = new Date() }: { planId: number; now?: Date }) {
	const failed = await db
		.selectFrom('plan_instalments')
		.select('id')
		.where('plan_purchase_id', '=', planId)
		.where('status', '=', 'failed')
		.orderBy('sequence')
		.execute()
	let paid = 0
	for (const instalment of failed) {
		const outcome = await recordInstalmentPaid(db, {
			planId,
			instalmentId: instalment.id,
			paymentIntentId: `pi_test_plan_${instalment.id}`,
			now,
		})
		if (outcome === 'recorded') paid += 1
	}
	return paid
}
