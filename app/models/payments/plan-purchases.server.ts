import { type Kysely, sql, type Transaction, type Updateable } from 'kysely'
import type { PaymentProvider } from '#app/services/payments/payments.ts'
import type { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database, PlanInstalmentsTable } from '#db/types.ts'
import { offeredPlan, offerWithCode, type PlanOffer } from './instalment-plans.server.ts'
import { DEFAULT_GRACE_DAYS } from './instalment-plans.ts'
import { BOUGHT_STATUSES, lockPlan, OPEN_INSTALMENT, type PlanChangeOutcome, queueProviderFollowUp } from './plan-endings.server.ts'
import { type PlanNotice, type PlanOfferView, planDiscountView } from './plan-purchases.ts'
import { sendInstalmentFailedNotice, sendInstalmentReceipt } from './plan-purchases-emails.server.ts'
import type { Discount } from './promotion-codes.ts'

/*
 * Plans bought (issue 41, docs/decisions/054 and 059): the checkout opened on a plan records it
 * with its schedule, 'pending'; the first payment, fulfilled by the same `fulfil` as a payment in
 * full, makes it 'active' with its first instalment paid. The rest of the state machine (later
 * instalments paid or failed, the pause) works on these rows.
 */

/** The plan a buyer may choose on the course's pages today, or null: none offered, or none that fits today. */
export async function planOfferForBuyer(db: Kysely<Database>, courseId: number): Promise<PlanOfferView | null> {
	const offer = await offeredPlan(db, courseId)
	return offer ? offerView(offer) : null
}

function offerView(offer: PlanOffer): PlanOfferView {
	return {
		totalCents: offer.schedule.totalCents,
		paidInFullBy: offer.paidInFullBy,
		payments: offer.schedule.payments,
		discount: offer.discount,
	}
}

/**
 * The plan on offer with a promotion code, for the purchase form's Apply (docs/decisions/064): null
 * when no plan is on offer, 'too-small' when the code leaves an instalment below the minimum charge.
 */
