import { randomBytes } from 'node:crypto'
import { type ExpressionBuilder, sql, type Transaction } from 'kysely'
import { takenSeatsExpression } from '#app/models/courses/courses.server.ts'
import { addJob } from '#app/services/jobs/queue.server.ts'
import { hashToken } from '#app/utils/session.server.ts'
import type { Database } from '#db/types.ts'

/**
 * The job that e-mails an offer. The mail is rendered there, not in the seat transaction: the
 * seat code is reached by scripts, which Node runs without a build and which cannot load the
 * `.tsx` templates (tests/integration/node-scripts.test.ts). The job exists only if the offer
 * commits.
 */
export const SEND_SEAT_OFFER_TASK = 'send-seat-offer'
/** The job that tells people their offer ran out (`sendOfferExpiredNotices`); a job, so scripts never load mail templates. */
export const SEND_OFFER_EXPIRED_TASK = 'send-offer-expired'

/**
 * The seat lock and the waitlist's offers (docs/decisions/015, 034). Every seat decision takes
 * the course row lock first; offers are made under it too, so seats freed, offered, held and sold
 * are decided one at a time per course, whichever process asks.
 */

export function newWaitlistToken() {
	const token = randomBytes(32).toString('base64url')
	return { token, hash: hashToken(token) }
}

/**
 * Locks the course row for this transaction; false when there is no such course. The lock is
 * FOR NO KEY UPDATE: two seat decisions for one course still wait for each other, but a row
 * that merely references the course (a payment, an enrolment, a hold being written by another
 * transaction) does not wait for it, so those writes cannot deadlock against a seat claim
 * (docs/decisions/040: the lock order is course, seat hold, promotion code, payment).
 */
export async function lockCourse(trx: Transaction<Database>, courseId: number) {
	const locked = await trx.selectFrom('courses').select('id').where('id', '=', courseId).forNoKeyUpdate().executeTakeFirst()
	return Boolean(locked)
}

/**
 * The lock of a seat claim or a waitlist request: as lockCourse, but false for a draft too, which
 * takes no seats and no waiting list until it is published (docs/decisions/045), whatever is posted.
 */
export async function lockPublishedCourse(trx: Transaction<Database>, courseId: number) {
	const locked = await trx.selectFrom('courses').select('published').where('id', '=', courseId).forNoKeyUpdate().executeTakeFirst()
	return locked?.published === true
}

/**
 * Counts the course's taken seats. Its own statement after the lock so that, under READ
 * COMMITTED, it sees every seat committed by whoever held the lock before us.
 */
export async function countSeats(trx: Transaction<Database>, courseId: number) {
	const course = await trx
		.selectFrom('courses')
		.select((eb) => ['id', 'title', 'capacity', 'registration_fee', 'waitlist_offer_hours', takenSeatsExpression(eb).as('taken')])
		.where('id', '=', courseId)
		.executeTakeFirstOrThrow()
	return { ...course, taken: Number(course.taken) }
}

/**
 * Offers the course's free seats to the people waiting, first in line first, one offer per
 * free seat: each offer holds its seat for the course's offer time and is e-mailed with its
 * link (by a job). Offers whose time is up are closed first. Takes the course lock; call it in the
 * transaction that freed a seat (or before a claim), so no seat is free between the two.
 * Returns the entries offered.
 */
export async function offerFreedSeats(trx: Transaction<Database>, courseId: number) {
	if (!(await lockCourse(trx, courseId))) return []
	await closeExpiredOffers(trx, courseId)
	const course = await countSeats(trx, courseId)
	const free = course.capacity - course.taken
	if (free <= 0) return []
	const next = await trx
		.selectFrom('waitlist_entries')
		.select(['id'])
		.where('course_id', '=', courseId)
		.where('status', '=', 'waiting')
		.orderBy('position')
		.limit(free)
		.execute()
	const offered: number[] = []
	for (const entry of next) {
		await offerSeatTo(trx, course, entry.id)
		offered.push(entry.id)
	}
	return offered
}

