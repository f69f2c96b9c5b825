import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { nextCohortStart, runCourseAgain } from '#app/models/courses/course-copies-admin.server.ts'
import { listCoursesWithAvailability } from '#app/models/courses/courses.server.ts'
import { deleteCourse } from '#app/models/courses/courses-admin.server.ts'
import { SeatUnavailableError } from '#app/models/enrollment/seats.server.ts'
import { joinWaitlist } from '#app/models/enrollment/waitlist.server.ts'
import { deleteMaterialItem, deleteWeek } from '#app/models/materials/materials-admin.server.ts'
import { findOrphanedMaterials } from '#app/models/materials/orphans.server.ts'
import { claimSeat } from '#app/models/payments/payments.server.ts'
import { action as publishAction } from '#app/routes/admin/course-publish.tsx'
import { action as runAgainAction, loader as runAgainLoader } from '#app/routes/admin/course-run-again.tsx'
import { loader as courseDetailLoader } from '#app/routes/public/course-detail.tsx'
import { loader as coursesLoader } from '#app/routes/public/courses.tsx'
import { action as enrollAction } from '#app/routes/register/enroll.tsx'
import { loader as materialFileLoader } from '#app/routes/resources/material-file.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAssignment,
	insertCourse,
	insertEnrollment,
	insertLiveSession,
	insertMaterialLink,
	insertMessage,
	insertPaymentPlan,
	insertSeatHold,
	insertUser,
	insertWeek,
	storeMaterialItem,
} from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
const COURSES = '/dashboard/admin/courses'
const ZONE = 'America/New_York'

/**
 * A course of three weeks in New York from Monday 1 March 2027: sessions on Mondays 18:00 (the
 * clocks change on 14 March), a file and a link, an assignment due the day after week 2's session,
 * and what its people did: an enrolment, a seat hold, a waitlist entry, an announcement.
 */
async function courseToCopy() {
	const admin = await insertUser(t.db, { role: 'admin' })
	const student = await insertUser(t.db, { role: 'student' })
	const course = await insertCourse(t.db, {
		title: 'Rental Mastery',
		description: 'Buy, rehab, rent.',
		start_date: '2027-03-01',
		end_date: '2027-03-21',
		capacity: 7,
		registration_fee: 250_000,
		time_zone: ZONE,
		schedule_weekday: 1,
		schedule_start_time: '18:00:00',
		schedule_minutes: 90,
		weeks_open_days_before: 3,
		reminder_first_minutes: 600,
		reminder_second_minutes: null,
		announce_week_open: false,
		waitlist_offer_hours: 12,
		outcomes: 'Find deals\nFinance them',
		duration_text: '3 weeks',
		refund_terms: 'Refunds until week 2.',
		meeting_link: 'https://zoom.us/j/course',
		attendance_present_percent: 70,
		completion_min_attendance_percent: 60,
		completion_requires_all_assignments: false,
		completion_passing_grade_percent: 65,
	})
	const week1 = await insertWeek(t.db, { courseId: course.id, weekNumber: 1, topic: 'Finding deals', zoomLink: 'https://zoom.us/j/1' })
	const week2 = await insertWeek(t.db, { courseId: course.id, weekNumber: 2, topic: 'Financing' })
	const file = await storeMaterialItem(t.db, files.storage, {
		courseId: course.id,
		weekId: week1,
		title: 'Deal checklist.pdf',
		bytes: new TextEncoder().encode('%PDF-1.4 checklist'),
		contentType: 'application/pdf',
	})
	await insertMaterialLink(t.db, { weekId: week2, url: 'https://www.youtube.com/watch?v=abc' })
	// The sessions as the schedule makes them: Mondays 18:00 New York, before and after the change to summer time.
	const sessions = [
		{ week: 1, startsAt: '2027-03-01T23:00:00Z', endsAt: '2027-03-02T00:30:00Z' },
		{ week: 2, startsAt: '2027-03-08T23:00:00Z', endsAt: '2027-03-09T00:30:00Z' },
		{ week: 3, startsAt: '2027-03-15T22:00:00Z', endsAt: '2027-03-15T23:30:00Z' },
	]
	for (const session of sessions) {
		await insertLiveSession(t.db, {
			courseId: course.id,
			weekNumber: session.week,
			startsAt: session.startsAt,
			endsAt: session.endsAt,
			timeZone: ZONE,
		})
	}
	// Week 2 opens at a time of the admin's: 9:00 on Saturday 6 March.
	await t.db
		.updateTable('live_sessions')
		.set({ opens_at: '2027-03-06T14:00:00Z' })
		.where('course_id', '=', course.id)
		.where('week_number', '=', 2)
		.execute()
	await insertAssignment(t.db, { course_id: course.id, week_id: week2, title: 'Deal analysis', due_at: new Date('2027-03-09T23:00:00Z') })
	await insertEnrollment(t.db, { userId: student, courseId: course.id })
	await insertSeatHold(t.db, { userId: await insertUser(t.db), courseId: course.id })
	await t.db
		.insertInto('waitlist_entries')
		.values({ course_id: course.id, email: 'waiting@example.com', name: 'Waiting', position: 1, token_hash: randomUUID() })
		.execute()
	await insertMessage(t.db, { sender_id: admin, course_id: course.id, is_announcement: true, content: 'Welcome' })
	const plan = await insertPaymentPlan(t.db, {
		courseId: course.id,
		offered: false,
		kind: 'deposit',
		deposit_cents: 50_000,
		instalment_count: 2,
		surcharge_cents: 12_500,
		grace_days: 10,
	})
	return { admin, plan, student, course, week1, week2, file }
}

