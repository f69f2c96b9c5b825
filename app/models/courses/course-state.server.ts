import { type Kysely, sql } from 'kysely'
import { listPlacesOf } from '#app/models/enrollment/waitlist.server.ts'
import type { Database } from '#db/types.ts'
import type { CourseState, UnpaidRegistration } from './course-state.ts'

/**
 * What a signed-in user's relation to a course is, strongest first: an enrolment, then an
 * unfinished payment, then a waitlist request. Waitlist requests are contact submissions
 * (decision 25's queue not yet built): they are tied to the user by e-mail address and to the
 * course by its title, the only links such a request carries.
 */
export async function courseStateFor(db: Kysely<Database>, userId: string, courseId: number): Promise<CourseState> {
	const [enrollment, payment, waitlist] = await Promise.all([
		db.selectFrom('enrollments').select('status').where('user_id', '=', userId).where('course_id', '=', courseId).executeTakeFirst(),
		unpaidCheckouts(db, userId).where('registration_payments.course_id', '=', courseId).executeTakeFirst(),
		db
			.selectFrom('contact_submissions')
			.innerJoin('courses', 'courses.title', 'contact_submissions.program')
			.select('contact_submissions.created_at')
			.where('contact_submissions.kind', '=', 'waitlist')
			.where('courses.id', '=', courseId)
			.where((eb) =>
				eb(sql<string>`lower(contact_submissions.email)`, '=', eb.selectFrom('users').select('users.email').where('users.id', '=', userId)),
			)
			.orderBy('contact_submissions.created_at', 'desc')
			.executeTakeFirst(),
	])
	if (enrollment) {
		if (enrollment.status === 'pending') return { kind: 'payment-pending', canPay: false, heldUntil: null }
		return enrollment.status === 'inactive' ? { kind: 'inactive' } : { kind: 'enrolled' }
	}
	if (payment) return { kind: 'payment-pending', canPay: true, heldUntil: payment.heldUntil?.toISOString() ?? null }
	if (waitlist) {
		const email = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()
		const place = (await listPlacesOf(db, email.email)).find((one) => one.courseId === courseId)
		return {
			kind: 'waitlisted',
			since: waitlist.created_at.toISOString(),
			position: place?.position ?? null,
			offerExpiresAt: place?.offerExpiresAt ?? null,
		}
	}
	return { kind: 'none' }
}

/** Courses the user started to pay for and did not, and is not enrolled in: the dashboard offers to finish. */
export async function listUnpaidRegistrations(db: Kysely<Database>, userId: string): Promise<UnpaidRegistration[]> {
	const rows = await unpaidCheckouts(db, userId)
		.innerJoin('courses', 'courses.id', 'registration_payments.course_id')
		.select(['courses.id as courseId', 'courses.title as courseTitle'])
		.execute()
	const unpaid = new Map<number, UnpaidRegistration>()
	for (const { courseId, courseTitle } of rows) if (!unpaid.has(courseId)) unpaid.set(courseId, { courseId, courseTitle })
	return [...unpaid.values()]
}

/**
 * The user's checkouts that were opened and not paid (still open, abandoned or run out), for courses
 * they hold no enrolment in, newest first, each with the end of its live seat hold if any.
 */
function unpaidCheckouts(db: Kysely<Database>, userId: string) {
	return db
		.selectFrom('registration_payments')
		.leftJoin('seat_holds', (join) =>
			join
				.onRef('seat_holds.checkout_session_id', '=', 'registration_payments.checkout_session_id')
				.on('seat_holds.expires_at', '>', sql<Date>`now()`),
		)
		.select(['registration_payments.course_id', 'seat_holds.expires_at as heldUntil'])
		.where('registration_payments.user_id', '=', userId)
		.where('registration_payments.status', 'in', ['pending', 'expired'])
		.where('registration_payments.course_id', 'is not', null)
		.where(({ not, exists, selectFrom }) =>
			not(
				exists(
					selectFrom('enrollments')
						.select('enrollments.id')
						.whereRef('enrollments.user_id', '=', 'registration_payments.user_id')
						.whereRef('enrollments.course_id', '=', 'registration_payments.course_id'),
				),
			),
		)
		.orderBy('registration_payments.created_at', 'desc')
		.orderBy('registration_payments.id', 'desc')
}
