import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely'
import { cleanText } from '#app/models/messaging/contact-submissions.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import { hashToken } from '#app/utils/session.server.ts'
import type { Database, WaitlistStatus } from '#db/types.ts'
import { countSeats, lockCourse, lockPublishedCourse, newWaitlistToken, offerFreedSeats } from './seat-offers.server.ts'
import type { WaitlistPlace } from './waitlist.ts'
import { sendWaitlistJoined, sendWaitlistNotice } from './waitlist-emails.server.ts'

export type WaitlistRequestInput = {
	name: string
	email: string
	phone?: string | null
	message?: string | null
	program: string
	/** The course whose queue to join; without one the request is only an inbox entry. */
	courseId?: number | null
	userId?: string | null
}

/** 'Waitlist request for: {program}', a newline, then what the visitor wrote (possibly nothing). */
function waitlistMessage(program: string, message?: string | null) {
	return `Waitlist request for: ${program}\n${message ? cleanText(message) : ''}`
}

/** Statuses of a place still in line: waiting, or holding an offer. */
const LIVE_WAITLIST_STATUSES = ['waiting', 'offered'] as const satisfies readonly WaitlistStatus[]

export type JoinedQueue =
	| { kind: 'queued'; entryId: number; position: number; alreadyQueued: boolean }
	| { kind: 'enrolled' }
	| { kind: 'no-course' }
	/** A seat is free and nobody is waiting: nothing to queue for (it can be bought now). */
	| { kind: 'seat-free' }

/**
 * Stores a waitlist request as a contact submission of kind 'waitlist' (the inbox record; a
 * second request for the same e-mail and program replaces the first and shows as unread again),
 * and, for a course, takes a place at the end of its queue (docs/decisions/034) and mails the
 * position. Someone already in the queue keeps their place; someone enrolled gets no place, nor
 * does anyone while a seat is free with nobody waiting (a place would hold that seat for an
 * address nobody has proved: joining must not be a way to block seats).
 */
export async function joinWaitlist(db: Kysely<Database>, input: WaitlistRequestInput): Promise<JoinedQueue> {
	const program = input.program.trim()
	return transaction(db, async (trx) => {
		const submission = await trx
			.insertInto('contact_submissions')
			.values({
				kind: 'waitlist',
				name: cleanText(input.name),
				email: input.email.trim(),
				phone: (input.phone && cleanText(input.phone)) || null,
				message: waitlistMessage(program, input.message),
				program,
			})
			.onConflict((conflict) =>
				conflict
					.expression(sql`lower(email), program`)
					.where('kind', '=', 'waitlist')
					.doUpdateSet((eb) => ({
						name: eb.ref('excluded.name'),
						email: eb.ref('excluded.email'),
						phone: eb.ref('excluded.phone'),
						message: eb.ref('excluded.message'),
						read: false,
					})),
			)
			.returning(['id'])
			.executeTakeFirstOrThrow()
		if (!input.courseId || !(await lockPublishedCourse(trx, input.courseId))) return { kind: 'no-course' } as const
		return queueUp(trx, { ...input, courseId: input.courseId, contactSubmissionId: submission.id })
	})
}

