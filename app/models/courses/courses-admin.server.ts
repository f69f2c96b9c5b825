import { type Kysely, sql, type Transaction } from 'kysely'
import { offerFreedSeats } from '#app/models/enrollment/seat-offers.server.ts'
import { PREVIEW_PREFIX, unsharedKeys } from '#app/models/materials/stored-files.server.ts'
import { syncCourseSessions } from '#app/models/sessions/session-schedule.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { publishEvent } from '#app/services/events/publish.server.ts'
import { type FileStorage, getStorage } from '#app/services/storage/index.server.ts'
import type { Database } from '#db/types.ts'
import { takenSeatsExpression } from './courses.server.ts'
import type { CourseBasics } from './courses.ts'

export type CourseInput = CourseBasics & {
	timeZone: string
	/** The weekly live session, or null for none (docs/decisions/031). */
	schedule: { weekday: number; startTime: string; minutes: number } | null
	weeksOpenDaysBefore: number
	/** Null turns that reminder off. */
	reminderFirstMinutes: number | null
	reminderSecondMinutes: number | null
	announceWeekOpen: boolean
	/** The https link every week's session is joined by unless the week has its own; null for none. */
	meetingLink: string | null
	/** The share of a session a meeting report must show for present (docs/decisions/048); left out, the column's default or value stays. */
	attendancePresentPercent?: number
	/** The school's own words (docs/decisions/043); null shows the program's. */
	outcomes: string | null
	durationText: string | null
	refundTerms: string | null
}

/** An edit may not leave fewer seats than are already taken (enrollments plus live seat holds). */
export class CapacityBelowTakenError extends Error {
	readonly taken: number
	constructor(taken: number) {
		super(`Capacity cannot be less than the ${taken} ${taken === 1 ? 'seat' : 'seats'} already taken`)
		this.taken = taken
	}
}

function toRow(input: CourseInput) {
	return {
		title: input.title,
		description: input.description,
		start_date: input.startDate,
		end_date: input.endDate,
		capacity: input.capacity,
		registration_fee: input.registrationFee,
		time_zone: input.timeZone,
		schedule_weekday: input.schedule?.weekday ?? null,
		schedule_start_time: input.schedule?.startTime ?? null,
		schedule_minutes: input.schedule?.minutes ?? null,
		weeks_open_days_before: input.weeksOpenDaysBefore,
		reminder_first_minutes: input.reminderFirstMinutes,
		reminder_second_minutes: input.reminderSecondMinutes,
		announce_week_open: input.announceWeekOpen,
		meeting_link: input.meetingLink,
		attendance_present_percent: input.attendancePresentPercent,
		outcomes: input.outcomes,
		duration_text: input.durationText,
		refund_terms: input.refundTerms,
	}
}

/** The course's own words as its edit form shows them: empty where the program's are used. */
export async function getCourseWords(db: Kysely<Database>, courseId: number) {
	const row = await db
		.selectFrom('courses')
		.select(['outcomes', 'duration_text', 'refund_terms'])
		.where('id', '=', courseId)
		.executeTakeFirst()
	return row ? { outcomes: row.outcomes ?? '', durationText: row.duration_text ?? '', refundTerms: row.refund_terms ?? '' } : null
}

export async function createCourse(db: Kysely<Database>, actorId: string, input: CourseInput) {
	return db.transaction().execute(async (trx) => {
		const course = await trx.insertInto('courses').values(toRow(input)).returning(['id', 'title']).executeTakeFirstOrThrow()
		await syncCourseSessions(trx, course.id)
		await recordAudit(trx, { actorId, action: 'course.create', entity: 'course', entityId: course.id, details: { ...input } })
		await publishEvent(trx, { type: 'course.changed', courseId: course.id })
		return course
	})
}

