import type { Kysely, Selectable, Transaction } from 'kysely'
import { REFUNDED_REASON } from '#app/models/enrollment/certificates.ts'
import { revokeEnrollmentCertificate } from '#app/models/enrollment/certificates-admin.server.ts'
import { changeEnrollmentStatus } from '#app/models/enrollment/seats.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { publishEvent } from '#app/services/events/publish.server.ts'
import { type PaymentProvider, type ProviderRefund, RefundRefusedError } from '#app/services/payments/payments.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database, PaymentRefundsTable, PaymentStatus, RefundReason } from '#db/types.ts'
import { endPlanOfEnrollment } from './plan-endings.server.ts'
import { sendRefundNotice } from './refund-emails.server.ts'

/** Payments money can go back on: enrolled ones, and those taken for a seat that could not be given. */
const REFUNDABLE_STATUSES: PaymentStatus[] = ['paid', 'needs_refund']

export type RefundablePayment = NonNullable<Awaited<ReturnType<typeof getRefundablePayment>>>

/** A payment as the refund dialog shows it: amounts, its enrolment, its refunds. Null when missing. */
export async function getRefundablePayment(db: Kysely<Database>, paymentId: number) {
	const payment = await db
		.selectFrom('registration_payments as payment')
		.leftJoin('enrollments', 'enrollments.id', 'payment.enrollment_id')
		.leftJoin('profiles', 'profiles.id', 'payment.user_id')
		.select([
			'payment.id',
			'payment.status',
			'payment.provider',
			'payment.customer_email as customerEmail',
			'payment.course_title as courseTitle',
			'payment.amount_cents as amountCents',
			'payment.refunded_cents as refundedCents',
			'payment.currency',
			'payment.checkout_session_id as checkoutSessionId',
			'enrollments.id as enrollmentId',
			'enrollments.status as enrollmentStatus',
			'profiles.name as studentName',
		])
		.where('payment.id', '=', paymentId)
		.executeTakeFirst()
	if (!payment) return null
	const refunds = await db
		.selectFrom('payment_refunds')
		.leftJoin('profiles', 'profiles.id', 'payment_refunds.actor_id')
		.select([
			'payment_refunds.id',
			'payment_refunds.amount_cents as amountCents',
			'payment_refunds.status',
			'payment_refunds.source',
			'payment_refunds.note',
			'payment_refunds.created_at as createdAt',
			'profiles.name as actorName',
		])
		.where('payment_refunds.payment_id', '=', paymentId)
		.orderBy('payment_refunds.id')
		.execute()
	const pendingCents = refunds.filter((refund) => refund.status === 'pending').reduce((sum, refund) => sum + refund.amountCents, 0)
	return {
		...payment,
		refundable: REFUNDABLE_STATUSES.includes(payment.status),
		pendingCents,
		leftCents: Math.max(0, payment.amountCents - payment.refundedCents - pendingCents),
		refunds: refunds.map((refund) => ({ ...refund, createdAt: refund.createdAt.toISOString() })),
	}
}

export type RefundRequest = {
	paymentId: number
	actorId: string
	amountCents: number
	reason: RefundReason
	note: string
	/** After a partial refund, end the enrolment too (a full refund always does). */
	unenroll: boolean
	/** The form's one-time key: the same key is the same refund, however often it is sent. */
	requestKey: string
}

export type RefundOutcome =
	| { kind: 'refunded'; amountCents: number; fullyRefunded: boolean; enrollmentEnded: boolean }
	/** The provider's answer was lost: the amount stays set aside until the provider reports the refund. */
	| { kind: 'pending' }
	| { kind: 'refused'; message: string }
	| { kind: 'too-much'; leftCents: number }
	| { kind: 'not-refundable' }
	| { kind: 'not-found' }

/**
 * Refunds part or all of a payment (docs/decisions/036). The amount is first set aside under the
 * payment's row lock, so that parallel requests can never together ask for more than was paid;
 * then the provider is asked, with an idempotency key per refund; then the answer is recorded
 * (see settleRefund). A refused refund frees the amount again.
 */
