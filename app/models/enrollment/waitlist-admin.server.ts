/** The admin's side of the waitlist: a course's queue, moving and removing entries, offering a seat by hand, the offer hours. */

import type { Kysely } from 'kysely'
import { takenSeatsExpression } from '#app/models/courses/courses.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import { countSeats, lockCourse, offerSeatTo } from './seat-offers.server.ts'
import { endPlace, livePlaces, toPlace } from './waitlist.server.ts'

/** A course's queue for admins: live entries in queue order, then ended ones, newest first. */
export async function listCourseWaitlist(db: Kysely<Database>, courseId: number) {
	const course = await db
		.selectFrom('courses')
		.select((eb) => ['id', 'title', 'capacity', 'waitlist_offer_hours', takenSeatsExpression(eb).as('taken')])
		.where('id', '=', courseId)
		.executeTakeFirst()
	if (!course) return null
	const rows = await livePlaces(db).where('waitlist_entries.course_id', '=', courseId).orderBy('waitlist_entries.position').execute()
	const entries = rows.map((row) => ({ ...toPlace(row), name: row.name, email: row.email, queueOrder: row.position }))
	const live = entries.filter((entry) => entry.status === 'waiting' || entry.status === 'offered')
	const ended = entries.filter((entry) => entry.status !== 'waiting' && entry.status !== 'offered').reverse()
	return {
		course: {
			id: course.id,
			title: course.title,
			capacity: course.capacity,
			taken: Number(course.taken),
			offerHours: course.waitlist_offer_hours,
		},
		live,
		ended,
	}
}

/** Swaps a waiting entry with the waiting one before ('up') or after ('down') it. False when it cannot move. */
export async function moveWaitlistEntry(
	db: Kysely<Database>,
	actorId: string,
	input: { courseId: number; entryId: number; direction: 'up' | 'down' },
) {
	return transaction(db, async (trx) => {
		if (!(await lockCourse(trx, input.courseId))) return false
		const entry = await trx
			.selectFrom('waitlist_entries')
			.select(['id', 'position'])
			.where('id', '=', input.entryId)
			.where('course_id', '=', input.courseId)
			.where('status', '=', 'waiting')
			.executeTakeFirst()
		if (!entry) return false
		const neighbour = await trx
			.selectFrom('waitlist_entries')
			.select(['id', 'position'])
			.where('course_id', '=', input.courseId)
			.where('status', '=', 'waiting')
			.where('position', input.direction === 'up' ? '<' : '>', entry.position)
			.orderBy('position', input.direction === 'up' ? 'desc' : 'asc')
			.limit(1)
			.executeTakeFirst()
		if (!neighbour) return false
		// The unique (course, position) constraint is checked at commit, so the two may swap.
		await trx
			.updateTable('waitlist_entries')
			.set({ position: neighbour.position, updated_at: new Date() })
			.where('id', '=', entry.id)
			.execute()
		await trx
			.updateTable('waitlist_entries')
			.set({ position: entry.position, updated_at: new Date() })
			.where('id', '=', neighbour.id)
			.execute()
		await recordAudit(trx, {
			actorId,
			action: 'waitlist.move',
			entity: 'waitlist_entry',
			entityId: entry.id,
			details: { courseId: input.courseId, direction: input.direction },
		})
		return true
	})
}

export async function removeWaitlistEntry(db: Kysely<Database>, actorId: string, input: { courseId: number; entryId: number }) {
	return transaction(db, async (trx) => {
		const removed = await endPlace(trx, input.courseId, input.entryId, 'removed')
		if (removed) {
			await recordAudit(trx, { actorId, action: 'waitlist.remove', entity: 'waitlist_entry', entityId: input.entryId, details: input })
		}
		return removed
	})
}

export type HandOffer = { kind: 'offered'; capacityRaisedTo: number | null } | { kind: 'not-waiting' }

/**
 * An admin offers a seat to one waiting person, ahead of the line. With no seat free, the
 * course gets one more seat for it (the admin's decision to let this person in); the offer then
 * works like any other and, declined or expired, goes to the next in line.
 */
export async function offerSeatByHand(
	db: Kysely<Database>,
	actorId: string,
	input: { courseId: number; entryId: number },
): Promise<HandOffer> {
	return transaction(db, async (trx) => {
		if (!(await lockCourse(trx, input.courseId))) return { kind: 'not-waiting' }
		const entry = await trx
			.selectFrom('waitlist_entries')
			.select('id')
			.where('id', '=', input.entryId)
			.where('course_id', '=', input.courseId)
			.where('status', '=', 'waiting')
			.executeTakeFirst()
		if (!entry) return { kind: 'not-waiting' }
		let course = await countSeats(trx, input.courseId)
		let capacityRaisedTo: number | null = null
		if (course.taken >= course.capacity) {
			capacityRaisedTo = course.taken + 1
			await trx
				.updateTable('courses')
				.set({ capacity: capacityRaisedTo, updated_at: new Date() })
				.where('id', '=', input.courseId)
				.execute()
			course = await countSeats(trx, input.courseId)
		}
		await offerSeatTo(trx, course, entry.id)
		await recordAudit(trx, {
			actorId,
			action: 'waitlist.offer',
			entity: 'waitlist_entry',
			entityId: entry.id,
			details: { courseId: input.courseId, capacityRaisedTo },
		})
		return { kind: 'offered', capacityRaisedTo }
	})
}

/** How long this course's offers hold a seat; offers already out keep their end. */
export async function setOfferHours(db: Kysely<Database>, actorId: string, input: { courseId: number; hours: number }) {
	return transaction(db, async (trx) => {
		const updated = await trx
			.updateTable('courses')
			.set({ waitlist_offer_hours: input.hours, updated_at: new Date() })
			.where('id', '=', input.courseId)
			.returning('id')
			.executeTakeFirst()
		if (updated) {
			await recordAudit(trx, { actorId, action: 'waitlist.offer_hours', entity: 'course', entityId: input.courseId, details: input })
		}
		return Boolean(updated)
	})
}