async function runAgain(adminId: string, courseId: number, startDate: string, key = randomUUID()) {
	return runCourseAgain(t.db, { adminId, courseId, values: { title: 'Rental Mastery (next cohort)', startDate, key } })
}

describe('run again', () => {
	test('copies the course, its weeks, materials, assignments and sessions, moved to the new dates, as a draft; nothing of its people', async () => {
		const { admin, course, file, plan } = await courseToCopy()
		// Four weeks later: Monday 29 March, after the change to summer time.
		const copy = await runAgain(admin, course.id, '2027-03-29')
		expect(copy).toMatchObject({ created: true, title: 'Rental Mastery (next cohort)' })
		const row = await t.db.selectFrom('courses').selectAll().where('id', '=', copy!.id).executeTakeFirstOrThrow()
		const { id, title, start_date, end_date, created_at, updated_at, published, run_again_key, completion_evaluated_at, ...settings } = row
		const {
			id: _,
			title: __,
			start_date: ___,
			end_date: ____,
			created_at: _a,
			updated_at: _b,
			published: _c,
			run_again_key: _d,
			completion_evaluated_at: _e,
			...original
		} = course
		expect(settings).toEqual(original)
		expect({ title, start_date, end_date, published, completion_evaluated_at }).toEqual({
			title: 'Rental Mastery (next cohort)',
			start_date: '2027-03-29',
			end_date: '2027-04-18',
			published: false,
			completion_evaluated_at: null,
		})

		const weeks = await t.db
			.selectFrom('course_materials')
			.select(['id', 'week_number', 'topic', 'zoom_link'])
			.where('course_id', '=', copy!.id)
			.orderBy('week_number')
			.execute()
		expect(weeks.map(({ id: _id, ...week }) => week)).toEqual([
			{ week_number: 1, topic: 'Finding deals', zoom_link: 'https://zoom.us/j/1' },
			{ week_number: 2, topic: 'Financing', zoom_link: null },
		])
		const items = await t.db
			.selectFrom('material_items')
			.select(['material_id', 'title', 'storage_key', 'file_url'])
			.where(
				'material_id',
				'in',
				weeks.map((week) => week.id),
			)
			.orderBy('id')
			.execute()
		// The stored file is the old course's, not a copy of it.
		expect(items).toEqual([
			{ material_id: weeks[0]!.id, title: 'Deal checklist.pdf', storage_key: file.storage_key, file_url: null },
			{ material_id: weeks[1]!.id, title: 'YouTube: Replay', storage_key: null, file_url: 'https://www.youtube.com/watch?v=abc' },
		])

		const sessions = await t.db
			.selectFrom('live_sessions')
			.select(['week_number', 'starts_at', 'ends_at', 'opens_at', 'sequence'])
			.where('course_id', '=', copy!.id)
			.orderBy('week_number')
			.execute()
		// 18:00 in New York every Monday, now all summer time: 22:00 UTC.
		expect(
			sessions.map((session) => [
				session.week_number,
				session.starts_at.toISOString(),
				session.ends_at.toISOString(),
				session.opens_at?.toISOString() ?? null,
				session.sequence,
			]),
		).toEqual([
			[1, '2027-03-29T22:00:00.000Z', '2027-03-29T23:30:00.000Z', null, 0],
			[2, '2027-04-05T22:00:00.000Z', '2027-04-05T23:30:00.000Z', '2027-04-03T13:00:00.000Z', 0],
			[3, '2027-04-12T22:00:00.000Z', '2027-04-12T23:30:00.000Z', null, 0],
		])
		const assignments = await t.db
			.selectFrom('assignments')
			.select(['title', 'week_id', 'due_at', 'created_by'])
			.where('course_id', '=', copy!.id)
			.execute()
		// The payment plan: every column copied but the course and the row's own times.
		const planCopy = await t.db.selectFrom('course_payment_plans').selectAll().where('course_id', '=', copy!.id).executeTakeFirstOrThrow()
		const { course_id: _planCourse, created_at: _planCreated, updated_at: _planUpdated, ...planTerms } = planCopy
		const { course_id: _sourceCourse, created_at: _sourceCreated, updated_at: _sourceUpdated, ...sourceTerms } = plan
		expect(planTerms).toEqual(sourceTerms)
		expect(assignments).toEqual([
			{ title: 'Deal analysis', week_id: weeks[1]!.id, due_at: new Date('2027-04-06T22:00:00Z'), created_by: admin },
		])

		for (const table of [
			'enrollments',
			'seat_holds',
			'waitlist_entries',
			'messages',
			'registration_payments',
			'promotion_codes',
		] as const) {
			const rows = await t.db.selectFrom(table).select('course_id').where('course_id', '=', copy!.id).execute()
			expect(rows, table).toEqual([])
		}
		const audit = await t.db.selectFrom('audit_log').select(['action', 'actor_id']).where('entity_id', '=', String(copy!.id)).execute()
		expect(audit).toEqual([{ action: 'course.run_again', actor_id: admin }])
	})

	test('through the form: 404 for a course that does not exist, the date required, then to the draft materials with a toast', async () => {
		const { course } = await courseToCopy()
		const admin = await signedInUser(t.db, { role: 'admin' })
		const path = `${COURSES}/${course.id}/run-again`
		const form = await callRoute(runAgainLoader, getRequest(path, { cookie: admin.cookie }), { courseId: String(course.id) })
		const { key, course: shown } = await form.json()
		expect(shown).toMatchObject({ suggestedTitle: 'Rental Mastery (next cohort)', startDate: '2027-03-01' })

		const missing = await callRoute(
			runAgainAction,
			formRequest(`${COURSES}/999999/run-again`, { title: 'X', startDate: '2027-04-05', key }, { cookie: admin.cookie }),
			{ courseId: '999999' },
		)
		expect(missing.status).toBe(404)
		const noDate = await callRoute(runAgainAction, formRequest(path, { title: 'Next', startDate: '', key }, { cookie: admin.cookie }), {
			courseId: String(course.id),
		})
		expect(noDate.status).toBe(400)
		expect(JSON.stringify(await noDate.json())).toContain('Enter the start date of the new course')
		expect(await t.db.selectFrom('courses').select('id').where('title', '=', 'Next').execute()).toEqual([])

		const made = await callRoute(
			runAgainAction,
			formRequest(path, { title: 'Next', startDate: '2027-04-05', key }, { cookie: admin.cookie }),
			{ courseId: String(course.id) },
		)
		const copy = await t.db.selectFrom('courses').select('id').where('title', '=', 'Next').executeTakeFirstOrThrow()
		expect(made.headers.get('Location')).toBe(`${COURSES}/${copy.id}/materials`)
		expect(await toastOf(made)).toMatchObject({ title: '"Next" is a draft' })
	})

	test('the same form sent twice at the same moment makes one course', async () => {
		const { course } = await courseToCopy()
		const admin = await signedInUser(t.db, { role: 'admin' })
		const path = `${COURSES}/${course.id}/run-again`
		const key = randomUUID()
		const answers = await Promise.all(
			Array.from({ length: 6 }, () =>
				callRoute(runAgainAction, formRequest(path, { title: 'Twice', startDate: '2027-04-05', key }, { cookie: admin.cookie }), {
					courseId: String(course.id),
				}),
			),
		)
		const copies = await t.db.selectFrom('courses').select('id').where('title', '=', 'Twice').execute()
		expect(copies).toHaveLength(1)
		expect(new Set(answers.map((answer) => answer.headers.get('Location')))).toEqual(new Set([`${COURSES}/${copies[0]!.id}/materials`]))
		expect(await t.db.selectFrom('course_materials').select('id').where('course_id', '=', copies[0]!.id).execute()).toHaveLength(2)
	})
})