export async function refundPayment(db: Kysely<Database>, payments: PaymentProvider, request: RefundRequest): Promise<RefundOutcome> {
	const reserved = await reserveRefund(db, request)
	if (reserved.kind !== 'reserved') return reserved
	const { refund, payment } = reserved
	let paymentIntentId = payment.payment_intent_id
	if (!paymentIntentId && payment.provider === payments.name && payment.checkout_session_id) {
		paymentIntentId = (await payments.retrieveCheckoutSession(payment.checkout_session_id))?.paymentIntentId ?? null
	}
	if (!paymentIntentId || payment.provider !== payments.name) {
		return failRefund(db, refund.id, 'The payment provider has no payment to refund for this checkout.')
	}
	let answer: ProviderRefund
	try {
		answer = await payments.createRefund({
			paymentIntentId,
			amountCents: refund.amount_cents,
			reason: refund.reason,
			metadata: { refundId: String(refund.id), paymentId: String(payment.id) },
			idempotencyKey: `payment-${payment.id}-refund-${refund.id}`,
		})
	} catch (error) {
		if (error instanceof RefundRefusedError) return failRefund(db, refund.id, error.message)
		console.error('[refunds] the provider did not answer a refund request:', error instanceof Error ? error.message : error)
		// Whether the refund happened is unknown: the provider's own list says.
		const found = await payments
			.listRefunds(paymentIntentId)
			.then((refunds) => refunds.find((candidate) => candidate.metadata.refundId === String(refund.id)) ?? 'none')
			.catch(() => null)
		if (found === null) return { kind: 'pending' }
		if (found === 'none') return failRefund(db, refund.id, 'The payment provider could not be reached.')
		answer = found
	}
	return transaction(db, async (trx) => {
		const settled = await settleRefund(trx, refund.id, answer, paymentIntentId)
		if (settled.kind === 'failed') return { kind: 'refused', message: settled.message } as const
		return {
			kind: 'refunded',
			amountCents: refund.amount_cents,
			fullyRefunded: settled.fullyRefunded,
			enrollmentEnded: settled.enrollmentEnded,
		} as const
	})
}

type PaymentRow = Selectable<Database['registration_payments']>
type RefundRow = Selectable<PaymentRefundsTable>

async function lockPaymentRow(trx: Transaction<Database>, paymentId: number) {
	return trx.selectFrom('registration_payments').selectAll().where('id', '=', paymentId).forUpdate().executeTakeFirst()
}

async function reserveRefund(
	db: Kysely<Database>,
	request: RefundRequest,
): Promise<RefundOutcome | { kind: 'reserved'; refund: RefundRow; payment: PaymentRow }> {
	return transaction(db, async (trx) => {
		const payment = await lockPaymentRow(trx, request.paymentId)
		if (!payment) return { kind: 'not-found' } as const
		const repeated = await trx.selectFrom('payment_refunds').selectAll().where('request_key', '=', request.requestKey).executeTakeFirst()
		if (repeated) return outcomeOfRecorded(repeated, payment)
		if (!REFUNDABLE_STATUSES.includes(payment.status)) return { kind: 'not-refundable' } as const
		const { pending } = await trx
			.selectFrom('payment_refunds')
			.select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_cents'), eb.lit(0)).as('pending'))
			.where('payment_id', '=', payment.id)
			.where('status', '=', 'pending')
			.executeTakeFirstOrThrow()
		const leftCents = payment.amount_cents - payment.refunded_cents - Number(pending)
		if (request.amountCents <= 0 || request.amountCents > leftCents) return { kind: 'too-much', leftCents: Math.max(0, leftCents) } as const
		const refund = await trx
			.insertInto('payment_refunds')
			.values({
				payment_id: payment.id,
				amount_cents: request.amountCents,
				reason: request.reason,
				note: request.note,
				source: 'admin',
				unenroll: request.unenroll,
				request_key: request.requestKey,
				actor_id: request.actorId,
			})
			.returningAll()
			.executeTakeFirstOrThrow()
		return { kind: 'reserved', refund, payment } as const
	})
}

/** What a form sent again learns about the refund it already made. */
function outcomeOfRecorded(refund: RefundRow, payment: PaymentRow): RefundOutcome {
	if (refund.payment_id !== payment.id) return { kind: 'not-found' }
	if (refund.status === 'pending') return { kind: 'pending' }
	if (refund.status === 'failed') return { kind: 'refused', message: refund.failure_message ?? 'The refund failed.' }
	return {
		kind: 'refunded',
		amountCents: refund.amount_cents,
		fullyRefunded: payment.refunded_cents >= payment.amount_cents,
		enrollmentEnded: false,
	}
}

