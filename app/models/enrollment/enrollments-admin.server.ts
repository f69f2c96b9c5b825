import type { ExpressionBuilder, Kysely, Transaction } from 'kysely'
import { likePattern } from '#app/models/accounts/users-admin.server.ts'
import { type StaffViewer, taughtBy } from '#app/models/courses/course-staff.server.ts'
import { listCoursesWithAvailability } from '#app/models/courses/courses.server.ts'
import { endPlanOfEnrollment } from '#app/models/payments/plan-endings.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { publishEvent } from '#app/services/events/publish.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database, EnrollmentStatus } from '#db/types.ts'
import { issueCertificate } from './certificates.server.ts'
import { REOPENED_REASON } from './certificates.ts'
import { revokeEnrollmentCertificate } from './certificates-admin.server.ts'
import { changeEnrollmentStatus, deleteEnrollment, enrollWithinCapacity } from './seats.server.ts'

/** The enrollment table shows at most this many rows; a search narrows it down. */
export const ENROLLMENT_LIST_LIMIT = 200

/**
 * Enrollments of the courses the viewer works on, newest first, optionally matching the student's
 * name or e-mail or the course title. Payments are the admin's: an instructor gets none
 * (docs/decisions/056).
 */
export async function listEnrollments(
	db: Kysely<Database>,
	viewer: StaffViewer,
	{ query, limit = ENROLLMENT_LIST_LIMIT }: { query?: string; limit?: number } = {},
) {
	let select = db
		.selectFrom('enrollments')
		.innerJoin('courses', 'courses.id', 'enrollments.course_id')
		.innerJoin('users', 'users.id', 'enrollments.user_id')
		.leftJoin('profiles', 'profiles.id', 'enrollments.user_id')
		// At most one payment pays for an enrolment (a unique index).
		.leftJoin('registration_payments as payment', 'payment.enrollment_id', 'enrollments.id')
		.select([
			'enrollments.id',
			'enrollments.status',
			'enrollments.enrollment_date',
			'enrollments.course_id',
			'courses.title as courseTitle',
			'users.email',
			'profiles.name',
			'payment.id as paymentId',
			'payment.amount_cents as paidCents',
			'payment.refunded_cents as refundedCents',
			// The promotion code the enrolment used (a code that made it free has no payment).
			(eb) => redemptionOf(eb).select('promotion_codes.code').as('promotionCode'),
			(eb) => redemptionOf(eb).select('promotion_code_redemptions.discount_cents').as('discountCents'),
		])
		.where(({ ref }) => taughtBy(viewer, ref('enrollments.course_id')))
	if (query) {
		const pattern = likePattern(query)
		select = select.where((eb) =>
			eb.or([eb('profiles.name', 'ilike', pattern), eb('users.email', 'ilike', pattern), eb('courses.title', 'ilike', pattern)]),
		)
	}
	const rows = await select
		.orderBy('enrollments.created_at', 'desc')
		.orderBy('enrollments.id', 'desc')
		.limit(limit + 1)
		.execute()
	return {
		enrollments: rows.slice(0, limit).map((row) => ({
			id: row.id,
			status: row.status,
			enrollmentDate: row.enrollment_date.toISOString(),
			courseId: row.course_id,
			courseTitle: row.courseTitle,
			studentName: row.name ?? '',
			studentEmail: row.email,
			payment:
				row.paymentId === null || !viewer.isAdmin
					? null
					: { id: row.paymentId, amountCents: row.paidCents ?? 0, refundedCents: row.refundedCents ?? 0 },
			paid: viewer.isAdmin ? paymentOf(row) : null,
		})),
		truncated: rows.length > limit,
	}
}

function redemptionOf(eb: ExpressionBuilder<Database, 'enrollments'>) {
	return eb
		.selectFrom('promotion_code_redemptions')
		.innerJoin('promotion_codes', 'promotion_codes.id', 'promotion_code_redemptions.promotion_code_id')
		.whereRef('promotion_code_redemptions.enrollment_id', '=', 'enrollments.id')
		.limit(1)
}

/** The enrolment's payment as the table shows it: null when it was neither paid nor made free by a code. */
function paymentOf(row: { paidCents: number | null; promotionCode: string | null; discountCents: number | null }) {
	if (row.paidCents === null && row.promotionCode === null) return null
	return { paidCents: row.paidCents ?? 0, promotionCode: row.promotionCode, discountCents: row.discountCents ?? 0 }
}

/** The Add Enrollment pickers: every account by name, every published course by title with its seats (a draft takes none, docs/decisions/045). */
export async function listEnrollmentOptions(db: Kysely<Database>) {
	const [users, courses] = await Promise.all([
		db
			.selectFrom('users')
			.innerJoin('profiles', 'profiles.id', 'users.id')
			.select(['users.id', 'users.email', 'profiles.name'])
			.orderBy('profiles.name')
			.orderBy('users.email')
			.execute(),
		listCoursesWithAvailability(db),
	])
	return {
		users,
		courses: courses
			.map((course) => ({ id: course.id, title: course.title, capacity: course.capacity, taken: course.taken, isFull: course.isFull }))
			.sort((a, b) => a.title.localeCompare(b.title)),
	}
}