/** Null when the course does not exist; throws CapacityBelowTakenError. */
export async function updateCourse(db: Kysely<Database>, actorId: string, id: number, input: CourseInput) {
	return db.transaction().execute(async (trx) => {
		// The row lock makes the seat count below final until commit (as in seats.server.ts).
		const before = await trx.selectFrom('courses').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
		if (!before) return null
		const { taken } = await trx
			.selectFrom('courses')
			.select((eb) => takenSeatsExpression(eb).as('taken'))
			.where('id', '=', id)
			.executeTakeFirstOrThrow()
		if (input.capacity < Number(taken)) throw new CapacityBelowTakenError(Number(taken))
		await trx
			.updateTable('courses')
			.set({ ...toRow(input), updated_at: new Date() })
			.where('id', '=', id)
			.execute()
		await syncCourseSessions(trx, id)
		await recordAudit(trx, {
			actorId,
			action: 'course.update',
			entity: 'course',
			entityId: id,
			details: {
				before: {
					title: before.title,
					description: before.description,
					startDate: before.start_date,
					endDate: before.end_date,
					capacity: before.capacity,
					registrationFee: before.registration_fee,
					timeZone: before.time_zone,
					schedule: before.schedule_weekday
						? { weekday: before.schedule_weekday, startTime: before.schedule_start_time, minutes: before.schedule_minutes }
						: null,
					weeksOpenDaysBefore: before.weeks_open_days_before,
					reminderFirstMinutes: before.reminder_first_minutes,
					reminderSecondMinutes: before.reminder_second_minutes,
					announceWeekOpen: before.announce_week_open,
					meetingLink: before.meeting_link,
					attendancePresentPercent: before.attendance_present_percent,
				},
				after: input,
			},
		})
		// More seats than before go to the waitlist first.
		if (input.capacity > before.capacity) await offerFreedSeats(trx, id)
		await publishEvent(trx, { type: 'course.changed', courseId: id })
		return { id, title: input.title }
	})
}

export type CourseContents = {
	weeks: number
	/** Stored files (uploads); links to video hosts are counted apart. */
	files: number
	links: number
	enrollments: number
	/** Seats held for checkouts still in progress. */
	seatHolds: number
	assignments: number
	submissions: number
	/** Announcements addressed to the course's students. */
	announcements: number
	/** Kept and detached (docs/decisions/003-payments-outlive-their-course.md). */
	payments: number
}

async function countCourseContents(db: Kysely<Database>, courseId: number): Promise<CourseContents> {
	const count = (value: unknown) => Number(value ?? 0)
	const row = await db
		.selectNoFrom((eb) => [
			eb.selectFrom('course_materials').select(eb.fn.countAll().as('n')).where('course_id', '=', courseId).as('weeks'),
			eb
				.selectFrom('material_items')
				.innerJoin('course_materials', 'course_materials.id', 'material_items.material_id')
				.select(eb.fn.countAll().as('n'))
				.where('course_materials.course_id', '=', courseId)
				.where('material_items.storage_key', 'is not', null)
				.as('files'),
			eb
				.selectFrom('material_items')
				.innerJoin('course_materials', 'course_materials.id', 'material_items.material_id')
				.select(eb.fn.countAll().as('n'))
				.where('course_materials.course_id', '=', courseId)
				.where('material_items.storage_key', 'is', null)
				.as('links'),
			eb.selectFrom('enrollments').select(eb.fn.countAll().as('n')).where('course_id', '=', courseId).as('enrollments'),
			eb
				.selectFrom('seat_holds')
				.select(eb.fn.countAll().as('n'))
				.where('course_id', '=', courseId)
				.where('expires_at', '>', sql<Date>`now()`)
				.as('seatHolds'),
			eb.selectFrom('assignments').select(eb.fn.countAll().as('n')).where('course_id', '=', courseId).as('assignments'),
			eb
				.selectFrom('assignment_submissions')
				.innerJoin('assignments', 'assignments.id', 'assignment_submissions.assignment_id')
				.select(eb.fn.countAll().as('n'))
				.where('assignments.course_id', '=', courseId)
				.as('submissions'),
			eb.selectFrom('messages').select(eb.fn.countAll().as('n')).where('course_id', '=', courseId).as('announcements'),
			eb.selectFrom('registration_payments').select(eb.fn.countAll().as('n')).where('course_id', '=', courseId).as('payments'),
		])
		.executeTakeFirstOrThrow()
	return {
		weeks: count(row.weeks),
		files: count(row.files),
		links: count(row.links),
		enrollments: count(row.enrollments),
		seatHolds: count(row.seatHolds),
		assignments: count(row.assignments),
		submissions: count(row.submissions),
		announcements: count(row.announcements),
		payments: count(row.payments),
	}
}

