import type { Kysely, Transaction } from 'kysely'
import { Temporal } from 'temporal-polyfill'
import { requestDocumentPreviews } from '#app/models/materials/document-previews.server.ts'
import { addDays, daysBetween, shiftByDays, syncCourseSessions } from '#app/models/sessions/session-schedule.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { publishEvent } from '#app/services/events/publish.server.ts'
import type { Database } from '#db/types.ts'
import { nextCohortTitle, type RunAgainValues } from './course-copies.ts'

/*
 * Run again (issue 39, docs/decisions/045): a new course from an existing one, as a draft. What
 * the school made is copied (the course's settings, weeks, topics, materials, assignments and live
 * sessions, moved to the new dates), and its payment plan; what its people did is not (enrolments, seat holds, payments,
 * messages, announcements, the waitlist, promotion codes, submissions, grades). Stored files are
 * shared, not copied: the new material items name the same storage keys, and a file is removed
 * only when no item uses it any more (unsharedKeys).
 */

/** What the Run again form shows of the course it copies; null when there is none. */
export async function getRunAgainSource(db: Kysely<Database>, courseId: number) {
	const course = await db
		.selectFrom('courses')
		.select(['id', 'title', 'start_date', 'end_date', 'time_zone'])
		.where('id', '=', courseId)
		.executeTakeFirst()
	if (!course) return null
	return {
		id: course.id,
		title: course.title,
		startDate: course.start_date,
		endDate: course.end_date,
		suggestedTitle: nextCohortTitle(course.title),
		suggestedStartDate: course.start_date
			? nextCohortStart(course.start_date, course.end_date, Temporal.Now.plainDateISO(course.time_zone).toString())
			: null,
	}
}

/**
 * The start date the form suggests: the course's weekday, in whole weeks from its start, on the first
 * such day after both its end and today — so the weekly classes keep their day, and the copy neither
 * overlaps the cohort it comes from nor starts in the past.
 */
export function nextCohortStart(startDate: string, endDate: string | null, today: string) {
	const after = [endDate ?? startDate, today].sort().at(-1)!
	const weeks = Math.floor(daysBetween(startDate, after) / 7) + 1
	return addDays(startDate, weeks * 7)
}

export type RunAgainResult = { id: number; title: string; created: boolean }

async function copyOf(db: Kysely<Database>, key: string) {
	return db.selectFrom('courses').select(['id', 'title']).where('run_again_key', '=', key).executeTakeFirst()
}

/**
 * Makes the draft copy in one transaction, with its audit row. Dates move by the whole days from
 * the old start date to the new one (nothing moves when the old course had none): the end date,
 * each session and its week's opening at the same wall-clock time in the session's zone, each
 * assignment's due time in the course's zone. Sessions that follow the weekly schedule are then
 * brought in line with it from the new start. A second call with the same form key answers with
 * the copy the first made (`created: false`), even when both run at once. Null when the course
 * does not exist.
 */
export async function runCourseAgain(
	db: Kysely<Database>,
	{ adminId, courseId, values, now = new Date() }: { adminId: string; courseId: number; values: RunAgainValues; now?: Date },
): Promise<RunAgainResult | null> {
	const earlier = await copyOf(db, values.key)
	if (earlier) return { ...earlier, created: false }
	return db.transaction().execute(async (trx) => {
		// A share lock: the course cannot be deleted (and its files removed) while it is being copied.
		const source = await trx.selectFrom('courses').selectAll().where('id', '=', courseId).forShare().executeTakeFirst()
		if (!source) return null
		const days = source.start_date ? daysBetween(source.start_date, values.startDate) : 0
		const inserted = await trx
			.insertInto('courses')
			.values({
				title: values.title,
				description: source.description,
				start_date: values.startDate,
				end_date: source.end_date ? addDays(source.end_date, days) : null,
				capacity: source.capacity,
				registration_fee: source.registration_fee,
				time_zone: source.time_zone,
				schedule_weekday: source.schedule_weekday,
				schedule_start_time: source.schedule_start_time,
				schedule_minutes: source.schedule_minutes,
				weeks_open_days_before: source.weeks_open_days_before,
				reminder_first_minutes: source.reminder_first_minutes,
				reminder_second_minutes: source.reminder_second_minutes,
				announce_week_open: source.announce_week_open,
				waitlist_offer_hours: source.waitlist_offer_hours,
				outcomes: source.outcomes,
				duration_text: source.duration_text,
				refund_terms: source.refund_terms,
				meeting_link: source.meeting_link,
				attendance_present_percent: source.attendance_present_percent,
				completion_min_attendance_percent: source.completion_min_attendance_percent,
				completion_requires_all_assignments: source.completion_requires_all_assignments,
				completion_passing_grade_percent: source.completion_passing_grade_percent,
				// The new cohort has not ended: its rule is applied when it does (completion_evaluated_at stays null).
				published: false,
				run_again_key: values.key,
			})
			// The same form sent twice at once: the second insert waits for the first and then finds its key taken.
			.onConflict((conflict) => conflict.column('run_again_key').doNothing())
			.returning(['id', 'title'])
			.executeTakeFirst()
		if (!inserted) {
			const copy = await copyOf(trx, values.key)
			return copy ? { ...copy, created: false } : null
		}
		const copied = await copyContents(trx, { from: source.id, to: inserted.id, days, timeZone: source.time_zone, adminId })
		await syncCourseSessions(trx, inserted.id, now)
		await recordAudit(trx, {
			actorId: adminId,
			action: 'course.run_again',
			entity: 'course',
			entityId: inserted.id,
			details: {
				from: { id: source.id, title: source.title, startDate: source.start_date },
				title: values.title,
				startDate: values.startDate,
				...copied,
			},
		})
		await publishEvent(trx, { type: 'course.changed', courseId: inserted.id })
		return { ...inserted, created: true }
	})
}