export async function planOfferWithCode(
	db: Kysely<Database>,
	payments: PaymentProvider,
	input: { courseId: number; code: { code: string; discount: Discount } },
): Promise<PlanOfferView | 'too-small' | null> {
	if (payments.name !== 'test') return null
	const offer = await offeredPlan(db, input.courseId)
	if (!offer) return null
	const discounted = offerWithCode(offer, input.code)
	return discounted ? offerView(discounted) : 'too-small'
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
			promotion_code: input.offer.discount?.code ?? null,
			discount_cents: input.offer.discount?.discountCents ?? 0,
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
 * first payment paid. Runs once, under the payment row's lock that `fulfil` holds. Returns the
 * plan's price before a promotion code and what the code took off it, which the code's use records.
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
		.returning(['id', 'total_cents', 'discount_cents'])
		.executeTakeFirst()
	if (!purchase) return null
	await trx
		.updateTable('plan_instalments')
		.set({ status: 'paid', paid_at: input.now, payment_intent_id: input.paymentIntentId })
		.where('plan_purchase_id', '=', purchase.id)
		.where('sequence', '=', 1)
		.execute()
	return { priceCents: purchase.total_cents + purchase.discount_cents, discountCents: purchase.discount_cents }
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

/** A plan's payments in order, as its pages list them (PlanScheduleRow). */
function planSchedule(db: Kysely<Database>, planId: number) {
	return db
		.selectFrom('plan_instalments')
		.select(['sequence', 'label', 'due_on as dueOn', 'amount_cents as amountCents', 'status'])
		.where('plan_purchase_id', '=', planId)
		.orderBy('sequence')
}

/** The plan a checkout sold, for its checkout page and its receipt: the total, a code's discount and each payment. Null for a payment in full. */
export async function planOfCheckout(db: Kysely<Database>, checkoutSessionId: string) {
	const purchase = await db
		.selectFrom('plan_purchases')
		.select(['id', 'total_cents', 'status', 'promotion_code', 'discount_cents'])
		.where('checkout_session_id', '=', checkoutSessionId)
		.executeTakeFirst()
	if (!purchase) return null
	const payments = await planSchedule(db, purchase.id).execute()
	return {
		totalCents: purchase.total_cents,
		status: purchase.status,
		discount: planDiscountView(purchase),
		payments: payments satisfies PlanScheduleRow[],
	}
}

/*
 * The state machine after the purchase (docs/decisions/054): the test checkout's admin buttons, the
 * student's payment after a failure and (next slice) Stripe's webhooks call these, so the e-mail,
 * the pause and the restored access are one code path whoever collects.
 */

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

/**
 * A change of a bought plan: in one transaction, under the plan's row lock; `missing` is the answer
 * when there is no such plan or it is no longer bought.
 */
async function changeBoughtPlan<Outcome>(
	db: Kysely<Database>,
	planId: number,
	missing: Outcome,
	change: (trx: Transaction<Database>, plan: NonNullable<Awaited<ReturnType<typeof lockPlan>>>) => Promise<Outcome>,
): Promise<Outcome> {
	return transaction(db, async (trx) => {
		const plan = await lockPlan(trx, planId)
		if (!plan || !BOUGHT_STATUSES.includes(plan.status)) return missing
		return change(trx, plan)
	})
}

/**
 * Moves an instalment of the plan on from open (scheduled or failed), with its amount; undefined when
 * it is not open any more (another call moved it first) or not the plan's.
 */
function moveOpenInstalment(trx: Transaction<Database>, planId: number, instalmentId: number, change: Updateable<PlanInstalmentsTable>) {
	return trx
		.updateTable('plan_instalments')
		.set(change)
		.where('id', '=', instalmentId)
		.where('plan_purchase_id', '=', planId)
		.where('status', 'in', OPEN_INSTALMENT)
		.returning('amount_cents')
		.executeTakeFirst()
}

export type InstalmentOutcome = 'recorded' | 'already' | 'not-found'

/**
 * An instalment was paid: it becomes 'paid' once, however often and however concurrently this is
 * called (the plan's row lock, then `WHERE status` on the instalment); the plan completes or gets
 * its access back at once. The charge becomes a payment of its own (`registration_payments`, naming
 * the instalment), so it has a receipt, e-mailed in the same transaction, and is refunded through
 * decision 036's path. Stripe's `invoice.paid` and the test checkout's charges both end here.
 */
export async function recordInstalmentPaid(
	db: Kysely<Database>,
	input: { planId: number; instalmentId: number; paymentIntentId: string | null; providerInvoiceId?: string | null; now?: Date },
): Promise<InstalmentOutcome> {
	const now = input.now ?? new Date()
	return changeBoughtPlan(db, input.planId, 'not-found', async (trx, plan) => {
		const paid = await moveOpenInstalment(trx, plan.id, input.instalmentId, {
			status: 'paid',
			paid_at: now,
			payment_intent_id: input.paymentIntentId,
			provider_invoice_id: input.providerInvoiceId ?? null,
		})
		if (!paid) return 'already'
		await settlePlan(trx, plan.id, now)
		const buyer = await trx
			.selectFrom('courses')
			.leftJoin('users', (join) => join.on('users.id', '=', plan.user_id))
			.leftJoin('registration_payments as first', (join) => join.on('first.checkout_session_id', '=', plan.checkout_session_id))
			.select(['courses.title', 'users.email', 'first.customer_email as firstEmail'])
			.where('courses.id', '=', plan.course_id)
			.executeTakeFirstOrThrow()
		const customerEmail = buyer.email ?? buyer.firstEmail ?? ''
		await trx
			.insertInto('registration_payments')
			.values({
				checkout_session_id: null,
				plan_instalment_id: input.instalmentId,
				provider: plan.provider,
				user_id: plan.user_id,
				course_id: plan.course_id,
				course_title: buyer.title,
				customer_email: customerEmail,
				amount_cents: paid.amount_cents,
				status: 'paid',
				payment_intent_id: input.paymentIntentId,
				fulfilled_at: now,
				updated_at: now,
			})
			.execute()
		if (customerEmail) {
			await sendInstalmentReceipt(trx, {
				planId: plan.id,
				instalmentId: input.instalmentId,
				to: customerEmail,
				paidAt: now,
				paymentReference: input.paymentIntentId,
			})
		}
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
	return changeBoughtPlan(db, input.planId, 'not-found', async (trx, plan) => {
		if (!(await moveOpenInstalment(trx, plan.id, input.instalmentId, { status: 'failed', failed_at: now }))) return 'already'
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
	return changeBoughtPlan<InstalmentOutcome>(db, input.planId, 'already', async (trx, plan) => {
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
	const payments = await planSchedule(db, planId).select('id').execute()
	return { ...plan, payments }
}

/**
 * The test checkout charges an instalment on the card saved at checkout (docs/decisions/063): a
 * paid charge at the test provider, keyed by the instalment so that a repeated or concurrent charge
 * is one charge, then `recordInstalmentPaid`. An instalment no longer open is not charged.
 */
export async function chargeInstalmentByTestCard(
	db: Kysely<Database>,
	payments: TestCheckoutPayments,
	input: { planId: number; instalmentId: number; now?: Date },
): Promise<InstalmentOutcome> {
	const instalment = await db
		.selectFrom('plan_instalments')
		.innerJoin('plan_purchases as plan', 'plan.id', 'plan_instalments.plan_purchase_id')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.leftJoin('users', 'users.id', 'plan.user_id')
		.select([
			'plan_instalments.status',
			'plan_instalments.amount_cents',
			'plan_instalments.label',
			'plan.status as planStatus',
			'courses.title',
			'users.email',
		])
		.where('plan_instalments.id', '=', input.instalmentId)
		.where('plan.id', '=', input.planId)
		.where('plan.provider', '=', 'test')
		.executeTakeFirst()
	if (!instalment || !BOUGHT_STATUSES.includes(instalment.planStatus)) return 'not-found'
	if (!(OPEN_INSTALMENT as readonly string[]).includes(instalment.status)) return 'already'
	const charge = await payments.chargeSavedCard({
		amountCents: instalment.amount_cents,
		description: `${instalment.title} — payment plan, ${instalment.label.toLowerCase()}`,
		customerEmail: instalment.email ?? '',
		idempotencyKey: `plan-instalment-${input.instalmentId}`,
	})
	return recordInstalmentPaid(db, { planId: input.planId, instalmentId: input.instalmentId, paymentIntentId: charge.id, now: input.now })
}

/**
 * The student pays what failed (test mode: the card typed on the update-card page): each failed
 * instalment is charged, and the plan's access comes back at once. Returns how many were paid.
 */
export async function payFailedInstalments(
	db: Kysely<Database>,
	payments: TestCheckoutPayments,
	{ planId, now = new Date() }: { planId: number; now?: Date },
) {
	const failed = await db
		.selectFrom('plan_instalments')
		.select('id')
		.where('plan_purchase_id', '=', planId)
		.where('status', '=', 'failed')
		.orderBy('sequence')
		.execute()
	let paid = 0
	for (const instalment of failed) {
		if ((await chargeInstalmentByTestCard(db, payments, { planId, instalmentId: instalment.id, now })) === 'recorded') paid += 1
	}
	return paid
}

/**
 * The test checkout's charging job (docs/decisions/063): every scheduled instalment due by `now`'s
 * day in its course's time zone is charged on the saved card, which succeeds (test mode has no real
 * card; the admin's "charge now — fail" shows a failure). Plans the admin paused and enrolments
 * ended are not charged. Run by several processes at once, each instalment is charged and recorded
 * once (the charge's key, then the plan's row lock). Stripe charges its own plans; `now` is the
 * clock, passed in by tests. Returns how many instalments it recorded paid.
 */
export async function chargeDueInstalments(db: Kysely<Database>, payments: TestCheckoutPayments, now = new Date()) {
	const due = await db
		.selectFrom('plan_instalments')
		.innerJoin('plan_purchases as plan', 'plan.id', 'plan_instalments.plan_purchase_id')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.innerJoin('enrollments', 'enrollments.id', 'plan.enrollment_id')
		.select(['plan_instalments.id', 'plan.id as planId'])
		.where('plan.provider', '=', 'test')
		.where('plan_instalments.status', '=', 'scheduled')
		.where(sql<boolean>`plan_instalments.due_on <= (${now}::timestamptz AT TIME ZONE courses.time_zone)::date`)
		.where((eb) => eb.or([eb('plan.status', 'in', ['active', 'past_due']), eb('plan.pause_reason', '=', 'overdue')]))
		.where('enrollments.status', '<>', 'inactive')
		.orderBy('plan_instalments.due_on')
		.orderBy('plan_instalments.sequence')
		.execute()
	let recorded = 0
	for (const instalment of due) {
		if ((await chargeInstalmentByTestCard(db, payments, { planId: instalment.planId, instalmentId: instalment.id, now })) === 'recorded') {
			recorded += 1
		}
	}
	return recorded
}

/*
 * The admin's changes of a plan (docs/decisions/063), also what a provider's events call: each in
 * one transaction under the plan's row lock, changing only what is still in the state it expects,
 * so a double submit changes once ('already' for the second).
 */

/**
 * An instalment paid outside the app (cash, a bank transfer): 'paid_outside', as a payment counts for
 * the plan (a past-due plan recovers, the last one completes it). No money went through the
 * provider, so there is no payment row and nothing to refund here. Not on a plan Stripe collects:
 * its subscription would still charge that instalment's invoice ('collected-by-provider').
 */
export async function markInstalmentPaidOutside(
	db: Kysely<Database>,
	input: { planId: number; instalmentId: number; now?: Date },
): Promise<PlanChangeOutcome> {
	const now = input.now ?? new Date()
	return changeBoughtPlan(db, input.planId, 'not-found', async (trx, plan) => {
		if (plan.provider_subscription_id) return 'collected-by-provider'
		if (!(await moveOpenInstalment(trx, plan.id, input.instalmentId, { status: 'paid_outside', paid_at: now }))) return 'already'
		await settlePlan(trx, plan.id, now)
		return 'changed'
	})
}

/**
 * The admin pauses a plan: access pauses (as an overdue pause does) and nothing is charged until it
 * is resumed (the test checkout skips it; Stripe's collection is paused after the commit); a payment
 * does not lift it. A plan paused for being overdue becomes the admin's pause.
 */
export async function pausePlan(db: Kysely<Database>, input: { planId: number; now?: Date }): Promise<PlanChangeOutcome> {
	const now = input.now ?? new Date()
	return changeBoughtPlan(db, input.planId, 'not-found', async (trx, plan) => {
		if (plan.pause_reason === 'admin') return 'already'
		await trx
			.updateTable('plan_purchases')
			.set({ status: 'paused', pause_reason: 'admin', updated_at: now })
			.where('id', '=', plan.id)
			.execute()
		await queueProviderFollowUp(trx, plan)
		return 'changed'
	})
}

/**
 * The admin resumes a plan they paused: with a failed instalment it is past due again, its grace
 * period counted afresh from now (so the student is not paused again at once); otherwise active.
 */
export async function resumePlan(db: Kysely<Database>, input: { planId: number; now?: Date }): Promise<PlanChangeOutcome> {
	const now = input.now ?? new Date()
	return changeBoughtPlan(db, input.planId, 'not-found', async (trx, plan) => {
		if (plan.pause_reason !== 'admin') return 'already'
		const failed = await trx
			.selectFrom('plan_instalments')
			.select('id')
			.where('plan_purchase_id', '=', plan.id)
			.where('status', '=', 'failed')
			.executeTakeFirst()
		await trx
			.updateTable('plan_purchases')
			.set({ status: failed ? 'past_due' : 'active', pause_reason: null, failing_since: failed ? now : null, updated_at: now })
			.where('id', '=', plan.id)
			.execute()
		await queueProviderFollowUp(trx, plan)
		return 'changed'
	})
}