/** What deleting the course would remove (and keep), for the confirmation dialog. */
export async function getCourseDeletionSummary(db: Kysely<Database>, courseId: number) {
	const course = await db.selectFrom('courses').select(['id', 'title']).where('id', '=', courseId).executeTakeFirst()
	if (!course) return null
	return { course, contents: await countCourseContents(db, courseId) }
}

async function storedKeysOfCourse(trx: Transaction<Database>, courseId: number) {
	const materials = await trx
		.selectFrom('material_items')
		.innerJoin('course_materials', 'course_materials.id', 'material_items.material_id')
		.select('material_items.storage_key as key')
		.where('course_materials.course_id', '=', courseId)
		.where('material_items.storage_key', 'is not', null)
		.execute()
	const submissions = await trx
		.selectFrom('assignment_submissions')
		.innerJoin('assignments', 'assignments.id', 'assignment_submissions.assignment_id')
		.select('assignment_submissions.storage_key as key')
		.where('assignments.course_id', '=', courseId)
		.where('assignment_submissions.storage_key', 'is not', null)
		.execute()
	const announcementFiles = await trx
		.selectFrom('message_attachments')
		.innerJoin('messages', 'messages.id', 'message_attachments.message_id')
		.select('message_attachments.storage_key as key')
		.where('messages.course_id', '=', courseId)
		.execute()
	return [...materials, ...submissions, ...announcementFiles].map((row) => row.key).filter((key): key is string => key !== null)
}

/**
 * Removes stored files once the rows that referenced them are gone (after commit, so a
 * rolled-back delete never loses a file), but for those a material item of another course still
 * uses (a course run again shares them: unsharedKeys). A failure is only logged: the files stay in
 * the store, unreferenced, and the Orphaned Materials screen offers them for cleanup.
 */
export async function removeStoredFiles(db: Kysely<Database>, storage: FileStorage, keys: string[], prefixes: string[] = []) {
	try {
		const all = new Set(keys)
		for (const prefix of prefixes) {
			for await (const object of storage.list(prefix)) all.add(object.key)
		}
		const unshared = await unsharedKeys(db, [...all])
		if (unshared.length > 0) await storage.deleteMany(unshared)
		return true
	} catch (error) {
		console.error(
			'[admin] stored files could not be removed; they are left for the orphaned-materials cleanup',
			error instanceof Error ? error.message : error,
		)
		return false
	}
}

/**
 * Deletes a course and everything that hangs off it (weeks, items, enrollments, seat
 * holds, assignments and submissions, announcements to its students cascade) in one transaction with its audit row;
 * payments are kept, detached. Stored files go after commit. Null when there is no
 * such course.
 */
export async function deleteCourse(db: Kysely<Database>, actorId: string, courseId: number, storage: FileStorage = getStorage()) {
	const deleted = await db.transaction().execute(async (trx) => {
		const course = await trx.selectFrom('courses').select(['id', 'title']).where('id', '=', courseId).forUpdate().executeTakeFirst()
		if (!course) return null
		const contents = await countCourseContents(trx, courseId)
		const keys = await storedKeysOfCourse(trx, courseId)
		await trx.deleteFrom('courses').where('id', '=', courseId).execute()
		await recordAudit(trx, {
			actorId,
			action: 'course.delete',
			entity: 'course',
			entityId: courseId,
			details: { title: course.title, ...contents },
		})
		await publishEvent(trx, { type: 'course.changed', courseId })
		await publishEvent(trx, { type: 'enrollment.changed', courseId })
		return { course, contents, keys }
	})
	if (!deleted) return null
	const filesRemoved = await removeStoredFiles(db, storage, deleted.keys, [`courses/${courseId}/`, `${PREVIEW_PREFIX}courses/${courseId}/`])
	return { course: deleted.course, contents: deleted.contents, filesRemoved }
}

/** Every column of every course row, newest first: the debugging view. */
export async function listRawCourses(db: Kysely<Database>) {
	return db.selectFrom('courses').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
}