async function failRefund(db: Kysely<Database>, refundId: number, message: string): Promise<RefundOutcome> {
	await transaction(db, async (trx) => {
		const refund = await trx
			.updateTable('payment_refunds')
			.set({ status: 'failed', failure_message: message, updated_at: new Date() })
			.where('id', '=', refundId)
			.where('status', '=', 'pending')
			.returningAll()
			.executeTakeFirst()
		if (!refund) return
		await recordAudit(trx, {
			actorId: refund.actor_id,
			action: 'payment.refund-failed',
			entity: 'payment',
			entityId: refund.payment_id,
			details: { refundId: refund.id, amountCents: refund.amount_cents, message },
		})
	})
	return { kind: 'refused', message }
}

type Settled = { kind: 'succeeded'; fullyRefunded: boolean; enrollmentEnded: boolean } | { kind: 'failed'; message: string }

/**
 * Records the provider's answer about one refund row, once: the payment's refunded amount and
 * state, the enrolment made inactive through changeEnrollmentStatus (so its seat frees) when the
 * payment is refunded in full or the admin chose so, the audit entry and the student's e-mail.
 * Runs under the payment's row lock; a row already settled is left as it is.
 */
async function settleRefund(
	trx: Transaction<Database>,
	refundId: number,
	answer: ProviderRefund,
	paymentIntentId: string | null,
): Promise<Settled> {
	const head = await trx.selectFrom('payment_refunds').select('payment_id').where('id', '=', refundId).executeTakeFirstOrThrow()
	const payment = (await lockPaymentRow(trx, head.payment_id))!
	const refund = await trx.selectFrom('payment_refunds').selectAll().where('id', '=', refundId).executeTakeFirstOrThrow()
	if (refund.status === 'succeeded') {
		return { kind: 'succeeded', fullyRefunded: payment.refunded_cents >= payment.amount_cents, enrollmentEnded: false }
	}
	const now = new Date()
	if (answer.status === 'failed') {
		const message = 'The payment provider could not return the money.'
		await trx
			.updateTable('payment_refunds')
			.set({ status: 'failed', provider_refund_id: answer.id, failure_message: message, updated_at: now })
			.where('id', '=', refund.id)
			.execute()
		return { kind: 'failed', message }
	}
	const refundedCents = payment.refunded_cents + refund.amount_cents
	const fullyRefunded = refundedCents >= payment.amount_cents
	await trx
		.updateTable('registration_payments')
		.set({
			refunded_cents: refundedCents,
			status: fullyRefunded ? 'refunded' : payment.status,
			payment_intent_id: payment.payment_intent_id ?? paymentIntentId,
			updated_at: now,
		})
		.where('id', '=', payment.id)
		.execute()
	await trx
		.updateTable('payment_refunds')
		.set({ status: 'succeeded', provider_refund_id: answer.id, updated_at: now })
		.where('id', '=', refund.id)
		.execute()
	// The checkout's payment names its enrolment, and refunded in full ends it; an instalment's payment reaches it through its plan.
	const enrollmentId = payment.enrollment_id ?? (refund.unenroll ? await enrollmentOfInstalment(trx, payment.plan_instalment_id) : null)
	const enrollmentEnded =
		enrollmentId !== null &&
		((payment.enrollment_id !== null && fullyRefunded) || refund.unenroll) &&
		(await endEnrollment(trx, enrollmentId, refund.actor_id, now))
	await recordAudit(trx, {
		actorId: refund.actor_id,
		action: 'payment.refund',
		entity: 'payment',
		entityId: payment.id,
		details: {
			refundId: refund.id,
			providerRefundId: answer.id,
			source: refund.source,
			amountCents: refund.amount_cents,
			refundedCents,
			paidCents: payment.amount_cents,
			reason: refund.reason,
			note: refund.note,
			customerEmail: payment.customer_email,
			courseTitle: payment.course_title,
			enrollmentId,
			enrollmentEnded,
		},
	})
	await sendRefundNotice(trx, {
		to: payment.customer_email,
		userId: payment.user_id,
		courseTitle: payment.course_title,
		currency: payment.currency,
		amountRefundedCents: refund.amount_cents,
		totalRefundedCents: refundedCents,
		amountPaidCents: payment.amount_cents,
		note: refund.note,
		refundReference: answer.id,
		enrollmentEnded,
	})
	return { kind: 'succeeded', fullyRefunded, enrollmentEnded }
}