async function queueUp(
	trx: Transaction<Database>,
	input: WaitlistRequestInput & { courseId: number; contactSubmissionId: number },
): Promise<JoinedQueue> {
	const email = input.email.trim()
	const course = await countSeats(trx, input.courseId)
	const enrolled = await trx
		.selectFrom('enrollments')
		.innerJoin('users', 'users.id', 'enrollments.user_id')
		.leftJoin('profiles', 'profiles.id', 'users.id')
		.select(['users.email', 'profiles.name'])
		.where('enrollments.course_id', '=', input.courseId)
		.where('users.email', '=', email.toLowerCase())
		.executeTakeFirst()
	if (enrolled) {
		await sendWaitlistNotice(trx, {
			to: enrolled.email,
			name: enrolled.name ?? '',
			courseTitle: course.title,
			kind: 'enrolled',
			position: null,
		})
		return { kind: 'enrolled' }
	}
	const live = await trx
		.selectFrom('waitlist_entries')
		.select(['id', 'email', 'name', 'status'])
		.where('course_id', '=', input.courseId)
		.where('status', 'in', LIVE_WAITLIST_STATUSES)
		.where(sql<string>`lower(email)`, '=', email.toLowerCase())
		.executeTakeFirst()
	if (!live && course.taken < course.capacity) {
		const waiting = await trx
			.selectFrom('waitlist_entries')
			.select('id')
			.where('course_id', '=', input.courseId)
			.where('status', '=', 'waiting')
			.executeTakeFirst()
		if (!waiting) return { kind: 'seat-free' }
	}
	if (live) {
		// Anyone may type this address: the request changes nothing of the place, and only its owner hears of it.
		await trx
			.updateTable('waitlist_entries')
			.set({ contact_submission_id: input.contactSubmissionId, updated_at: new Date() })
			.where('id', '=', live.id)
			.execute()
		const position = await positionOf(trx, live.id)
		await sendWaitlistNotice(trx, {
			to: live.email,
			name: live.name,
			courseTitle: course.title,
			kind: 'in-line',
			position: live.status === 'waiting' ? position : null,
		})
		return { kind: 'queued', entryId: live.id, position, alreadyQueued: true }
	}
	const { token, hash } = newWaitlistToken()
	const entry = await trx
		.insertInto('waitlist_entries')
		.values((eb) => ({
			course_id: input.courseId,
			user_id: input.userId ?? null,
			contact_submission_id: input.contactSubmissionId,
			name: cleanText(input.name),
			email,
			position: eb
				.selectFrom('waitlist_entries')
				.select(sql<number>`coalesce(max(position), 0) + 1`.as('next'))
				.where('course_id', '=', input.courseId),
			token_hash: hash,
		}))
		.returning('id')
		.executeTakeFirstOrThrow()
	const position = await positionOf(trx, entry.id)
	await sendWaitlistJoined(trx, {
		to: email,
		name: cleanText(input.name),
		courseTitle: course.title,
		position,
		offerHours: course.waitlist_offer_hours,
		token,
	})
	await offerFreedSeats(trx, input.courseId)
	return { kind: 'queued', entryId: entry.id, position, alreadyQueued: false }
}

/** 1 for the first person waiting; an offered entry counts the people still waiting before it, plus one. */
async function positionOf(db: Kysely<Database>, entryId: number) {
	const row = await db
		.selectFrom('waitlist_entries as me')
		.select((eb) =>
			eb
				.selectFrom('waitlist_entries as other')
				.select(sql<number>`count(*)::int`.as('ahead'))
				.whereRef('other.course_id', '=', 'me.course_id')
				.where('other.status', '=', 'waiting')
				.whereRef('other.position', '<', 'me.position')
				.as('ahead'),
		)
		.where('me.id', '=', entryId)
		.executeTakeFirstOrThrow()
	return Number(row.ahead ?? 0) + 1
}

/** Waiting entries numbered in queue order (window function), for one course or for whoever matches. */
export function livePlaces(db: Kysely<Database>) {
	return db
		.selectFrom('waitlist_entries')
		.innerJoin('courses', 'courses.id', 'waitlist_entries.course_id')
		.select([
			'waitlist_entries.id',
			'waitlist_entries.course_id as courseId',
			'courses.title as courseTitle',
			'waitlist_entries.name',
			'waitlist_entries.email',
			'waitlist_entries.status',
			'waitlist_entries.joined_at as joinedAt',
			'waitlist_entries.offer_expires_at as offerExpiresAt',
			'waitlist_entries.position',
			sql<number>`(count(*) FILTER (WHERE waitlist_entries.status = 'waiting') OVER (PARTITION BY waitlist_entries.course_id ORDER BY waitlist_entries.position))::int`.as(
				'queuePosition',
			),
		])
}

export function toPlace(row: {
	id: number
	courseId: number
	courseTitle: string
	status: WaitlistStatus
	joinedAt: Date
	offerExpiresAt: Date | null
	queuePosition: number
}): WaitlistPlace {
	return {
		id: row.id,
		courseId: row.courseId,
		courseTitle: row.courseTitle,
		status: row.status,
		position: row.status === 'waiting' ? Number(row.queuePosition) : null,
		joinedAt: row.joinedAt.toISOString(),
		offerExpiresAt: row.status === 'offered' && row.offerExpiresAt ? row.offerExpiresAt.toISOString() : null,
	}
}

/** The places in line of one e-mail address (a signed-in user's), live ones only, for My Courses. */
export async function listPlacesOf(db: Kysely<Database>, email: string): Promise<WaitlistPlace[]> {
	const address = email.trim().toLowerCase()
	// Numbered within the courses this address waits for only, not across the whole table.
	const courses = db.selectFrom('waitlist_entries').select('course_id').where(sql<string>`lower(email)`, '=', address)
	const rows = await db
		.selectFrom(
			livePlaces(db)
				.where('waitlist_entries.status', 'in', LIVE_WAITLIST_STATUSES)
				.where('waitlist_entries.course_id', 'in', courses)
				.as('places'),
		)
		.selectAll()
		.where(sql<string>`lower(places.email)`, '=', address)
		.orderBy('places.joinedAt', 'desc')
		.execute()
	return rows.map(toPlace)
}

