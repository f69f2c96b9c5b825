import type { Kysely } from 'kysely'
import type { PaymentProvider } from '#app/services/payments/payments.ts'
import type { Database } from '#db/types.ts'
import { dayInZone } from './instalment-plans.ts'
import { endPlanCollection, type InstalmentOutcome, recordInstalmentFailed, recordInstalmentPaid } from './plan-purchases.server.ts'

/*
 * Plans Stripe collects (docs/decisions/054, 062): after the checkout, the subscription is put on its
 * schedule; its invoices and its end drive the same state machine as the test checkout's charges.
 * Each event is idempotent, and one for a subscription no plan has is logged and changes nothing.
 */

/** A plan's state machine after an event: 'unknown' when no plan has the event's subscription. */
export type PlanEventOutcome = InstalmentOutcome | 'unknown'

const COLLECTED = ['active', 'past_due', 'paused'] as const

/**
 * After a plan's checkout was fulfilled: its subscription bills exactly the later instalments bought
 * (the snapshot's amounts) and then ends. A plan paid for a seat no longer there (it never became
 * the enrolment's; the payment waits for its refund) must not be billed again: its subscription is
 * cancelled. Nothing for a payment in full or a provider that collects no plans.
 */
export async function collectPlanOfCheckout(db: Kysely<Database>, payments: PaymentProvider, checkoutSessionId: string) {
	if (!payments.plans) return
	const plan = await db
		.selectFrom('plan_purchases')
		.select(['id', 'status', 'provider_subscription_id'])
		.where('checkout_session_id', '=', checkoutSessionId)
		.where('provider', '=', payments.name)
		.executeTakeFirst()
	if (plan?.status === 'expired') {
		const subscriptionId = (await payments.retrieveCheckoutSession(checkoutSessionId))?.subscriptionId
		if (subscriptionId) await payments.plans.cancelSubscription(subscriptionId)
		return
	}
	if (!plan?.provider_subscription_id || !COLLECTED.some((status) => status === plan.status)) return
	const later = await db
		.selectFrom('plan_instalments')
		.select('amount_cents')
		.where('plan_purchase_id', '=', plan.id)
		.where('sequence', '>', 1)
		.orderBy('sequence')
		.execute()
	await payments.plans.schedulePlan({
		planPurchaseId: plan.id,
		subscriptionId: plan.provider_subscription_id,
		laterPayments: later.map((instalment) => instalment.amount_cents),
	})
}

async function planOfSubscription(db: Kysely<Database>, subscriptionId: string, eventType: string) {
	const plan = await db
		.selectFrom('plan_purchases')
		.innerJoin('courses', 'courses.id', 'plan_purchases.course_id')
		.select(['plan_purchases.id', 'courses.time_zone'])
		.where('plan_purchases.provider', '=', 'stripe')
		.where('plan_purchases.provider_subscription_id', '=', subscriptionId)
		.executeTakeFirst()
	if (!plan) console.warn(`[payments] ${eventType} for subscription ${subscriptionId}, which no plan has: ignored`)
	return plan ?? null
}

/** Whole days between two 'YYYY-MM-DD' days, either way round. */
function daysApart(one: string, other: string) {
	return Math.abs(Date.parse(one) - Date.parse(other)) / 86_400_000
}

/**
 * An invoice of a plan's subscription was paid or could not be charged. The invoice is the
 * instalment it was recorded against before, else the instalment whose due day is nearest the day
 * the invoice bills (in the course's time zone) among those no other invoice paid: a month apart,
 * a day's difference between Stripe's clock and the course's zone never picks the wrong one. The
 * first invoice is the checkout's payment, already paid by the fulfilment: it is only linked.
 */