describe('a draft', () => {
	test('is hidden from the public list and page (but for admins), and refuses forged purchases and waitlist requests until published', async () => {
		const { admin, course } = await courseToCopy()
		const copy = (await runAgain(admin, course.id, '2031-03-03'))!
		const student = await signedInUser(t.db)
		const adminUser = await signedInUser(t.db, { role: 'admin' })
		const publicTitles = async () =>
			(await (await callRoute(coursesLoader, getRequest('/courses'))).json()).courses.map((listed: { id: number }) => listed.id)
		expect(await publicTitles()).not.toContain(copy.id)
		expect((await listCoursesWithAvailability(t.db)).map((listed) => listed.id)).not.toContain(copy.id)
		const detail = (cookie?: string) =>
			callRoute(courseDetailLoader, getRequest(`/courses/${copy.id}`, { cookie }), { id: String(copy.id) })
		expect((await detail()).status).toBe(404)
		expect((await detail(student.cookie)).status).toBe(404)
		expect((await detail(adminUser.cookie)).status).toBe(200)

		// A purchase posted for the draft anyway: the page refuses it, and so does the model under it.
		const purchase = await callRoute(
			enrollAction,
			formRequest(`/courses/${copy.id}/enroll`, { agreementVersion: '1' }, { cookie: student.cookie }),
			{ id: String(copy.id) },
		)
		expect(purchase.status).toBe(404)
		const claim = t.db.transaction().execute((trx) => claimSeat(trx, { userId: student.id, courseId: copy.id }))
		await expect(claim).rejects.toBeInstanceOf(SeatUnavailableError)
		const joined = await joinWaitlist(t.db, { name: 'Wanda', email: 'wanda@example.com', program: 'Next', courseId: copy.id, userId: null })
		expect(joined).toEqual({ kind: 'no-course' })
		for (const table of ['enrollments', 'seat_holds', 'waitlist_entries'] as const) {
			expect(await t.db.selectFrom(table).select('id').where('course_id', '=', copy.id).execute(), table).toEqual([])
		}

		const published = await callRoute(publishAction, formRequest(`${COURSES}/${copy.id}/publish`, {}, { cookie: adminUser.cookie }), {
			courseId: String(copy.id),
		})
		expect(await toastOf(published)).toMatchObject({ title: '"Rental Mastery (next cohort)" is published' })
		expect(await publicTitles()).toContain(copy.id)
		expect((await detail()).status).toBe(200)
		const audit = await t.db.selectFrom('audit_log').select('action').where('entity_id', '=', String(copy.id)).orderBy('id').execute()
		expect(audit.map((entry) => entry.action)).toEqual(['course.run_again', 'course.publish'])
		const claimed = await t.db.transaction().execute((trx) => claimSeat(trx, { userId: student.id, courseId: copy.id }))
		expect(claimed.kind).toBe('held')
	})

	test('a course added or existing before stays published; publish of a missing course is 404', async () => {
		const course = await insertCourse(t.db)
		expect(course.published).toBe(true)
		const adminUser = await signedInUser(t.db, { role: 'admin' })
		const missing = await callRoute(publishAction, formRequest(`${COURSES}/999999/publish`, {}, { cookie: adminUser.cookie }), {
			courseId: '999999',
		})
		expect(missing.status).toBe(404)
	})
})