/** The enrolment a plan's instalment pays for, through its plan; null for none. */
async function enrollmentOfInstalment(trx: Transaction<Database>, instalmentId: number | null) {
	if (instalmentId === null) return null
	const plan = await trx
		.selectFrom('plan_instalments')
		.innerJoin('plan_purchases', 'plan_purchases.id', 'plan_instalments.plan_purchase_id')
		.select('plan_purchases.enrollment_id')
		.where('plan_instalments.id', '=', instalmentId)
		.executeTakeFirst()
	return plan?.enrollment_id ?? null
}

/**
 * Makes the enrolment inactive (its seat frees, and goes to the waitlist); false when it already was or is gone.
 * A completed one loses its certificate: the course it vouches for was given back. Its payment plan,
 * if still running, charges nothing more (docs/decisions/063).
 */
async function endEnrollment(trx: Transaction<Database>, enrollmentId: number, actorId: string | null, now: Date) {
	const enrollment = await trx.selectFrom('enrollments').select(['status', 'user_id']).where('id', '=', enrollmentId).executeTakeFirst()
	if (!enrollment || enrollment.status === 'inactive') return false
	const changed = await changeEnrollmentStatus(trx, enrollmentId, 'inactive')
	if (!changed) return false
	await endPlanOfEnrollment(trx, { enrollmentId, now })
	if (enrollment.status === 'completed') await revokeEnrollmentCertificate(trx, { actorId, enrollmentId, reason: REFUNDED_REASON, now })
	await publishEvent(trx, { type: 'enrollment.changed', courseId: changed.courseId, userId: enrollment.user_id })
	return true
}

/**
 * Brings the app's record of a payment's refunds in line with the provider's, after its
 * `charge.refunded` event: a refund made in the provider's dashboard is recorded and has the same
 * effects as one made here (a full refund ends the enrolment; a partial one keeps it, the admin
 * may end it by hand); one the app asked for and had not recorded yet is settled. Idempotent under
 * repeated and parallel deliveries: each refund is matched by the provider's id (unique) or the
 * app's own id in its metadata, under the payment's row lock.
 */
export async function syncProviderRefunds(db: Kysely<Database>, payments: PaymentProvider, paymentIntentId: string) {
	const payment = await db
		.selectFrom('registration_payments')
		.select('id')
		.where('payment_intent_id', '=', paymentIntentId)
		.executeTakeFirst()
	if (!payment) return { kind: 'unknown-payment' } as const
	const refunds = await payments.listRefunds(paymentIntentId)
	let recorded = 0
	for (const answer of refunds) {
		const settled = await transaction(db, async (trx) => {
			await lockPaymentRow(trx, payment.id)
			const ownId = Number(answer.metadata.refundId)
			const known =
				(await trx.selectFrom('payment_refunds').selectAll().where('provider_refund_id', '=', answer.id).executeTakeFirst()) ??
				(Number.isSafeInteger(ownId)
					? await trx
							.selectFrom('payment_refunds')
							.selectAll()
							.where('id', '=', ownId)
							.where('payment_id', '=', payment.id)
							.executeTakeFirst()
					: undefined)
			if (known?.status === 'succeeded') return false
			// A refund the app gave up on (the provider was unreachable) that did happen is recorded after all.
			if (answer.status === 'failed' && known?.status !== 'pending') return false
			const row =
				known ??
				(await trx
					.insertInto('payment_refunds')
					.values({
						payment_id: payment.id,
						amount_cents: answer.amountCents,
						reason: answer.reason ?? 'requested_by_customer',
						source: 'provider',
					})
					.returningAll()
					.executeTakeFirstOrThrow())
			return (await settleRefund(trx, row.id, answer, paymentIntentId)).kind === 'succeeded'
		})
		if (settled) recorded += 1
	}
	return { kind: 'synced', recorded } as const
}
