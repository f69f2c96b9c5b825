import type { Kysely } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { PaymentProvider } from '#app/services/payments/payments.ts'
import type { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database, PlanInstalmentStatus } from '#db/types.ts'
import { endPlan, type PlanChangeOutcome } from './plan-endings.server.ts'
import {
	chargeInstalmentByTestCard,
	type InstalmentOutcome,
	markInstalmentPaidOutside,
	pausePlan,
	recordInstalmentFailed,
	resumePlan,
} from './plan-purchases.server.ts'
import type { CoursePlanRow, PlanAdminIntent } from './plan-purchases.ts'
import { followPlanNow } from './plan-subscriptions.server.ts'
import { getRefundablePayment, type RefundOutcome, type RefundRequest, refundPayment } from './refunds.server.ts'

/*
 * The admin's list of a course's plans bought (docs/decisions/054, 059, 063): paid k of n, the next
 * payment due, failing since; cancel the rest, mark an instalment paid outside, pause and resume,
 * refund the plan; and in test mode "charge the next instalment now — succeed / fail".
 */

const OPEN: readonly PlanInstalmentStatus[] = ['scheduled', 'failed']

/** The course's plans bought (not those whose checkout never completed), newest first. Null without the course. */
export async function listCoursePlans(db: Kysely<Database>, courseId: number) {
	const course = await db.selectFrom('courses').select(['id', 'title']).where('id', '=', courseId).executeTakeFirst()
	if (!course) return null
	const plans = await db
		.selectFrom('plan_purchases as plan')
		.leftJoin('users', 'users.id', 'plan.user_id')
		.leftJoin('profiles', 'profiles.id', 'plan.user_id')
		.select([
			'plan.id',
			'plan.provider',
			'plan.status',
			'plan.pause_reason',
			'plan.total_cents',
			'plan.failing_since',
			'users.email',
			'profiles.name',
		])
		.where('plan.course_id', '=', courseId)
		.where('plan.status', 'not in', ['pending', 'expired'])
		.orderBy('plan.id', 'desc')
		.execute()
	const planIds = plans.map((plan) => plan.id)
	const [instalments, refundable] = await Promise.all([
		planIds.length === 0
			? []
			: db
					.selectFrom('plan_instalments')
					.select(['id', 'plan_purchase_id', 'sequence', 'label', 'due_on as dueOn', 'amount_cents as amountCents', 'status'])
					.where('plan_purchase_id', 'in', planIds)
					.orderBy('sequence')
					.execute(),
		planIds.length === 0 ? [] : planPayments(db, planIds),
	])
	const rows: CoursePlanRow[] = plans.map((plan) => {
		const own = instalments.filter((instalment) => instalment.plan_purchase_id === plan.id).map(({ plan_purchase_id, ...rest }) => rest)
		return {
			id: plan.id,
			studentName: plan.name,
			studentEmail: plan.email,
			provider: plan.provider,
			status: plan.status,
			pauseReason: plan.pause_reason,
			totalCents: plan.total_cents,
			paidCount: own.filter((instalment) => instalment.status === 'paid' || instalment.status === 'paid_outside').length,
			paymentCount: own.length,
			failingSince: plan.failing_since,
			// Failed ones first in line, then the earliest scheduled.
			next: own.find((instalment) => instalment.status === 'failed') ?? own.find((instalment) => instalment.status === 'scheduled') ?? null,
			instalments: own,
			refundableCents: refundable
				.filter((payment) => payment.planId === plan.id && payment.status === 'paid')
				.reduce((sum, payment) => sum + payment.amountCents - payment.refundedCents, 0),
		}
	})
	return { course, plans: rows }
}

