import type { ExpressionBuilder, Kysely } from 'kysely'
import { href } from 'react-router'
import type { Database } from '#db/types.ts'
import { planDiscountView } from './plan-purchases.ts'
import type { ChargeKind, StudentCharge, StudentPayments, StudentPlan, StudentReceipt } from './student-payments.ts'

/*
 * The student's own payments (issue 41 point 5, docs/decisions/064): every charge, with its receipt,
 * and each plan with what is left. Every query is scoped to the student: another person's id is
 * simply not found.
 *
 * Two sources, one list. A checkout's payment is a `registration_payments` row; so is each later
 * instalment charged (`plan_instalment_id`, decision 063). An instalment the admin marked paid
 * outside has no payment row: it is listed from `plan_instalments`. An instalment is listed from
 * there only when no `registration_payments` row of the student is its payment (or, for the first
 * payment, the plan's own checkout), so each charge is listed once.
 */

const CHARGED_PAYMENT = ['paid', 'refunded', 'needs_refund'] as const
const CHARGED_INSTALMENT = ['paid', 'paid_outside'] as const
const BOUGHT_PLAN = ['active', 'past_due', 'paused', 'completed', 'cancelled'] as const

type InstalmentScope = ExpressionBuilder<
	Database & { instalment: Database['plan_instalments']; plan: Database['plan_purchases'] },
	'instalment' | 'plan'
>

/**
 * The one rule pairing a payment row with the instalment it pays: the instalment it names, or, for
 * the first instalment, the plan's own checkout.
 */
function paysInstalment(
	eb: ExpressionBuilder<
		Database & { payment: Database['registration_payments']; instalment: Database['plan_instalments']; plan: Database['plan_purchases'] },
		'payment' | 'instalment' | 'plan'
	>,
) {
	return eb.or([
		eb('payment.plan_instalment_id', '=', eb.ref('instalment.id')),
		eb.and([eb('instalment.sequence', '=', 1), eb('payment.checkout_session_id', '=', eb.ref('plan.checkout_session_id'))]),
	])
}

/** The instalment's charge has a `registration_payments` row of the student's: it is listed from there. */
function hasPaymentRow(eb: InstalmentScope, userId: string) {
	return eb.exists(
		eb.selectFrom('registration_payments as payment').select('payment.id').where('payment.user_id', '=', userId).where(paysInstalment),
	)
}

async function paymentCharges(db: Kysely<Database>, userId: string, paymentId?: number) {
	let query = db
		.selectFrom('registration_payments as payment')
		.select((eb) => [
			'payment.id',
			'payment.course_title',
			'payment.amount_cents',
			'payment.currency',
			'payment.status',
			'payment.fulfilled_at',
			'payment.created_at',
			'payment.refunded_cents',
			'payment.promotion_code',
			'payment.discount_cents',
			'payment.customer_email',
			'payment.checkout_session_id',
			'payment.payment_intent_id',
			// The plan payment this charge is, matched by the same key the instalment list leaves out.
			eb
				.selectFrom('plan_instalments as instalment')
				.innerJoin('plan_purchases as plan', 'plan.id', 'instalment.plan_purchase_id')
				.select('instalment.label')
				.where('plan.user_id', '=', userId)
				.where(paysInstalment)
				.limit(1)
				.as('instalment_label'),
		])
		.where('payment.user_id', '=', userId)
		.where('payment.status', 'in', CHARGED_PAYMENT)
	if (paymentId !== undefined) query = query.where('payment.id', '=', paymentId)
	const rows = await query.execute()
	return rows.map((row) => ({
		charge: {
			kind: 'payment',
			id: row.id,
			paidAt: (row.fulfilled_at ?? row.created_at).toISOString(),
			courseTitle: row.course_title,
			description: row.instalment_label ? `Payment plan: ${row.instalment_label}` : 'Paid in full',
			amountCents: row.amount_cents,
			currency: row.currency,
			discount: row.promotion_code && row.discount_cents > 0 ? { code: row.promotion_code, amountOffCents: row.discount_cents } : null,
			refundedCents: row.refunded_cents,
			toBeRefunded: row.status === 'needs_refund',
			paidOutside: false,
		} satisfies StudentCharge,
		paidBy: row.customer_email,
		// An instalment's payment has no checkout of its own: the provider's charge is its reference.
		reference: row.checkout_session_id ?? row.payment_intent_id,
	}))
}