/**
 * Turns one waiting entry into an offer. The caller holds the course lock and has checked
 * that a seat is free.
 */
export async function offerSeatTo(trx: Transaction<Database>, course: { waitlist_offer_hours: number }, entryId: number) {
	const { token, hash } = newWaitlistToken()
	const now = new Date()
	const expiresAt = new Date(now.getTime() + course.waitlist_offer_hours * 60 * 60 * 1000)
	await trx
		.updateTable('waitlist_entries')
		.set({ status: 'offered', offer_token_hash: hash, offered_at: now, offer_expires_at: expiresAt, updated_at: now })
		.where('id', '=', entryId)
		.where('status', '=', 'waiting')
		.executeTakeFirstOrThrow()
	// The link's token travels in the job as it will in the mail; only its hash stays with the entry.
	await addJob(trx, SEND_SEAT_OFFER_TASK, { entryId, token }, { maxAttempts: 5 })
}

/** Offers whose time is up stop counting at once (the seat expression); this records them as expired. */
async function closeExpiredOffers(trx: Transaction<Database>, courseId: number) {
	// Even an UPDATE of no rows fires the public-content trigger (every process drops its page cache): look first.
	const expired = await trx
		.selectFrom('waitlist_entries')
		.select('id')
		.where('course_id', '=', courseId)
		.where('status', '=', 'offered')
		.where('offer_expires_at', '<=', sql<Date>`now()`)
		.executeTakeFirst()
	if (!expired) return
	const closed = await trx
		.updateTable('waitlist_entries')
		.set({ status: 'expired', updated_at: new Date() })
		.where('course_id', '=', courseId)
		.where('status', '=', 'offered')
		.where('offer_expires_at', '<=', sql<Date>`now()`)
		.returning('id')
		.execute()
	await addJob(trx, SEND_OFFER_EXPIRED_TASK, { entryIds: closed.map((entry) => entry.id) }, { maxAttempts: 5 })
}

/** The account's e-mail address, only once the account has confirmed it: a place in line belongs to an address (docs/decisions/041). */
function confirmedAddressOf(eb: ExpressionBuilder<Database, 'waitlist_entries'>, userId: string) {
	return eb.selectFrom('users').select('users.email').where('users.id', '=', userId).where('users.email_confirmed_at', 'is not', null)
}

/**
 * The open offer for the course made to the account's confirmed address, locked; the caller holds
 * the course lock. Whoever joined the line, only the owner of the address can take its seat.
 */
export async function ownOpenOffer(trx: Transaction<Database>, userId: string, courseId: number) {
	return trx
		.selectFrom('waitlist_entries')
		.select('id')
		.where('course_id', '=', courseId)
		.where('status', '=', 'offered')
		.where('offer_expires_at', '>', sql<Date>`now()`)
		.where((eb) => eb(sql<string>`lower(waitlist_entries.email)`, '=', confirmedAddressOf(eb, userId)))
		.forUpdate()
		.executeTakeFirst()
}

/** Ends the user's live places in the course's line once they hold a seat there (enrolled, or a hold for checkout). */
export async function closeOwnWaitlistEntries(
	trx: Transaction<Database>,
	input: { userId: string; courseId: number; status: 'claimed' | 'enrolled' },
) {
	const live = input.status === 'enrolled' ? (['waiting', 'offered', 'claimed'] as const) : (['waiting', 'offered'] as const)
	await trx
		.updateTable('waitlist_entries')
		.set({ status: input.status, user_id: input.userId, updated_at: new Date() })
		.where('course_id', '=', input.courseId)
		.where('status', 'in', live)
		.where((eb) =>
			eb.or([
				// A place this account claimed (its offer became the account's seat hold).
				eb.and([eb('user_id', '=', input.userId), eb('status', '=', 'claimed')]),
				eb(sql<string>`lower(waitlist_entries.email)`, '=', confirmedAddressOf(eb, input.userId)),
			]),
		)
		.execute()
}
