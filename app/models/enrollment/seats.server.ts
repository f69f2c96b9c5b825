import type { ExpressionBuilder, Kysely, Transaction } from 'kysely'
import { SEAT_TAKING_STATUSES } from '#app/models/courses/courses.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database, EnrollmentStatus } from '#db/types.ts'
import {
	closeOwnWaitlistEntries,
	countSeats,
	lockCourse,
	lockPublishedCourse,
	offerFreedSeats,
	ownOpenOffer,
} from './seat-offers.server.ts'

export type SeatRefusal = 'course-not-found' | 'course-full' | 'already-enrolled'

export class SeatUnavailableError extends Error {
	readonly reason: SeatRefusal
	constructor(reason: SeatRefusal) {
		super(reason)
		this.reason = reason
	}
}

const seatTaking = SEAT_TAKING_STATUSES as readonly string[]

/**
 * Takes the course row lock, serves the waitlist first (a free seat goes to the person next in
 * line before anyone else: docs/decisions/034), then counts. Returns the claimer's own open
 * offer, whose seat is theirs to take. Every claim of a seat goes through here.
 */
async function lockForClaim(trx: Transaction<Database>, userId: string, courseId: number) {
	if (!(await lockPublishedCourse(trx, courseId))) throw new SeatUnavailableError('course-not-found')
	await offerFreedSeats(trx, courseId)
	const course = await countSeats(trx, courseId)
	const offer = await ownOpenOffer(trx, userId, courseId)
	return { course, offer }
}

async function assertNotEnrolled(trx: Transaction<Database>, userId: string, courseId: number) {
	const existing = await trx
		.selectFrom('enrollments')
		.select('id')
		.where('user_id', '=', userId)
		.where('course_id', '=', courseId)
		.executeTakeFirst()
	if (existing) throw new SeatUnavailableError('already-enrolled')
}

export type EnrollInput = {
	userId: string
	courseId: number
	status?: EnrollmentStatus
	/** Fulfilling a paid checkout: the user's own hold becomes the enrollment (with the agreement version it carries). */
	consumeHold?: boolean
	/** The agreement version the student accepted (docs/decisions/043); none for an admin's enrolment. */
	agreementVersionId?: number | null
}

/**
 * Enrols a user if a seat is free (docs/decisions/015), or if the user holds an open waitlist
 * offer for the course (it becomes the enrolment). Must run inside a transaction; throws
 * SeatUnavailableError otherwise.
 */
export async function enrollWithinCapacity(trx: Transaction<Database>, input: EnrollInput) {
	const { course, offer } = await lockForClaim(trx, input.userId, input.courseId)
	await assertNotEnrolled(trx, input.userId, input.courseId)
	let taken = course.taken - (offer ? 1 : 0)
	let agreementVersionId = input.agreementVersionId ?? null
	if (input.consumeHold) {
		const released = await trx
			.deleteFrom('seat_holds')
			.where('user_id', '=', input.userId)
			.where('course_id', '=', input.courseId)
			.where('expires_at', '>', new Date())
			.returning('agreement_version_id')
			.execute()
		taken -= released.length
		agreementVersionId ??= released[0]?.agreement_version_id ?? null
	}
	const status = input.status ?? 'active'
	const takesSeat = seatTaking.includes(status)
	if (takesSeat && taken >= course.capacity) throw new SeatUnavailableError('course-full')
	const enrollment = await trx
		.insertInto('enrollments')
		.values({ user_id: input.userId, course_id: input.courseId, status, agreement_version_id: agreementVersionId })
		.returning('id')
		.executeTakeFirstOrThrow()
	if (takesSeat) await closeOwnWaitlistEntries(trx, { userId: input.userId, courseId: input.courseId, status: 'enrolled' })
	return { enrollmentId: enrollment.id, course }
}

/**
 * Changes an enrollment's status; moving it into a seat-taking status needs a free seat, and
 * moving it out of one offers the freed seat to the waitlist in the same transaction.
 */
export async function changeEnrollmentStatus(trx: Transaction<Database>, enrollmentId: number, status: EnrollmentStatus) {
	const row = await trx.selectFrom('enrollments').select('course_id').where('id', '=', enrollmentId).executeTakeFirst()
	if (!row) return null
	await lockCourse(trx, row.course_id)
	// Read again under the course lock: the status it had when this change was decided.
	const current = await trx.selectFrom('enrollments').select(['course_id', 'status']).where('id', '=', enrollmentId).executeTakeFirst()
	if (!current) return null
	if (seatTaking.includes(status) && !seatTaking.includes(current.status)) {
		const course = await countSeats(trx, current.course_id)
		if (course.taken >= course.capacity) throw new SeatUnavailableError('course-full')
	}
	await trx.updateTable('enrollments').set({ status, updated_at: new Date() }).where('id', '=', enrollmentId).execute()
	if (seatTaking.includes(current.status) && !seatTaking.includes(status)) await offerFreedSeats(trx, current.course_id)
	return { courseId: current.course_id }
}

