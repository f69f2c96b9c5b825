import { type Kysely, type SqlBool, sql } from 'kysely'
import { READING_STATUSES } from '#app/models/materials/materials.ts'
import type { Database } from '#db/types.ts'
import type { AttendanceLine, PaymentLine } from './exports.ts'
import { type MoneyEventRange, moneyEvents } from './money-events.server.ts'

/*
 * The exports' queries (issue 43, docs/decisions/066). Each is one statement read through a cursor
 * (`.stream()`), a chunk of rows at a time, so an export of any length holds a chunk in memory.
 */

const CHUNK_ROWS = 500

/**
 * The money events of the range (`money-events.server.ts`, the ones the overview adds up), oldest
 * first, one line each, with who, what and the provider's ids: a payment (a checkout's, or a later
 * plan instalment's) with its gross and discount, an instalment paid outside, a refund with only
 * its amount. A plan's payment names its instalment: the checkout's is the plan's first.
 */
export function streamPaymentLines(db: Kysely<Database>, range: MoneyEventRange): AsyncIterable<PaymentLine> {
	return (
		db
			.selectFrom(moneyEvents(range).as('event'))
			.leftJoin('profiles', 'profiles.id', 'event.user_id')
			.leftJoin('plan_instalments as instalment', 'instalment.id', 'event.instalment_id')
			// A later instalment's payment had no checkout: its plan's names the purchase.
			.leftJoin('plan_purchases as checkout_of_instalment', 'checkout_of_instalment.id', 'instalment.plan_purchase_id')
			// The checkout's payment of a plan paid its first instalment.
			.leftJoin('plan_purchases as checkout_plan', (join) =>
				join.onRef('checkout_plan.checkout_session_id', '=', 'event.checkout_session_id').on('event.kind', '=', 'payment'),
			)
			.leftJoin('plan_instalments as first_instalment', (join) =>
				join.onRef('first_instalment.plan_purchase_id', '=', 'checkout_plan.id').on('first_instalment.sequence', '=', 1),
			)
			.leftJoin(
				(eb) =>
					eb
						.selectFrom('plan_instalments')
						.select((member) => ['plan_purchase_id', member.fn.countAll<number>().as('count')])
						.groupBy('plan_purchase_id')
						.as('plan_size'),
				(join) => join.on(sql<SqlBool>`plan_size.plan_purchase_id = coalesce(instalment.plan_purchase_id, checkout_plan.id)`),
			)
			.select([
				'event.at',
				'event.kind',
				'profiles.name as studentName',
				'event.email',
				'event.course_title as courseTitle',
				'event.gross_cents as grossCents',
				'event.discount_cents as discountCents',
				'event.refund_cents as refundCents',
				'event.currency',
				'event.promotion_code as promotionCode',
				sql<number | null>`coalesce(instalment.sequence, first_instalment.sequence)`.as('instalment'),
				'plan_size.count as instalments',
				'event.provider',
				sql<string | null>`coalesce(event.checkout_session_id, checkout_of_instalment.checkout_session_id)`.as('checkoutSessionId'),
				'event.payment_intent_id as paymentIntentId',
				sql<string | null>`coalesce(instalment.provider_invoice_id, first_instalment.provider_invoice_id)`.as('invoiceId'),
				'event.provider_refund_id as refundId',
			])
			.orderBy('event.at')
			.orderBy('event.kind')
			.orderBy('event.payment_id')
			.stream(CHUNK_ROWS) as AsyncIterable<PaymentLine>
	)
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
