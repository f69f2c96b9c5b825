import type { Kysely, Transaction } from 'kysely'
import type { PaymentProvider } from '#app/services/payments/payments.ts'
import type { Database } from '#db/types.ts'
import { offeredPlan, type PlanOffer } from './instalment-plans.server.ts'
import type { PlanOfferView } from './plan-purchases.ts'

/*
 * Plans bought (issue 41, docs/decisions/054 and 059): the checkout opened on a plan records it
 * with its schedule, 'pending'; the first payment, fulfilled by the same `fulfil` as a payment in
 * full, makes it 'active' with its first instalment paid. The rest of the state machine (later
 * instalments paid or failed, the pause) works on these rows.
 */

/**
 * The plan a buyer may choose on the course's pages today, or null: none offered, none that fits
 * today, or a provider that cannot collect plans yet (Stripe's path is the next slice, docs/decisions/059).
 */
export async function planOfferForBuyer(db: Kysely<Database>, payments: PaymentProvider, courseId: number): Promise<PlanOfferView | null> {
	if (payments.name !== 'test') return null
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
 * first payment paid. Runs once, under the payment row's lock that `fulfil` holds.
 */
export async function activatePlanPurchase(
	trx: Transaction<Database>,
	input: { checkoutSessionId: string; enrollmentId: number; paymentIntentId: string | null; now: Date },
) {
	const purchase = await trx
		.updateTable('plan_purchases')
		.set({ status: 'active', enrollment_id: input.enrollmentId, updated_at: input.now })
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