/** Deletes an enrollment under the course lock; a seat it took is offered to the waitlist. Null when missing. */
export async function deleteEnrollment(trx: Transaction<Database>, enrollmentId: number) {
	const row = await trx.selectFrom('enrollments').select('course_id').where('id', '=', enrollmentId).executeTakeFirst()
	if (!row) return null
	await lockCourse(trx, row.course_id)
	const removed = await trx
		.deleteFrom('enrollments')
		.where('id', '=', enrollmentId)
		.returning(['id', 'user_id', 'course_id', 'status'])
		.executeTakeFirst()
	if (removed && seatTaking.includes(removed.status)) await offerFreedSeats(trx, removed.course_id)
	return removed ?? null
}

export type HoldInput = {
	userId: string
	courseId: number
	expiresAt: Date
	checkoutSessionId?: string | null
	/** The agreement version the buyer accepted, for their enrolment (docs/decisions/043). */
	agreementVersionId?: number | null
}

/**
 * The buyer's seat hold for the course that has not run out, if any: their open checkout
 * (docs/decisions/040). Read under the course lock (every change of a hold takes it), it stays
 * as read until commit.
 */
export async function liveHoldOf(db: Kysely<Database>, input: { userId: string; courseId: number }) {
	return db
		.selectFrom('seat_holds')
		.select(['id', 'expires_at', 'checkout_session_id', 'checkout_url'])
		.where('user_id', '=', input.userId)
		.where('course_id', '=', input.courseId)
		.where('expires_at', '>', new Date())
		.executeTakeFirst()
}

/**
 * Reserves a seat until the checkout ends. Must run inside a transaction, and only when the user
 * holds no live hold for the course (the caller answers with that one: liveHoldOf); a hold that
 * ran out is replaced. A user's open waitlist offer becomes the hold (its entry is then 'claimed').
 */
export async function placeSeatHold(trx: Transaction<Database>, input: HoldInput) {
	const { course, offer } = await lockForClaim(trx, input.userId, input.courseId)
	await assertNotEnrolled(trx, input.userId, input.courseId)
	await trx
		.deleteFrom('seat_holds')
		.where('user_id', '=', input.userId)
		.where('course_id', '=', input.courseId)
		.where('expires_at', '<=', new Date())
		.execute()
	if (course.taken - (offer ? 1 : 0) >= course.capacity) throw new SeatUnavailableError('course-full')
	const hold = await trx
		.insertInto('seat_holds')
		.values({
			user_id: input.userId,
			course_id: input.courseId,
			expires_at: input.expiresAt,
			checkout_session_id: input.checkoutSessionId ?? null,
			agreement_version_id: input.agreementVersionId ?? null,
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	if (offer) await closeOwnWaitlistEntries(trx, { userId: input.userId, courseId: input.courseId, status: 'claimed' })
	return { holdId: hold.id, course }
}

/**
 * Deletes seat holds (one whose checkout never opened, those of a checkout session, or every
 * expired one) course by course under each course's lock, offering the freed seats to the
 * waitlist in the same transaction. Returns the courses whose holds went.
 */
export async function releaseSeatHolds(
	trx: Transaction<Database>,
	which: { holdWithoutCheckout: string } | { checkoutSessionId: string } | { expired: true },
) {
	const chosen = (eb: ExpressionBuilder<Database, 'seat_holds'>) => {
		// Another submit of the same buyer may have opened this hold's checkout meanwhile: then it stays.
		if ('holdWithoutCheckout' in which) return eb.and([eb('id', '=', which.holdWithoutCheckout), eb('checkout_session_id', 'is', null)])
		if ('checkoutSessionId' in which) return eb('checkout_session_id', '=', which.checkoutSessionId)
		return eb('expires_at', '<=', new Date())
	}
	const courses = (await trx.selectFrom('seat_holds').select('course_id').distinct().where(chosen).execute())
		.map((row) => row.course_id)
		.sort((a, b) => a - b)
	const released: number[] = []
	for (const courseId of courses) {
		await lockCourse(trx, courseId)
		const removed = await trx.deleteFrom('seat_holds').where('course_id', '=', courseId).where(chosen).executeTakeFirst()
		if (Number(removed.numDeletedRows) === 0) continue
		await offerFreedSeats(trx, courseId)
		released.push(courseId)
	}
	return released
}

/**
 * Expired holds stopped counting when they expired; this deletes them and offers their seats
 * to the waitlist, one transaction per course. Returns how many holds it deleted.
 */
export async function sweepExpiredSeatHolds(db: Kysely<Database>) {
	const courses = await db.selectFrom('seat_holds').select('course_id').distinct().where('expires_at', '<=', new Date()).execute()
	let deleted = 0
	for (const { course_id: courseId } of courses) {
		await transaction(db, async (trx) => {
			await lockCourse(trx, courseId)
			const result = await trx
				.deleteFrom('seat_holds')
				.where('course_id', '=', courseId)
				.where('expires_at', '<=', new Date())
				.executeTakeFirst()
			deleted += Number(result.numDeletedRows)
			await offerFreedSeats(trx, courseId)
		})
	}
	return deleted
}