async function instalmentCharges(db: Kysely<Database>, userId: string, instalmentId?: number) {
	let query = db
		.selectFrom('plan_instalments as instalment')
		.innerJoin('plan_purchases as plan', 'plan.id', 'instalment.plan_purchase_id')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.innerJoin('users', 'users.id', 'plan.user_id')
		.select([
			'instalment.id',
			'instalment.label',
			'instalment.amount_cents',
			'instalment.status',
			'instalment.paid_at',
			'instalment.payment_intent_id',
			'instalment.provider_invoice_id',
			'courses.title',
			'users.email',
		])
		.where('plan.user_id', '=', userId)
		.where('instalment.status', 'in', CHARGED_INSTALMENT)
		.where((eb) => eb.not(hasPaymentRow(eb, userId)))
	if (instalmentId !== undefined) query = query.where('instalment.id', '=', instalmentId)
	const rows = await query.execute()
	return rows.map((row) => ({
		charge: {
			kind: 'instalment',
			id: row.id,
			paidAt: (row.paid_at ?? new Date(0)).toISOString(),
			courseTitle: row.title,
			description: `Payment plan: ${row.label}`,
			amountCents: row.amount_cents,
			currency: 'usd',
			discount: null,
			refundedCents: 0,
			toBeRefunded: false,
			paidOutside: row.status === 'paid_outside',
		} satisfies StudentCharge,
		paidBy: row.email,
		reference: row.provider_invoice_id ?? row.payment_intent_id,
	}))
}

async function studentPlans(db: Kysely<Database>, userId: string): Promise<StudentPlan[]> {
	const plans = await db
		.selectFrom('plan_purchases as plan')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.select(['plan.id', 'plan.status', 'plan.provider', 'plan.total_cents', 'plan.promotion_code', 'plan.discount_cents', 'courses.title'])
		.where('plan.user_id', '=', userId)
		.where('plan.status', 'in', BOUGHT_PLAN)
		.orderBy('plan.id', 'desc')
		.execute()
	if (plans.length === 0) return []
	const instalments = await db
		.selectFrom('plan_instalments')
		.select(['plan_purchase_id', 'label', 'due_on', 'amount_cents', 'status'])
		.where(
			'plan_purchase_id',
			'in',
			plans.map((plan) => plan.id),
		)
		.orderBy('sequence')
		.execute()
	return plans.map((plan) => {
		const own = instalments.filter((instalment) => instalment.plan_purchase_id === plan.id)
		const paid = own.filter((instalment) => instalment.status === 'paid' || instalment.status === 'paid_outside')
		const open = own.filter((instalment) => instalment.status === 'scheduled' || instalment.status === 'failed')
		const next = open.find((instalment) => instalment.status === 'failed') ?? open[0]
		const failed = open.some((instalment) => instalment.status === 'failed')
		return {
			id: plan.id,
			courseTitle: plan.title,
			status: plan.status,
			totalCents: plan.total_cents,
			paidCents: paid.reduce((sum, instalment) => sum + instalment.amount_cents, 0),
			remainingCents: open.reduce((sum, instalment) => sum + instalment.amount_cents, 0),
			paidCount: paid.length,
			count: own.length,
			discount: planDiscountView(plan),
			next: next ? { label: next.label, dueOn: next.due_on, amountCents: next.amount_cents, failed: next.status === 'failed' } : null,
			// The test checkout's update-card page; a Stripe plan's card is updated in Stripe's customer portal once that path lands.
			updateCardPath: failed && plan.provider === 'test' ? href('/dashboard/plans/:planId/pay', { planId: String(plan.id) }) : null,
		}
	})
}

/** The student's Payments section: every charge, newest first, and every plan bought with what is left. */
export async function studentPayments(db: Kysely<Database>, userId: string): Promise<StudentPayments> {
	const [payments, instalments, plans] = await Promise.all([
		paymentCharges(db, userId),
		instalmentCharges(db, userId),
		studentPlans(db, userId),
	])
	const charges = [...payments, ...instalments]
		.map((row) => row.charge)
		.sort((one, other) => other.paidAt.localeCompare(one.paidAt) || other.id - one.id)
	return { charges, plans }
}

/** One of the student's own charges as a receipt; null for anything not theirs or not a charge. */
export async function studentReceipt(
	db: Kysely<Database>,
	{ userId, kind, id }: { userId: string; kind: ChargeKind; id: number },
): Promise<StudentReceipt | null> {
	const [row] = kind === 'payment' ? await paymentCharges(db, userId, id) : await instalmentCharges(db, userId, id)
	if (!row) return null
	const { charge, paidBy, reference } = row
	return { ...charge, paidBy, reference, priceCents: charge.discount ? charge.amountCents + charge.discount.amountOffCents : null }
}