export async function getEnrollment(db: Kysely<Database>, id: number) {
	return db
		.selectFrom('enrollments')
		.innerJoin('courses', 'courses.id', 'enrollments.course_id')
		.innerJoin('users', 'users.id', 'enrollments.user_id')
		.leftJoin('profiles', 'profiles.id', 'enrollments.user_id')
		.select(['enrollments.id', 'enrollments.status', 'courses.title as courseTitle', 'users.email', 'profiles.name'])
		.where('enrollments.id', '=', id)
		.executeTakeFirst()
}

/**
 * Enrols a user as an admin: starts active, under the same course lock and capacity
 * rule as self-service enrolment. Throws SeatUnavailableError; null when the user does
 * not exist.
 */
export async function adminEnroll(db: Kysely<Database>, actorId: string, input: { userId: string; courseId: number }) {
	return transaction(db, async (trx) => {
		const user = await trx.selectFrom('users').select('id').where('id', '=', input.userId).executeTakeFirst()
		if (!user) return null
		const { enrollmentId, course } = await enrollWithinCapacity(trx, { ...input, status: 'active' })
		await recordAudit(trx, {
			actorId,
			action: 'enrollment.create',
			entity: 'enrollment',
			entityId: enrollmentId,
			details: { userId: input.userId, courseId: input.courseId, courseTitle: course.title, status: 'active' },
		})
		await publishEvent(trx, { type: 'enrollment.changed', courseId: input.courseId, userId: input.userId })
		return { enrollmentId }
	})
}

/**
 * Any status to any other; into a seat-taking one needs a free seat (throws SeatUnavailableError).
 * Completed issues the enrolment's certificate in the same transaction (once); leaving completed
 * revokes it (docs/decisions/052). Null when missing.
 */
export async function updateEnrollmentStatus(db: Kysely<Database>, actorId: string, enrollmentId: number, status: EnrollmentStatus) {
	return transaction(db, (trx) => applyEnrollmentStatus(trx, { actorId, enrollmentId, status }))
}

/**
 * A status change with everything that goes with it, in the caller's transaction: the seat rules,
 * the audit entry (no actor: the end-of-course job), the certificate issued on completion or revoked
 * when a completed enrolment is reopened, and the live event. Null when the enrolment is missing.
 */
export async function applyEnrollmentStatus(
	trx: Transaction<Database>,
	{
		actorId,
		enrollmentId,
		status,
		now = new Date(),
	}: { actorId: string | null; enrollmentId: number; status: EnrollmentStatus; now?: Date },
) {
	const before = await trx.selectFrom('enrollments').select(['status', 'user_id']).where('id', '=', enrollmentId).executeTakeFirst()
	if (!before) return null
	const changed = await changeEnrollmentStatus(trx, enrollmentId, status)
	if (!changed) return null
	await recordAudit(trx, {
		actorId,
		action: 'enrollment.status',
		entity: 'enrollment',
		entityId: enrollmentId,
		details: { from: before.status, to: status, courseId: changed.courseId, userId: before.user_id },
	})
	// Ending an enrolment ends its plan: nothing more is charged to a student who has left (decision 063).
	if (status === 'inactive') await endPlanOfEnrollment(trx, { enrollmentId, now })
	if (status === 'completed') await issueCertificate(trx, enrollmentId, { now })
	else if (before.status === 'completed') {
		await revokeEnrollmentCertificate(trx, { actorId, enrollmentId, reason: REOPENED_REASON, now })
	}
	await publishEvent(trx, { type: 'enrollment.changed', courseId: changed.courseId, userId: before.user_id })
	return { ...changed, from: before.status }
}

/** Null when the enrollment does not exist. */
export async function removeEnrollment(db: Kysely<Database>, actorId: string, enrollmentId: number) {
	return transaction(db, async (trx) => {
		// Before the row goes (the plan would lose its enrolment): nothing more is charged.
		await endPlanOfEnrollment(trx, { enrollmentId, now: new Date() })
		const removed = await deleteEnrollment(trx, enrollmentId)
		if (!removed) return null
		await recordAudit(trx, {
			actorId,
			action: 'enrollment.remove',
			entity: 'enrollment',
			entityId: enrollmentId,
			details: { userId: removed.user_id, courseId: removed.course_id, status: removed.status },
		})
		await publishEvent(trx, { type: 'enrollment.changed', courseId: removed.course_id, userId: removed.user_id })
		return removed
	})
}

/** Payments taken for a seat that could not be given (enrolment issue): until refunded in full, someone must refund them. */
export async function listPaymentsNeedingRefund(db: Kysely<Database>) {
	const rows = await db
		.selectFrom('registration_payments')
		.select([
			'id',
			'customer_email',
			'course_title',
			'amount_cents',
			'refunded_cents',
			'currency',
			'provider',
			'checkout_session_id',
			'promotion_code',
			'created_at',
		])
		.where('status', '=', 'needs_refund')
		// Only a checkout's payment can find no seat; an instalment's always has its plan's.
		.where('checkout_session_id', 'is not', null)
		.$narrowType<{ checkout_session_id: string }>()
		.orderBy('created_at', 'desc')
		.execute()
	return rows.map((row) => ({
		id: row.id,
		customerEmail: row.customer_email,
		courseTitle: row.course_title,
		amountCents: row.amount_cents,
		refundedCents: row.refunded_cents,
		currency: row.currency,
		provider: row.provider,
		checkoutSessionId: row.checkout_session_id,
		promotionCode: row.promotion_code,
		createdAt: row.created_at.toISOString(),
	}))
}