/** Every payment of the plans (the checkout's and each later instalment's), newest instalment first. */
function planPayments(db: Kysely<Database>, planIds: number[]) {
	return db
		.selectFrom('registration_payments as payment')
		.leftJoin('plan_instalments as instalment', 'instalment.id', 'payment.plan_instalment_id')
		.innerJoin('plan_purchases as plan', (join) =>
			join.on((eb) =>
				eb.or([
					eb('plan.checkout_session_id', '=', eb.ref('payment.checkout_session_id')),
					eb('plan.id', '=', eb.ref('instalment.plan_purchase_id')),
				]),
			),
		)
		.select([
			'payment.id',
			'plan.id as planId',
			'payment.status',
			'payment.amount_cents as amountCents',
			'payment.refunded_cents as refundedCents',
			'instalment.sequence',
		])
		.where('plan.id', 'in', planIds)
		.orderBy('instalment.sequence', (order) => order.desc().nullsLast())
		.execute()
}

/** A plan of this course, or null: every admin action finds the plan within the course of its URL. */
async function planOfCourse(db: Kysely<Database>, courseId: number, planId: number) {
	return db
		.selectFrom('plan_purchases')
		.select(['id', 'provider', 'status', 'enrollment_id', 'user_id', 'provider_subscription_id'])
		.where('id', '=', planId)
		.where('course_id', '=', courseId)
		.executeTakeFirst()
}

/**
 * Test mode's "charge the next instalment now": the instalment the admin's page showed as next is
 * charged with the chosen outcome through the same functions a provider's events call. Only a
 * test-checkout plan of this course; the instalment must still be open (a second click is 'already').
 */
export async function chargeInstalmentNow(
	db: Kysely<Database>,
	payments: TestCheckoutPayments,
	input: { adminId: string; courseId: number; planId: number; instalmentId: number; outcome: 'succeed' | 'fail' },
): Promise<InstalmentOutcome> {
	const plan = await planOfCourse(db, input.courseId, input.planId)
	if (plan?.provider !== 'test') return 'not-found'
	const outcome =
		input.outcome === 'succeed'
			? await chargeInstalmentByTestCard(db, payments, { planId: plan.id, instalmentId: input.instalmentId })
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

/** 'changed-provider-retrying': changed here, but Stripe did not answer; the plan's follow-up job retries until it follows. */
export type PlanAdminOutcome = PlanChangeOutcome | 'changed-provider-retrying'

/**
 * The admin's changes of a plan on its page (docs/decisions/063): cancel the rest (the student stays
 * enrolled), mark an instalment paid outside, pause, resume. Each changes once under a double
 * submit, and only that one change is audited. On a plan Stripe collects, the change is made here
 * first and committed, then Stripe is asked to follow (cancel the subscription, pause or resume its
 * collection); marking paid outside is refused there, since Stripe would still charge the instalment.
 */
export async function changePlan(
	db: Kysely<Database>,
	payments: PaymentProvider,
	input: { adminId: string; courseId: number; planId: number; intent: PlanAdminIntent; instalmentId?: number; now?: Date },
): Promise<PlanAdminOutcome> {
	const now = input.now ?? new Date()
	const plan = await planOfCourse(db, input.courseId, input.planId)
	if (!plan) return 'not-found'
	let outcome: PlanChangeOutcome
	switch (input.intent) {
		case 'cancel-rest':
			outcome = await transaction(db, (trx) => endPlan(trx, { planId: plan.id, now }))
			break
		case 'paid-outside':
			if (input.instalmentId === undefined) return 'not-found'
			outcome = await markInstalmentPaidOutside(db, { planId: plan.id, instalmentId: input.instalmentId, now })
			break
		case 'pause':
			outcome = await pausePlan(db, { planId: plan.id, now })
			break
		case 'resume':
			outcome = await resumePlan(db, { planId: plan.id, now })
			break
	}
	if (outcome === 'changed') {
		await recordAudit(db, {
			actorId: input.adminId,
			action: PLAN_AUDIT_ACTIONS[input.intent],
			entity: 'plan_purchase',
			entityId: plan.id,
			details: input.instalmentId === undefined ? { enrollmentId: plan.enrollment_id } : { instalmentId: input.instalmentId },
		})
	}
	if (outcome !== 'changed') return outcome
	const followed = await followPlanNow(db, payments, { id: plan.id, providerSubscriptionId: plan.provider_subscription_id })
	return followed === 'retrying' ? 'changed-provider-retrying' : 'changed'
}

const PLAN_AUDIT_ACTIONS: Record<PlanAdminIntent, string> = {
	'cancel-rest': 'payment_plan.cancel_rest',
	'paid-outside': 'payment_plan.paid_outside',
	pause: 'payment_plan.pause',
	resume: 'payment_plan.resume',
}

/** What the plan's refund dialog shows: the student, the course, what was paid through the provider, refunded and left. */
export async function planRefundSummary(db: Kysely<Database>, input: { courseId: number; planId: number }) {
	const plan = await db
		.selectFrom('plan_purchases as plan')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.leftJoin('users', 'users.id', 'plan.user_id')
		.leftJoin('profiles', 'profiles.id', 'plan.user_id')
		.leftJoin('enrollments', 'enrollments.id', 'plan.enrollment_id')
		.select(['plan.id', 'plan.status', 'courses.title', 'users.email', 'profiles.name', 'enrollments.status as enrollmentStatus'])
		.where('plan.id', '=', input.planId)
		.where('plan.course_id', '=', input.courseId)
		.where('plan.status', 'not in', ['pending', 'expired'])
		.executeTakeFirst()
	if (!plan) return null
	const payments = await Promise.all((await planPayments(db, [plan.id])).map((payment) => getRefundablePayment(db, payment.id)))
	const paid = payments.filter((payment) => payment !== null)
	const open = await db
		.selectFrom('plan_instalments')
		.select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.coalesce(eb.fn.sum<string>('amount_cents'), eb.lit(0)).as('cents')])
		.where('plan_purchase_id', '=', plan.id)
		.where('status', 'in', OPEN)
		.executeTakeFirstOrThrow()
	return {
		id: plan.id,
		status: plan.status,
		courseTitle: plan.title,
		customerEmail: plan.email ?? paid[0]?.customerEmail ?? '',
		studentName: plan.name,
		amountCents: paid.reduce((sum, payment) => sum + payment.amountCents, 0),
		refundedCents: paid.reduce((sum, payment) => sum + payment.refundedCents, 0),
		pendingCents: paid.reduce((sum, payment) => sum + payment.pendingCents, 0),
		leftCents: paid.filter((payment) => payment.refundable).reduce((sum, payment) => sum + payment.leftCents, 0),
		activeEnrollment: plan.enrollmentStatus !== null && plan.enrollmentStatus !== 'inactive',
		refunds: paid.flatMap((payment) => payment.refunds),
		openInstalments: Number(open.count),
		openCents: Number(open.cents),
	}
}