export async function recordPlanInvoice(
	db: Kysely<Database>,
	payments: PaymentProvider,
	event: { type: 'invoice.paid' | 'invoice.payment_failed'; invoiceId: string; subscriptionId: string; billedAt: Date },
): Promise<PlanEventOutcome> {
	const plan = await planOfSubscription(db, event.subscriptionId, event.type)
	if (!plan) return 'unknown'
	const instalments = await db
		.selectFrom('plan_instalments')
		.select(['id', 'due_on', 'status', 'provider_invoice_id'])
		.where('plan_purchase_id', '=', plan.id)
		.orderBy('sequence')
		.execute()
	const billedOn = dayInZone(event.billedAt, plan.time_zone)
	const instalment =
		instalments.find((candidate) => candidate.provider_invoice_id === event.invoiceId) ??
		instalments
			.filter((candidate) => candidate.provider_invoice_id === null)
			.sort((one, other) => daysApart(one.due_on, billedOn) - daysApart(other.due_on, billedOn))[0]
	if (!instalment) {
		console.warn(`[payments] ${event.type} ${event.invoiceId} matches no instalment of plan ${plan.id}: ignored`)
		return 'already'
	}
	if (event.type === 'invoice.payment_failed') return recordInstalmentFailed(db, { planId: plan.id, instalmentId: instalment.id })
	if (instalment.status === 'paid' || instalment.status === 'paid_outside') {
		if (instalment.status === 'paid_outside' && instalment.provider_invoice_id === null) {
			console.warn(`[payments] ${event.invoiceId} paid an instalment of plan ${plan.id} already paid outside Stripe: refund one of them`)
		}
		await db
			.updateTable('plan_instalments')
			.set({ provider_invoice_id: event.invoiceId })
			.where('id', '=', instalment.id)
			.where('provider_invoice_id', 'is', null)
			.execute()
		return 'already'
	}
	const paymentIntentId = (await payments.plans?.paymentIntentOfInvoice(event.invoiceId)) ?? null
	return recordInstalmentPaid(db, { planId: plan.id, instalmentId: instalment.id, paymentIntentId, providerInvoiceId: event.invoiceId })
}

/**
 * A plan's subscription changed at Stripe. Its invoices drive the plan; only its end matters here
 * (cancelled at the schedule's end, from Stripe's dashboard, or by Stripe after failed retries).
 */
export async function recordPlanSubscriptionChange(
	db: Kysely<Database>,
	event: { eventType: string; subscriptionId: string; ended: boolean },
): Promise<PlanEventOutcome> {
	const plan = await planOfSubscription(db, event.subscriptionId, event.eventType)
	if (!plan) return 'unknown'
	if (!event.ended) return 'already'
	return endPlanCollection(db, { planId: plan.id })
}

/** Plans no longer collected: their subscription must bill nothing more. */
const ENDED: readonly string[] = ['cancelled', 'completed', 'expired']

/**
 * Makes the provider follow a plan as the app now has it, after the admin (or a refund) changed it:
 * a plan ended has its subscription cancelled, one the admin paused has its collection paused, any
 * other running plan collects (a pause lifted, the drafts of the pause charged). Reading the plan's
 * state rather than the change asked makes the call idempotent and order-free: a repeat, the
 * follow-up job after the admin's own request, or a pause and a resume racing end where the plan is.
 * Throws when the provider does not answer; nothing for a plan the provider does not collect.
 */
export async function followPlanAtProvider(db: Kysely<Database>, payments: PaymentProvider, planId: number) {
	const plan = await db
		.selectFrom('plan_purchases')
		.select(['status', 'pause_reason', 'provider', 'provider_subscription_id'])
		.where('id', '=', planId)
		.executeTakeFirst()
	if (!payments.plans || !plan?.provider_subscription_id || plan.provider !== payments.name || plan.status === 'pending') return
	if (ENDED.includes(plan.status)) await payments.plans.cancelSubscription(plan.provider_subscription_id)
	else if (plan.pause_reason === 'admin') await payments.plans.pauseCollection(plan.provider_subscription_id)
	else await payments.plans.resumeCollection(plan.provider_subscription_id)
}

/**
 * The admin's request asks the provider right after its change committed: 'done' when the provider
 * follows the plan now, 'retrying' when it did not answer (the change stands; the follow-up job queued
 * with it retries), null for a plan no provider collects.
 */
export async function followPlanNow(
	db: Kysely<Database>,
	payments: PaymentProvider,
	plan: { id: number; providerSubscriptionId: string | null },
): Promise<'done' | 'retrying' | null> {
	if (!plan.providerSubscriptionId) return null
	try {
		await followPlanAtProvider(db, payments, plan.id)
		return 'done'
	} catch (error) {
		console.error(
			`[payments] the provider did not follow plan ${plan.id}; its follow-up job retries:`,
			error instanceof Error ? error.message : error,
		)
		return 'retrying'
	}
}