describe('shared stored files', () => {
	async function downloads(itemId: number, cookie: string) {
		const response = await callRoute(materialFileLoader, getRequest(`/files/materials/${itemId}`, { cookie }), { itemId: String(itemId) })
		return response.status === 200 ? await response.text() : response.status
	}

	test('deleting the original material, week or course leaves the copy its file; no cleanup offers it', async () => {
		const { admin, course, week1, file } = await courseToCopy()
		const adminUser = await signedInUser(t.db, { role: 'admin' })
		const copy = (await runAgain(admin, course.id, '2027-04-05'))!
		const copied = await t.db
			.selectFrom('material_items')
			.innerJoin('course_materials', 'course_materials.id', 'material_items.material_id')
			.select('material_items.id')
			.where('course_materials.course_id', '=', copy.id)
			.where('material_items.storage_key', '=', file.storage_key)
			.executeTakeFirstOrThrow()

		expect(await deleteMaterialItem(t.db, files.storage, { adminId: admin, courseId: course.id, itemId: file.id })).not.toBeNull()
		expect(await downloads(copied.id, adminUser.cookie)).toBe('%PDF-1.4 checklist')
		expect(await deleteWeek(t.db, files.storage, { adminId: admin, courseId: course.id, weekId: week1 })).not.toBeNull()
		expect((await deleteCourse(t.db, admin, course.id, files.storage))?.filesRemoved).toBe(true)
		expect(await downloads(copied.id, adminUser.cookie)).toBe('%PDF-1.4 checklist')
		expect(await findOrphanedMaterials(t.db, files.storage, { graceMs: 0 })).toEqual([])

		// The last course that used it goes: then the file goes too.
		await deleteCourse(t.db, admin, copy.id, files.storage)
		expect(await files.storage.stat(file.storage_key!)).toBeNull()
	})
})

describe('the suggested start date', () => {
	test("is the course's weekday, on the first such day after both its end and today", () => {
		// Monday 3 March to Sunday 27 April 2031: the Monday after.
		expect(nextCohortStart('2031-03-03', '2031-04-27', '2026-11-29')).toBe('2031-04-28')
		// Ending on its own weekday: a week later, never the same day.
		expect(nextCohortStart('2031-03-03', '2031-04-28', '2026-11-29')).toBe('2031-05-05')
		// A course that ended long ago: the first of its weekday after today.
		expect(nextCohortStart('2024-01-01', '2024-02-26', '2026-11-29')).toBe('2026-11-30')
		// Without an end date: a week after the later of its start and today.
		expect(nextCohortStart('2031-03-03', null, '2026-11-29')).toBe('2031-03-10')
	})
})
