import type { Kysely } from 'kysely'
import { courseLengthInWeeks } from '#app/models/courses/courses.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { Database } from '#db/types.ts'
import { WEEK_TOPIC_MESSAGES, type WeekTopicLine, type WeekTopicRow } from './week-topics.ts'

/**
 * The rows of the Week Topics form (docs/decisions/046): weeks 1 … N, N being the course's length
 * in weeks from its dates (the program's 8 without them), or more when a saved week or a live session
 * has a higher number. A week number saved twice shows its first row, the one every other view reads.
 * Null when the course does not exist.
 */
export async function listWeekTopics(db: Kysely<Database>, courseId: number): Promise<WeekTopicLine[] | null> {
	const [course, weeks, lastSession] = await Promise.all([
		db.selectFrom('courses').select(['start_date', 'end_date']).where('id', '=', courseId).executeTakeFirst(),
		firstWeekRows(db, courseId),
		db
			.selectFrom('live_sessions')
			.select((eb) => eb.fn.max('week_number').as('last'))
			.where('course_id', '=', courseId)
			.executeTakeFirst(),
	])
	if (!course) return null
	const count = Math.max(courseLengthInWeeks(course.start_date, course.end_date), lastSession?.last ?? 0, ...weeks.keys())
	return Array.from({ length: count }, (_, index) => {
		const week = weeks.get(index + 1)
		return { weekNumber: index + 1, topic: week?.topic ?? '', saved: week !== undefined }
	})
}

/** The first week row of each week number of a course (the one every view reads), by number. */
async function firstWeekRows(db: Kysely<Database>, courseId: number) {
	const rows = await db
		.selectFrom('course_materials')
		.select(['id', 'week_number as weekNumber', 'topic'])
		.distinctOn('week_number')
		.where('course_id', '=', courseId)
		.orderBy('week_number')
		.orderBy('id')
		.execute()
	return new Map(rows.map((row) => [row.weekNumber, row]))
}

export type WeekTopicsOutcome =
	| { ok: true; created: number; updated: number }
	/** Messages by the index of the row they belong to; nothing was written. */
	| { ok: false; rowErrors: Map<number, string> }

/**
 * Saves every row of the Week Topics form in one transaction: a week that does not exist yet is
 * made from its topic alone, a saved week takes its new topic, an empty row of an unsaved week is
 * left alone. A saved week's topic cannot be emptied (the week keeps its files and links): any such
 * row refuses the whole save, and nothing is written. The course row is locked first, as an upload
 * does, so two saves at once cannot make the same week twice. Null when the course does not exist.
 */
export async function saveWeekTopics(
	db: Kysely<Database>,
	{ adminId, courseId, rows }: { adminId: string; courseId: number; rows: WeekTopicRow[] },
): Promise<WeekTopicsOutcome | null> {
	return db.transaction().execute(async (trx) => {
		const course = await trx.selectFrom('courses').select('id').where('id', '=', courseId).forUpdate().executeTakeFirst()
		if (!course) return null
		const saved = await firstWeekRows(trx, courseId)
		const rowErrors = new Map<number, string>()
		rows.forEach((row, index) => {
			if (row.topic === null && saved.has(row.weekNumber)) rowErrors.set(index, WEEK_TOPIC_MESSAGES.topicRequired)
		})
		if (rowErrors.size > 0) return { ok: false, rowErrors }

		const now = new Date()
		const fresh = rows.filter((row) => row.topic !== null && !saved.has(row.weekNumber))
		const changed = rows.filter((row) => row.topic !== null && saved.has(row.weekNumber) && saved.get(row.weekNumber)!.topic !== row.topic)
		if (fresh.length > 0) {
			await trx
				.insertInto('course_materials')
				.values(fresh.map((row) => ({ course_id: courseId, week_number: row.weekNumber, topic: row.topic! })))
				.execute()
		}
		for (const row of changed) {
			await trx
				.updateTable('course_materials')
				.set({ topic: row.topic!, updated_at: now })
				.where('id', '=', saved.get(row.weekNumber)!.id)
				.execute()
		}
		if (fresh.length > 0 || changed.length > 0) {
			await recordAudit(trx, {
				actorId: adminId,
				action: 'weeks.topics',
				entity: 'course',
				entityId: courseId,
				details: {
					added: fresh.map((row) => ({ weekNumber: row.weekNumber, topic: row.topic })),
					changed: changed.map((row) => ({ weekNumber: row.weekNumber, from: saved.get(row.weekNumber)!.topic, to: row.topic })),
				},
			})
		}
		return { ok: true, created: fresh.length, updated: changed.length }
	})
}