export type PlaceByToken = WaitlistPlace & {
	name: string
	email: string
	registrationFee: number
	startDate: string | null
	endDate: string | null
	/** The link is the entry's offer link (not only its place link). */
	isOfferLink: boolean
}

/** The entry a place or offer link points to (only the tokens' hashes are stored), or null. */
export async function getPlaceByToken(db: Kysely<Database>, token: string): Promise<PlaceByToken | null> {
	const hash = hashToken(token)
	const ofToken = (eb: ExpressionBuilder<Database, 'waitlist_entries'>) =>
		eb.or([eb('token_hash', '=', hash), eb('offer_token_hash', '=', hash)])
	const course = db.selectFrom('waitlist_entries').select('course_id').where(ofToken)
	const row = await db
		.selectFrom(livePlaces(db).where('waitlist_entries.course_id', 'in', course).as('places'))
		.innerJoin('waitlist_entries', 'waitlist_entries.id', 'places.id')
		.innerJoin('courses', 'courses.id', 'places.courseId')
		.selectAll('places')
		.select(['waitlist_entries.offer_token_hash', 'courses.registration_fee', 'courses.start_date', 'courses.end_date'])
		.where((eb) => eb.or([eb('waitlist_entries.token_hash', '=', hash), eb('waitlist_entries.offer_token_hash', '=', hash)]))
		.executeTakeFirst()
	if (!row) return null
	const offerOpen = row.status === 'offered' && row.offerExpiresAt !== null && row.offerExpiresAt.getTime() > Date.now()
	return {
		...toPlace({ ...row, status: row.status === 'offered' && !offerOpen ? 'expired' : row.status }),
		name: row.name,
		email: row.email,
		registrationFee: row.registration_fee,
		startDate: row.start_date,
		endDate: row.end_date,
		isOfferLink: row.offer_token_hash === hash,
	}
}

/**
 * Ends a live place: the person left the line, declined the offer, or an admin removed them.
 * An offer given up frees its seat, which goes to the next in line at once. False when the
 * place was no longer live (already ended, or an offer already claimed).
 */
export async function endPlace(
	trx: Transaction<Database>,
	courseId: number,
	entryId: number,
	status: 'left' | 'declined' | 'removed',
	{ onlyOffered = false } = {},
) {
	await lockCourse(trx, courseId)
	const ended = await trx
		.updateTable('waitlist_entries')
		.set({ status, updated_at: new Date() })
		.where('id', '=', entryId)
		.where('course_id', '=', courseId)
		.where('status', 'in', onlyOffered ? ['offered'] : LIVE_WAITLIST_STATUSES)
		.returning('id')
		.executeTakeFirst()
	if (!ended) return false
	await offerFreedSeats(trx, courseId)
	return true
}

async function courseOfEntry(db: Kysely<Database>, entryId: number) {
	const row = await db.selectFrom('waitlist_entries').select('course_id').where('id', '=', entryId).executeTakeFirst()
	return row?.course_id ?? null
}

/** The person leaves the line (a declined offer when it was offered). Matched by e-mail when `email` is given. */
export async function leaveWaitlist(db: Kysely<Database>, input: { entryId: number; email?: string }) {
	return transaction(db, async (trx) => {
		const entry = await trx.selectFrom('waitlist_entries').select(['course_id', 'email']).where('id', '=', input.entryId).executeTakeFirst()
		if (!entry) return false
		if (input.email !== undefined && entry.email.toLowerCase() !== input.email.trim().toLowerCase()) return false
		return endPlace(trx, entry.course_id, input.entryId, 'left')
	})
}

/** The person says no to an open offer: the seat goes to the next in line. */
export async function declineOffer(db: Kysely<Database>, entryId: number) {
	return transaction(db, async (trx) => {
		const courseId = await courseOfEntry(trx, entryId)
		return courseId !== null && endPlace(trx, courseId, entryId, 'declined', { onlyOffered: true })
	})
}

/**
 * Housekeeping on the job system's cron: offers whose time is up are closed and their seats
 * offered to the next in line; any seat left free with people waiting (a hold that ran out) is
 * offered. One transaction per course.
 */
export async function sweepWaitlistOffers(db: Kysely<Database>) {
	const courses = await db
		.selectFrom('waitlist_entries')
		.select('course_id')
		.distinct()
		.where((eb) =>
			eb.or([eb('status', '=', 'waiting'), eb.and([eb('status', '=', 'offered'), eb('offer_expires_at', '<=', sql<Date>`now()`)])]),
		)
		.execute()
	let offered = 0
	for (const { course_id: courseId } of courses) {
		offered += (await transaction(db, (trx) => offerFreedSeats(trx, courseId))).length
	}
	return offered
}
