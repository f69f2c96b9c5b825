import type { Kysely } from 'kysely'
import { createElement } from 'react'
import { href } from 'react-router'
import { EnrollmentReceiptEmail, enrollmentReceiptSubject } from '#app/emails/enrollment-receipt.tsx'
import { emailSite, enqueueEmail } from '#app/models/messaging/emails.server.ts'
import { listCourseFeedSessions, renderCalendar } from '#app/models/sessions/calendar-feed.server.ts'
import { getSchoolDetails } from '#app/models/site/site-settings.server.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { Database } from '#db/types.ts'

/**
 * The student's receipt, queued in the transaction that made the enrollment active (a free
 * course's registration, a paid checkout's fulfilment), which runs once per enrollment. The
 * amount is what the payment recorded, never the course's current price. A course with live
 * sessions attaches them as an .ics file, with the same UIDs as the student's calendar feed.
 */
export async function sendEnrollmentReceipt(db: Kysely<Database>, { courseId, enrollmentId }: { courseId: number; enrollmentId: number }) {
	const row = await db
		.selectFrom('enrollments')
		.innerJoin('users', 'users.id', 'enrollments.user_id')
		.innerJoin('courses', 'courses.id', 'enrollments.course_id')
		.leftJoin('profiles', 'profiles.id', 'enrollments.user_id')
		.leftJoin('registration_payments', (join) =>
			join.onRef('registration_payments.enrollment_id', '=', 'enrollments.id').on('registration_payments.status', '=', 'paid'),
		)
		// The code it used (redeemed with the enrolment, or over its limit when paid late): the receipt shows it (issue 39 point 9).
		.leftJoin('promotion_code_redemptions', 'promotion_code_redemptions.enrollment_id', 'enrollments.id')
		.leftJoin('promotion_codes', 'promotion_codes.id', 'promotion_code_redemptions.promotion_code_id')
		// Bought on a plan: the receipt says the first payment is one of several (docs/decisions/059, 064).
		.leftJoin('plan_purchases', 'plan_purchases.enrollment_id', 'enrollments.id')
		.select((eb) => [
			'plan_purchases.total_cents as plan_total_cents',
			eb
				.selectFrom('plan_instalments')
				.select((count) => count.fn.countAll<string>().as('count'))
				.whereRef('plan_instalments.plan_purchase_id', '=', 'plan_purchases.id')
				.as('plan_payments'),
			'promotion_codes.code',
			'promotion_code_redemptions.price_cents',
			'promotion_code_redemptions.discount_cents',
			'users.email',
			'profiles.name',
			'courses.title',
			'courses.start_date',
			'registration_payments.amount_cents',
			'registration_payments.currency',
			'registration_payments.checkout_session_id',
		])
		.where('enrollments.id', '=', enrollmentId)
		.where('enrollments.course_id', '=', courseId)
		.executeTakeFirstOrThrow()
	// The school's details as they are now: a receipt states who issued it when it was issued (docs/decisions/050).
	const site = await emailSite(db)
	const { address, taxId } = await getSchoolDetails(db)
	// The whole series, past sessions included, as a calendar file: importing it adds every session at once.
	const sessions = await listCourseFeedSessions(db, courseId)
	const attachments = sessions.length
		? [
				{
					filename: 'live-sessions.ics',
					contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
					content: renderCalendar(sessions, { siteUrl: site.url, name: row.title }),
				},
			]
		: undefined
	await enqueueEmail(db, {
		attachments,
		to: row.email,
		subject: enrollmentReceiptSubject(row.title),
		body: createElement(EnrollmentReceiptEmail, {
			site,
			school: { address, taxId },
			name: row.name,
			courseTitle: row.title,
			amountPaid: formatMoney(row.amount_cents ?? 0, { currency: row.currency ?? 'usd', free: 'Free' }),
			discount:
				row.code && row.price_cents !== null && row.discount_cents !== null
					? { code: row.code, price: formatMoney(row.price_cents), amountOff: formatMoney(row.discount_cents) }
					: null,
			plan: row.plan_total_cents !== null ? { total: formatMoney(row.plan_total_cents), payments: Number(row.plan_payments ?? 0) } : null,
			startsOn: row.start_date ? formatDateOnly(row.start_date) : null,
			paymentReference: row.checkout_session_id,
			courseUrl: `${site.url}${href('/dashboard')}?course=${courseId}`,
		}),
	})
}
