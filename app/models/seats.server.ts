import type { Kysely, Transaction } from 'kysely'
import type { Database, EnrollmentStatus } from '#db/types.ts'
import { SEAT_TAKING_STATUSES, takenSeatsExpression } from './courses.server.ts'

export type SeatRefusal = 'course-not-found' | 'course-full' | 'already-enrolled'

export class SeatUnavailableError extends Error {
	readonly reason: SeatRefusal
	constructor(reason: SeatRefusal) {
		super(reason)
		this.reason = reason
	}
}

/**
 * Takes the course row lock, then counts: the count is its own statement so
 * that, under READ COMMITTED, it sees every seat committed by whoever held the
 * lock before us. Every seat decision goes through here.
 */
async function lockCourseAndCountSeats(trx: Transaction<Database>, courseId: number) {
	const locked = await trx.selectFrom('courses').select('id').where('id', '=', courseId).forUpdate().executeTakeFirst()
	if (!locked) throw new SeatUnavailableError('course-not-found')
	const course = await trx
		.selectFrom('courses')
		.select((eb) => ['id', 'title', 'capacity', 'registration_fee', takenSeatsExpression(eb).as('taken')])
		.where('id', '=', courseId)
		.executeTakeFirstOrThrow()
	return { ...course, taken: Number(course.taken) }
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
	/** Fulfilling a paid checkout: the user's own hold becomes the enrollment. */
	consumeHold?: boolean
}

/**
 * Enrols a user if a seat is free (docs/decisions/015). Must run inside a
 * transaction; throws SeatUnavailableError otherwise.
 */
export async function enrollWithinCapacity(trx: Transaction<Database>, input: EnrollInput) {
	const course = await lockCourseAndCountSeats(trx, input.courseId)
	await assertNotEnrolled(trx, input.userId, input.courseId)
	let taken = course.taken
	if (input.consumeHold) {
		const released = await trx
			.deleteFrom('seat_holds')
			.where('user_id', '=', input.userId)
			.where('course_id', '=', input.courseId)
			.where('expires_at', '>', new Date())
			.executeTakeFirst()
		taken -= Number(released.numDeletedRows)
	}
	const status = input.status ?? 'active'
	const takesSeat = (SEAT_TAKING_STATUSES as readonly string[]).includes(status)
	if (takesSeat && taken >= course.capacity) throw new SeatUnavailableError('course-full')
	const enrollment = await trx
		.insertInto('enrollments')
		.values({ user_id: input.userId, course_id: input.courseId, status })
		.returning('id')
		.executeTakeFirstOrThrow()
	return { enrollmentId: enrollment.id, course }
}

/** Changes an enrollment's status; moving it into a seat-taking status needs a free seat. */
export async function changeEnrollmentStatus(trx: Transaction<Database>, enrollmentId: number, status: EnrollmentStatus) {
	const current = await trx
		.selectFrom('enrollments')
		.select(['id', 'course_id', 'status'])
		.where('id', '=', enrollmentId)
		.executeTakeFirst()
	if (!current) return null
	const seatTaking = SEAT_TAKING_STATUSES as readonly string[]
	if (seatTaking.includes(status) && !seatTaking.includes(current.status)) {
		const course = await lockCourseAndCountSeats(trx, current.course_id)
		if (course.taken >= course.capacity) throw new SeatUnavailableError('course-full')
	}
	await trx.updateTable('enrollments').set({ status, updated_at: new Date() }).where('id', '=', enrollmentId).execute()
	return { courseId: current.course_id }
}

export type HoldInput = { userId: string; courseId: number; expiresAt: Date; checkoutSessionId?: string | null }

/** Reserves a seat until the checkout ends. Must run inside a transaction. */
export async function placeSeatHold(trx: Transaction<Database>, input: HoldInput) {
	const course = await lockCourseAndCountSeats(trx, input.courseId)
	await assertNotEnrolled(trx, input.userId, input.courseId)
	const replaced = await trx
		.deleteFrom('seat_holds')
		.where('user_id', '=', input.userId)
		.where('course_id', '=', input.courseId)
		.returning('expires_at')
		.execute()
	const ownLiveHolds = replaced.filter((hold) => hold.expires_at.getTime() > Date.now()).length
	if (course.taken - ownLiveHolds >= course.capacity) throw new SeatUnavailableError('course-full')
	const hold = await trx
		.insertInto('seat_holds')
		.values({
			user_id: input.userId,
			course_id: input.courseId,
			expires_at: input.expiresAt,
			checkout_session_id: input.checkoutSessionId ?? null,
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	return { holdId: hold.id, course }
}

export async function releaseSeatHold(db: Kysely<Database>, checkoutSessionId: string) {
	await db.deleteFrom('seat_holds').where('checkout_session_id', '=', checkoutSessionId).execute()
}

/** Expired holds never count; this only keeps the table small. */
export async function sweepExpiredSeatHolds(db: Kysely<Database>) {
	const result = await db.deleteFrom('seat_holds').where('expires_at', '<=', new Date()).executeTakeFirst()
	return Number(result.numDeletedRows)
}