/** A refund of a payment's request, asked of a whole plan. */
export type PlanRefundRequest = Omit<RefundRequest, 'paymentId' | 'requestKey'> & {
	courseId: number
	planId: number
	/** The form's one-time key: each payment's part of this refund is keyed from it. */
	requestKey: string
}

export type PlanRefundOutcome =
	/** `providerRetrying`: the plan's subscription was not cancelled at Stripe yet; its follow-up job retries. */
	| { kind: 'refunded'; amountCents: number; enrollmentEnded: boolean; pending: boolean; providerRetrying: boolean }
	| { kind: 'refused'; message: string; refundedCents: number }
	| { kind: 'too-much'; leftCents: number }
	| { kind: 'not-found' }

/**
 * Refunds a plan in one action (docs/decisions/063): what is still to pay is cancelled first (so
 * nothing more is charged), then the amount is taken back from the plan's payments, newest first and
 * the checkout's last, each part through decision 036's `refundPayment` (set aside under the
 * payment's lock, the provider asked with an idempotency key, the student e-mailed, audited). The
 * enrolment ends, freeing the seat, when everything paid goes back or the admin chose so.
 *
 * The split is the same however often the form is sent: each part is keyed by the form's key and the
 * payment, and what an earlier send of this same form set aside counts as still there when splitting,
 * so a double submit asks for the same parts again and gets the refunds made the first time.
 */