async function copyContents(
	trx: Transaction<Database>,
	{ from, to, days, timeZone, adminId }: { from: number; to: number; days: number; timeZone: string; adminId: string },
) {
	const weeks = await trx.selectFrom('course_materials').selectAll().where('course_id', '=', from).orderBy('id').execute()
	const weekIds = new Map<number, number>()
	for (const week of weeks) {
		const copy = await trx
			.insertInto('course_materials')
			.values({ course_id: to, week_number: week.week_number, topic: week.topic, zoom_link: week.zoom_link })
			.returning('id')
			.executeTakeFirstOrThrow()
		weekIds.set(week.id, copy.id)
	}
	const items = weeks.length
		? await trx
				.selectFrom('material_items')
				.selectAll()
				.where('material_id', 'in', [...weekIds.keys()])
				.orderBy('id')
				// Share locks: an item deleted or given another file meanwhile waits for this copy, and its file's
				// removal, checked after that commit, then sees the copy's item using it.
				.forShare()
				.execute()
		: []
	if (items.length) {
		await trx
			.insertInto('material_items')
			.values(
				items.map((item) => ({
					material_id: weekIds.get(item.material_id)!,
					title: item.title,
					type: item.type,
					category: item.category,
					file_url: item.file_url,
					storage_key: item.storage_key,
					mime_type: item.mime_type,
					size_bytes: item.size_bytes,
					// A preview still being made belongs to the old item's job: the copy asks for its own below.
					preview_status: item.preview_status === 'pending' ? null : item.preview_status,
					preview_for_key: item.preview_status === 'pending' ? null : item.preview_for_key,
				})),
			)
			.execute()
		await requestDocumentPreviews(trx, { weekIds: [...weekIds.values()] })
	}
	const assignments = await trx.selectFrom('assignments').selectAll().where('course_id', '=', from).orderBy('id').execute()
	if (assignments.length) {
		await trx
			.insertInto('assignments')
			.values(
				assignments.map((assignment) => ({
					course_id: to,
					week_id: assignment.week_id === null ? null : (weekIds.get(assignment.week_id) ?? null),
					title: assignment.title,
					instructions: assignment.instructions,
					due_at: assignment.due_at ? shiftByDays(new Date(assignment.due_at), days, timeZone) : null,
					created_by: adminId,
				})),
			)
			.execute()
	}
	const sessions = await trx.selectFrom('live_sessions').selectAll().where('course_id', '=', from).orderBy('id').execute()
	if (sessions.length) {
		await trx
			.insertInto('live_sessions')
			.values(
				sessions.map((session) => ({
					course_id: to,
					week_number: session.week_number,
					starts_at: shiftByDays(new Date(session.starts_at), days, session.time_zone),
					ends_at: shiftByDays(new Date(session.ends_at), days, session.time_zone),
					time_zone: session.time_zone,
					status: session.status,
					note: session.note,
					rescheduled: session.rescheduled,
					opens_at: session.opens_at ? shiftByDays(new Date(session.opens_at), days, session.time_zone) : null,
				})),
			)
			.execute()
	}
	// The payment plan is the school's offer, like the price: copied whole (docs/decisions/054). Whether it
	// fits the new dates is checked for each purchase, as for any plan.
	const plan = await trx.selectFrom('course_payment_plans').selectAll().where('course_id', '=', from).executeTakeFirst()
	if (plan) {
		const { course_id: _from, created_at: _created, updated_at: _updated, ...terms } = plan
		await trx
			.insertInto('course_payment_plans')
			.values({ ...terms, course_id: to })
			.execute()
	}
	return {
		weeks: weeks.length,
		materials: items.length,
		assignments: assignments.length,
		sessions: sessions.length,
		paymentPlan: Boolean(plan),
	}
}

/** Makes a draft public (docs/decisions/045), with its audit row. Null when there is no such course. */
export async function publishCourse(db: Kysely<Database>, { adminId, courseId }: { adminId: string; courseId: number }) {
	return db.transaction().execute(async (trx) => {
		const course = await trx
			.selectFrom('courses')
			.select(['id', 'title', 'published'])
			.where('id', '=', courseId)
			.forUpdate()
			.executeTakeFirst()
		if (!course) return null
		if (course.published) return { id: course.id, title: course.title, published: false }
		await trx.updateTable('courses').set({ published: true, updated_at: new Date() }).where('id', '=', courseId).execute()
		await recordAudit(trx, {
			actorId: adminId,
			action: 'course.publish',
			entity: 'course',
			entityId: courseId,
			details: { title: course.title },
		})
		await publishEvent(trx, { type: 'course.changed', courseId })
		return { id: course.id, title: course.title, published: true }
	})
}

/** The draft's title for the Publish dialog; null when there is no such course. */
export async function getPublishSubject(db: Kysely<Database>, courseId: number) {
	return (await db.selectFrom('courses').select(['id', 'title', 'published']).where('id', '=', courseId).executeTakeFirst()) ?? null
}
