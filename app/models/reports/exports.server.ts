import { type Kysely, sql } from 'kysely'
import { READING_STATUSES } from '#app/models/materials/materials.ts'
import type { Database } from '#db/types.ts'
import type { AttendanceLine, PaymentLine } from './exports.ts'

/*
 * The exports' queries (issue 43, docs/decisions/066). Each is one statement read through a cursor
 * (`.stream()`), a chunk of rows at a time, so an export of any length holds a chunk in memory.
 */

const CHUNK_ROWS = 500

/** Payments whose money was taken: a refund or a seat lost later does not undo the payment. */
const TAKEN_STATUSES = ['paid', 'needs_refund', 'refunded'] as const

/**
 * The payments and refunds of `[from, to)`, oldest first, one line each:
 * - each payment row (`registration_payments`) whose money was taken, dated when it was paid
 *   (`fulfilled_at`, else the row's `created_at`): gross = amount + discount, its discount;
 * - each instalment of a plan paid after the first (`plan_instalments`, paid or paid outside, dated
 *   `paid_at`) that no payment row records: the first is its checkout's payment row, and a later one
 *   that has a payment row of its own (the same payment intent) is that row (docs/decisions/054);
 * - each refund that succeeded (`payment_refunds`), dated when it was asked for (`created_at`).
 */
export function streamPaymentLines(db: Kysely<Database>, { from, to }: { from: Date; to: Date }): AsyncIterable<PaymentLine> {
	const planSize = (planId: 'instalment.plan_purchase_id' | 'plan.id') =>
		sql<number | null>`(SELECT count(*) FROM plan_instalments AS member WHERE member.plan_purchase_id = ${sql.ref(planId)})`

	const payments = db
		.selectFrom('registration_payments as payment')
		.leftJoin('profiles', 'profiles.id', 'payment.user_id')
		// The plan instalment this payment paid, if any: one per payment intent, so a line is never doubled.
		.leftJoin(
			(eb) =>
				eb
					.selectFrom('plan_instalments')
					.distinctOn('payment_intent_id')
					.select(['payment_intent_id', 'plan_purchase_id', 'sequence', 'provider_invoice_id'])
					.where('payment_intent_id', 'is not', null)
					.orderBy('payment_intent_id')
					.orderBy('sequence')
					.as('instalment'),
			(join) => join.onRef('instalment.payment_intent_id', '=', 'payment.payment_intent_id'),
		)
		.select((eb) => [
			eb.fn.coalesce('payment.fulfilled_at', 'payment.created_at').as('at'),
			sql<PaymentLine['kind']>`'payment'`.as('kind'),
			'profiles.name as studentName',
			'payment.customer_email as email',
			'payment.course_title as courseTitle',
			sql<number>`payment.amount_cents + payment.discount_cents`.as('grossCents'),
			'payment.discount_cents as discountCents',
			sql<number>`0`.as('refundCents'),
			'payment.currency',
			'payment.promotion_code as promotionCode',
			'instalment.sequence as instalment',
			planSize('instalment.plan_purchase_id').as('instalments'),
			'payment.provider',
			'payment.checkout_session_id as checkoutSessionId',
			'payment.payment_intent_id as paymentIntentId',
			'instalment.provider_invoice_id as invoiceId',
			sql<string | null>`NULL`.as('refundId'),
		])
		.where('payment.status', 'in', TAKEN_STATUSES)
		.where(sql<Date>`coalesce(payment.fulfilled_at, payment.created_at)`, '>=', from)
		.where(sql<Date>`coalesce(payment.fulfilled_at, payment.created_at)`, '<', to)

	const laterInstalments = db
		.selectFrom('plan_instalments as instalment')
		.innerJoin('plan_purchases as plan', 'plan.id', 'instalment.plan_purchase_id')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.leftJoin('users', 'users.id', 'plan.user_id')
		.leftJoin('profiles', 'profiles.id', 'plan.user_id')
		.leftJoin('registration_payments as first', 'first.checkout_session_id', 'plan.checkout_session_id')
		.select([
			sql<Date>`instalment.paid_at`.as('at'),
			sql<PaymentLine['kind']>`CASE instalment.status WHEN 'paid_outside' THEN 'paid_outside' ELSE 'instalment' END`.as('kind'),
			'profiles.name as studentName',
			sql<string>`coalesce(first.customer_email, users.email, '')`.as('email'),
			'courses.title as courseTitle',
			'instalment.amount_cents as grossCents',
			sql<number>`0`.as('discountCents'),
			sql<number>`0`.as('refundCents'),
			sql<string>`coalesce(first.currency, 'usd')`.as('currency'),
			sql<string | null>`NULL`.as('promotionCode'),
			'instalment.sequence as instalment',
			planSize('plan.id').as('instalments'),
			'plan.provider',
			'plan.checkout_session_id as checkoutSessionId',
			'instalment.payment_intent_id as paymentIntentId',
			'instalment.provider_invoice_id as invoiceId',
			sql<string | null>`NULL`.as('refundId'),
		])
		.where('instalment.status', 'in', ['paid', 'paid_outside'])
		.where('instalment.sequence', '>', 1)
		.where((eb) =>
			eb.not(
				eb.exists(
					eb
						.selectFrom('registration_payments as recorded')
						.select('recorded.id')
						.whereRef('recorded.payment_intent_id', '=', 'instalment.payment_intent_id'),
				),
			),
		)
		.where('instalment.paid_at', '>=', from)
		.where('instalment.paid_at', '<', to)

	const refunds = db
		.selectFrom('payment_refunds as refund')
		.innerJoin('registration_payments as payment', 'payment.id', 'refund.payment_id')
		.leftJoin('profiles', 'profiles.id', 'payment.user_id')
		.select([
			'refund.created_at as at',
			sql<PaymentLine['kind']>`'refund'`.as('kind'),
			'profiles.name as studentName',
			'payment.customer_email as email',
			'payment.course_title as courseTitle',
			sql<number>`0`.as('grossCents'),
			sql<number>`0`.as('discountCents'),
			'refund.amount_cents as refundCents',
			'payment.currency',
			'payment.promotion_code as promotionCode',
			sql<number | null>`NULL::integer`.as('instalment'),
			sql<number | null>`NULL::bigint`.as('instalments'),
			'payment.provider',
			'payment.checkout_session_id as checkoutSessionId',
			'payment.payment_intent_id as paymentIntentId',
			sql<string | null>`NULL`.as('invoiceId'),
			'refund.provider_refund_id as refundId',
		])
		.where('refund.status', '=', 'succeeded')
		.where('refund.created_at', '>=', from)
		.where('refund.created_at', '<', to)

	return db
		.selectFrom(payments.unionAll(laterInstalments).unionAll(refunds).as('line'))
		.selectAll()
		.orderBy('line.at')
		.orderBy('line.checkoutSessionId')
		.orderBy('line.kind')
		.stream(CHUNK_ROWS) as AsyncIterable<PaymentLine>
}