export async function refundPlan(db: Kysely<Database>, payments: PaymentProvider, request: PlanRefundRequest): Promise<PlanRefundOutcome> {
	const plan = await planOfCourse(db, request.courseId, request.planId)
	if (!plan || plan.status === 'pending' || plan.status === 'expired') return { kind: 'not-found' }
	const parts = await refundParts(db, plan.id, request.requestKey)
	const leftCents = parts.reduce((sum, part) => sum + part.leftCents, 0)
	if (request.amountCents <= 0 || request.amountCents > leftCents) return { kind: 'too-much', leftCents }
	const cancelled = await transaction(db, (trx) => endPlan(trx, { planId: plan.id, now: new Date() }))
	// Stripe stops billing before any money goes back; a send that found the plan ended already leaves that to the first one and the job.
	const followed =
		cancelled === 'changed'
			? await followPlanNow(db, payments, { id: plan.id, providerSubscriptionId: plan.provider_subscription_id })
			: null
	let remaining = request.amountCents
	const chosen: Array<{ paymentId: number; amountCents: number }> = []
	for (const part of parts) {
		if (remaining === 0) break
		const amountCents = Math.min(part.leftCents, remaining)
		if (amountCents > 0) chosen.push({ paymentId: part.paymentId, amountCents })
		remaining -= amountCents
	}
	const unenroll = request.unenroll || request.amountCents === leftCents
	let refundedCents = 0
	let pending = false
	let enrollmentEnded = false
	for (const [index, part] of chosen.entries()) {
		const outcome: RefundOutcome = await refundPayment(db, payments, {
			paymentId: part.paymentId,
			actorId: request.actorId,
			amountCents: part.amountCents,
			reason: request.reason,
			note: request.note,
			// The last part ends the enrolment, so its e-mail is the one that says so.
			unenroll: unenroll && index === chosen.length - 1,
			requestKey: `${request.requestKey}-${part.paymentId}`,
		})
		if (outcome.kind === 'refunded') {
			refundedCents += outcome.amountCents
			enrollmentEnded ||= outcome.enrollmentEnded
		} else if (outcome.kind === 'pending') pending = true
		else
			return { kind: 'refused', message: outcome.kind === 'refused' ? outcome.message : 'This payment cannot be refunded.', refundedCents }
	}
	// Once per plan refund: only the send that cancelled the rest writes it (each payment's refund has its own entry).
	if (cancelled === 'changed') {
		await recordAudit(db, {
			actorId: request.actorId,
			action: 'payment_plan.refund',
			entity: 'plan_purchase',
			entityId: plan.id,
			details: { amountCents: request.amountCents, refundedCents, restCancelled: cancelled === 'changed', enrollmentEnded, pending },
		})
	}
	return { kind: 'refunded', amountCents: request.amountCents, enrollmentEnded, pending, providerRetrying: followed === 'retrying' }
}

/**
 * Each payment of the plan with what is left to refund of it, in the order a plan refund takes them;
 * refunds of this same form (keyed from `requestKey`) that were not refused count as not made yet.
 */
async function refundParts(db: Kysely<Database>, planId: number, requestKey: string) {
	const payments = await planPayments(db, [planId])
	const parts: Array<{ paymentId: number; leftCents: number }> = []
	for (const payment of payments) {
		if (payment.status !== 'paid' && payment.status !== 'refunded') continue
		const refunds = await db
			.selectFrom('payment_refunds')
			.select(['amount_cents', 'status', 'request_key'])
			.where('payment_id', '=', payment.id)
			.where('status', '<>', 'failed')
			.execute()
		const own = `${requestKey}-${payment.id}`
		// Succeeded refunds are in refunded_cents, pending ones are not yet: this form's own count as not made.
		const succeededOwn = refunds
			.filter((refund) => refund.request_key === own && refund.status === 'succeeded')
			.reduce((sum, refund) => sum + refund.amount_cents, 0)
		const pendingOthers = refunds
			.filter((refund) => refund.request_key !== own && refund.status === 'pending')
			.reduce((sum, refund) => sum + refund.amount_cents, 0)
		parts.push({
			paymentId: payment.id,
			leftCents: Math.max(0, payment.amountCents - payment.refundedCents + succeededOwn - pendingOthers),
		})
	}
	return parts
}