/**
 * A course's attendance, student × session: every student of its roster (active or completed) and
 * every scheduled session that has ended, with the status recorded or none; by student, then session.
 */
export function streamAttendanceLines(
	db: Kysely<Database>,
	{ courseId, now }: { courseId: number; now: Date },
): AsyncIterable<AttendanceLine> {
	return db
		.selectFrom('enrollments')
		.innerJoin('users', 'users.id', 'enrollments.user_id')
		.innerJoin('profiles', 'profiles.id', 'enrollments.user_id')
		.innerJoin('live_sessions as session', 'session.course_id', 'enrollments.course_id')
		.leftJoin('attendance', (join) =>
			join.onRef('attendance.live_session_id', '=', 'session.id').onRef('attendance.user_id', '=', 'enrollments.user_id'),
		)
		.select([
			'profiles.name',
			'users.email',
			'session.week_number as weekNumber',
			'session.starts_at as startsAt',
			'session.ends_at as endsAt',
			'attendance.status',
			'attendance.minutes',
			'attendance.source',
		])
		.where('enrollments.course_id', '=', courseId)
		.where('enrollments.status', 'in', READING_STATUSES)
		.where('session.status', '=', 'scheduled')
		.where('session.ends_at', '<=', now)
		.orderBy('profiles.name')
		.orderBy('users.email')
		.orderBy('session.starts_at')
		.stream(CHUNK_ROWS)
}

/** The course an export names, by id: its title for the file name; undefined when there is none. */
export async function exportedCourse(db: Kysely<Database>, courseId: number) {
	return db.selectFrom('courses').select(['id', 'title']).where('id', '=', courseId).executeTakeFirst()
}
