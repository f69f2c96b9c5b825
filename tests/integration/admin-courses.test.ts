import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { describe, expect, test, vi } from 'vitest'
import { action as courseDeleteAction, loader as courseDeleteLoader } from '#app/routes/admin/course-delete.tsx'
import { action as courseEditAction, loader as courseEditLoader } from '#app/routes/admin/course-edit.tsx'
import { COURSES_PER_PAGE, action as coursesAction, loader as coursesLoader } from '#app/routes/admin/courses.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard/index.tsx'
import { materialKey, submissionKey } from '#app/services/storage/keys.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	countRows,
	insertAssignment,
	insertCourse,
	insertEnrollment,
	insertMaterialItem,
	insertMaterialLink,
	insertMessage,
	insertMessageAttachment,
	insertPayment,
	insertSeatHold,
	insertSubmission,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { callRoute, cookiesFrom, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
const COURSES = '/dashboard/admin/courses'

async function courseRow(values: { title?: string; capacity?: number } = {}) {
	return insertCourse(t.db, { description: 'About it', capacity: 10, ...values })
}

const validCourse = {
	title: 'Rental Mastery',
	description: 'Buy, rehab, rent, refinance.',
	startDate: '2031-01-10',
	endDate: '2031-04-10',
	registrationFee: '2,500.00',
	capacity: '12',
}

describe('access', () => {
	test('every loader and action refuses a student (to /dashboard) and a visitor (to /login)', async () => {
		const student = await signedInUser(t.db, { role: 'student' })
		const course = await courseRow()
		const params = { courseId: String(course.id) }
		const calls = [
			{ fn: coursesLoader, path: COURSES, method: 'GET' },
			{ fn: coursesAction, path: COURSES, method: 'POST' },
			{ fn: courseEditLoader, path: `${COURSES}/${course.id}/edit`, method: 'GET' },
			{ fn: courseEditAction, path: `${COURSES}/${course.id}/edit`, method: 'POST' },
			{ fn: courseDeleteLoader, path: `${COURSES}/${course.id}/delete`, method: 'GET' },
			{ fn: courseDeleteAction, path: `${COURSES}/${course.id}/delete`, method: 'POST' },
		] as const
		for (const { fn, path, method } of calls) {
			for (const [cookie, target] of [
				[student.cookie, /^\/dashboard$/],
				[undefined, /^\/login\?redirectTo=/],
			] as const) {
				const request = method === 'GET' ? getRequest(path, { cookie }) : formRequest(path, validCourse, { cookie })
				const response = await callRoute(fn, request, params)
				expect(response.status, `${method} ${path}`).toBe(302)
				expect(response.headers.get('Location'), `${method} ${path}`).toMatch(target)
			}
		}
		expect(await t.db.selectFrom('courses').select('id').where('title', '=', validCourse.title).execute()).toEqual([])
		expect(await t.db.selectFrom('courses').select('id').where('id', '=', course.id).execute()).toHaveLength(1)
	})
})

describe('add course', () => {
	test('stores the course with the fee in cents, writes one audit row and redirects with the toast', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const before = await countRows(t.db, 'audit_log')
		const response = await callRoute(
			coursesAction,
			formRequest(COURSES, { ...validCourse, title: 'Add Test One' }, { cookie: admin.cookie }),
		)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(COURSES)
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Course added successfully' })
		const stored = await t.db.selectFrom('courses').selectAll().where('title', '=', 'Add Test One').executeTakeFirstOrThrow()
		expect(stored).toMatchObject({
			description: 'Buy, rehab, rent, refinance.',
			start_date: '2031-01-10',
			end_date: '2031-04-10',
			registration_fee: 250000,
			capacity: 12,
		})
		expect(await countRows(t.db, 'audit_log')).toBe(before + 1)
		const audit = await t.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
		expect(audit).toMatchObject({ actor_id: admin.id, action: 'course.create', entity: 'course', entity_id: String(stored.id) })
	})

	test('a description keeps its line breaks and tabs', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const title = `Multi-line ${randomUUID()}`
		const description = 'Week one:\r\n\tBuy\nWeek two: rent'
		const response = await callRoute(coursesAction, formRequest(COURSES, { ...validCourse, title, description }, { cookie: admin.cookie }))
		expect(response.status).toBe(302)
		const row = await t.db.selectFrom('courses').select('description').where('title', '=', title).executeTakeFirstOrThrow()
		expect(row.description).toBe(description)
	})

	test('rounds the fee to cents, counts a non-number fee as 0 and falls back to capacity 20', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		await callRoute(
			coursesAction,
			formRequest(COURSES, { ...validCourse, title: 'Rounded', registrationFee: '99.999' }, { cookie: admin.cookie }),
		)
		await callRoute(
			coursesAction,
			formRequest(COURSES, { ...validCourse, title: 'Fallbacks', registrationFee: 'free!', capacity: 'lots' }, { cookie: admin.cookie }),
		)
		const rows = await t.db
			.selectFrom('courses')
			.select(['title', 'registration_fee', 'capacity'])
			.where('title', 'in', ['Rounded', 'Fallbacks'])
			.execute()
		expect(rows).toEqual(
			expect.arrayContaining([
				{ title: 'Rounded', registration_fee: 10000, capacity: 12 },
				{ title: 'Fallbacks', registration_fee: 0, capacity: 20 },
			]),
		)
	})

	test("an invalid start date is that field's error alone: the end date is not said to come before it", async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const response = await callRoute(
			coursesAction,
			formRequest(
				COURSES,
				{ ...validCourse, title: 'Bad start', startDate: '2031-13-01', endDate: '2031-06-01' },
				{ cookie: admin.cookie },
			),
		)
		expect(response.status).toBe(400)
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error).toEqual({ startDate: ['Please enter a valid date as YYYY-MM-DD, for example 2026-12-01'] })
	})

	test.each([
		[{ title: '   ' }, 'title', 'Please fill in all required fields'],
		[{ description: '' }, 'description', 'Please fill in all required fields'],
		[{ capacity: '0' }, 'capacity', 'Capacity must be greater than 0'],
		[{ capacity: '-3' }, 'capacity', 'Capacity must be greater than 0'],
		[{ registrationFee: '-5' }, 'registrationFee', 'Registration fee cannot be negative'],
		[{ startDate: '2031-05-01', endDate: '2031-04-01' }, 'endDate', 'End date must be on or after the start date'],
		[{ startDate: '2031-02-30' }, 'startDate', 'Please enter a valid date as YYYY-MM-DD, for example 2026-12-01'],
		// What a browser without a date picker lets people type.
		[{ startDate: '12/01/2026' }, 'startDate', 'Please enter a valid date as YYYY-MM-DD, for example 2026-12-01'],
		[{ capacity: '1.5' }, 'capacity', 'Capacity must be a whole number'],
		[{ title: 'Rental\u0000Mastery' }, 'title', 'Title must not contain control characters'],
		[{ description: 'Week one:\r\n\tBuy\u0007' }, 'description', 'Description must not contain control characters'],
	])('refuses %o with the message on %s and writes nothing', async (change, field, message) => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const before = await countRows(t.db, 'audit_log')
		const title = `Refused ${randomUUID()}`
		const response = await callRoute(coursesAction, formRequest(COURSES, { ...validCourse, title, ...change }, { cookie: admin.cookie }))
		expect(response.status).toBe(400)
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error[field]).toEqual([message])
		expect(await t.db.selectFrom('courses').select('id').where('title', '=', title).execute()).toEqual([])
		expect(await countRows(t.db, 'audit_log')).toBe(before)
	})

	test('the loader lists courses with seats and, for ?dialog=raw, every column of every row', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseRow({ capacity: 3 })
		const plain = await callRoute(coursesLoader, getRequest(COURSES, { cookie: admin.cookie }))
		const data = (await plain.json()) as { courses: Array<{ id: number; capacity: number; spotsLeft: number }>; raw: unknown }
		expect(data.courses.find((row) => row.id === course.id)).toMatchObject({ capacity: 3, spotsLeft: 3 })
		expect(data.raw).toBeNull()

		const raw = await callRoute(coursesLoader, getRequest(`${COURSES}?dialog=raw`, { cookie: admin.cookie }))
		const rawData = (await raw.json()) as { raw: { rows: Array<Record<string, unknown>> } }
		const row = rawData.raw.rows.find((item) => item.id === course.id)
		expect(Object.keys(row!).sort()).toEqual(
			[
				'capacity',
				'created_at',
				'description',
				'end_date',
				'id',
				'registration_fee',
				'start_date',
				'title',
				'updated_at',
				// The schedule of live sessions (docs/decisions/031).
				'time_zone',
				'schedule_weekday',
				'schedule_start_time',
				'schedule_minutes',
				'weeks_open_days_before',
				'reminder_first_minutes',
				'reminder_second_minutes',
				'announce_week_open',
				'waitlist_offer_hours',
				// The school's own words (docs/decisions/043).
				'outcomes',
				'duration_text',
				'refund_terms',
				// The course's meeting link (docs/decisions/046).
				'meeting_link',
				// Drafts and the Run again form that made one (docs/decisions/045).
				'published',
				'run_again_key',
				// The share of a session that counts as present (docs/decisions/048).
				'attendance_present_percent',
				// The completion rule and when the end-of-course job applied it (docs/decisions/052).
				'completion_min_attendance_percent',
				'completion_requires_all_assignments',
				'completion_passing_grade_percent',
				'completion_evaluated_at',
			].sort(),
		)
	})
})

describe('edit course', () => {
	test('updates the course, writes one audit row and redirects with the toast', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseRow()
		const before = await countRows(t.db, 'audit_log')
		const path = `${COURSES}/${course.id}/edit`
		const response = await callRoute(
			courseEditAction,
			formRequest(path, { ...validCourse, title: 'Edited Title', registrationFee: '10.5', capacity: '7' }, { cookie: admin.cookie }),
			{ courseId: String(course.id) },
		)
		expect(response.status).toBe(302)
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Course updated successfully' })
		expect(await t.db.selectFrom('courses').selectAll().where('id', '=', course.id).executeTakeFirstOrThrow()).toMatchObject({
			title: 'Edited Title',
			registration_fee: 1050,
			capacity: 7,
		})
		expect(await countRows(t.db, 'audit_log')).toBe(before + 1)
	})

	test('refuses a capacity below the seats already taken', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseRow({ capacity: 5 })
		for (let i = 0; i < 3; i++) {
			const student = await signedInUser(t.db, { role: 'student' })
			await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
		}
		const before = await countRows(t.db, 'audit_log')
		const response = await callRoute(
			courseEditAction,
			formRequest(`${COURSES}/${course.id}/edit`, { ...validCourse, capacity: '2' }, { cookie: admin.cookie }),
			{ courseId: String(course.id) },
		)
		expect(response.status).toBe(400)
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error.capacity).toEqual(['Capacity cannot be less than the 3 seats already taken'])
		expect((await t.db.selectFrom('courses').select('capacity').where('id', '=', course.id).executeTakeFirstOrThrow()).capacity).toBe(5)
		expect(await countRows(t.db, 'audit_log')).toBe(before)
	})

	test('an unknown course is a 404', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const response = await callRoute(courseEditLoader, getRequest(`${COURSES}/999999/edit`, { cookie: admin.cookie }), {
			courseId: '999999',
		})
		expect(response.status).toBe(404)
	})
})

/**
 * A course with a week, a stored file and a link, an enrollment, a live seat hold, a payment,
 * an assignment with a stored submission, and a stray file under its prefix.
 */
async function populatedCourse() {
	const course = await courseRow({ capacity: 10 })
	const student = await signedInUser(t.db, { role: 'student' })
	const holder = await signedInUser(t.db, { role: 'student' })
	const week = { id: await insertWeek(t.db, { courseId: course.id, weekNumber: 1, topic: 'Deal analysis' }) }
	const itemKey = materialKey(course.id, week.id, 'material', 'slides.pdf')
	await files.storage.put(itemKey, new TextEncoder().encode('%PDF-1.4'), { contentType: 'application/pdf' })
	await insertMaterialItem(t.db, {
		courseId: course.id,
		weekId: week.id,
		title: 'Slides',
		storageKey: itemKey,
		mimeType: null,
		sizeBytes: null,
	})
	await insertMaterialLink(t.db, { weekId: week.id, title: 'YouTube: Intro', url: 'https://youtu.be/abc' })
	const strayKey = `courses/${course.id}/weeks/${week.id}/recording/${randomUUID()}-left-over.mp4`
	await files.storage.put(strayKey, new TextEncoder().encode('video'), { contentType: 'video/mp4' })
	await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
	await insertSeatHold(t.db, { userId: holder.id, courseId: course.id })
	await insertPayment(t.db, {
		user_id: student.id,
		course_id: course.id,
		course_title: course.title,
		customer_email: 'payer@example.com',
		status: 'paid',
	})
	const assignment = await insertAssignment(t.db, { course_id: course.id, title: 'Analyse a deal' })
	const submissionFile = submissionKey(assignment.id, student.id, 'answer.pdf')
	await files.storage.put(submissionFile, new TextEncoder().encode('%PDF-1.4'), { contentType: 'application/pdf' })
	await insertSubmission(t.db, {
		assignment_id: assignment.id,
		student_id: student.id,
		storage_key: submissionFile,
		file_name: 'answer.pdf',
	})
	// An announcement to the course's students, with a stored file: it goes with the course.
	const announcer = await signedInUser(t.db, { role: 'admin' })
	const announcement = await insertMessage(t.db, {
		sender_id: announcer.id,
		receiver_id: null,
		is_announcement: true,
		subject: 'Room',
		content: 'Room 4',
		course_id: course.id,
	})
	const announcementFile = `attachments/${announcer.id}/${randomUUID()}-room.txt`
	await files.storage.put(announcementFile, new TextEncoder().encode('room 4'), { contentType: 'text/plain' })
	await insertMessageAttachment(t.db, {
		message_id: announcement.id,
		name: 'room.txt',
		type: 'text/plain',
		size_bytes: 6,
		storage_key: announcementFile,
	})
	return { course, keys: [itemKey, strayKey, submissionFile, announcementFile] }
}

async function exists(key: string) {
	return (await files.storage.stat(key)) !== null
}

async function rowsOf(courseId: number) {
	const count = async (query: Promise<unknown[]>) => (await query).length
	return {
		courses: await count(t.db.selectFrom('courses').select('id').where('id', '=', courseId).execute()),
		weeks: await count(t.db.selectFrom('course_materials').select('id').where('course_id', '=', courseId).execute()),
		enrollments: await count(t.db.selectFrom('enrollments').select('id').where('course_id', '=', courseId).execute()),
		seatHolds: await count(t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute()),
		assignments: await count(t.db.selectFrom('assignments').select('id').where('course_id', '=', courseId).execute()),
		payments: await count(t.db.selectFrom('registration_payments').select('id').where('course_id', '=', courseId).execute()),
	}
}

describe('delete course', () => {
	test('the confirmation lists exactly what will be removed and that payments are kept', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const { course } = await populatedCourse()
		const response = await callRoute(courseDeleteLoader, getRequest(`${COURSES}/${course.id}/delete`, { cookie: admin.cookie }), {
			courseId: String(course.id),
		})
		expect(await response.json()).toEqual({
			course: { id: course.id, title: course.title },
			contents: {
				weeks: 1,
				files: 1,
				links: 1,
				enrollments: 1,
				seatHolds: 1,
				assignments: 1,
				submissions: 1,
				announcements: 1,
				payments: 1,
			},
		})
	})

	test('removes the course, its rows and its stored files; keeps the payment detached; one audit row', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const { course, keys } = await populatedCourse()
		const paymentsBefore = await t.db.selectFrom('registration_payments').select('id').where('course_id', '=', course.id).execute()
		const before = await countRows(t.db, 'audit_log')

		const response = await callRoute(courseDeleteAction, formRequest(`${COURSES}/${course.id}/delete`, {}, { cookie: admin.cookie }), {
			courseId: String(course.id),
		})
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(COURSES)
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Course and all associated data deleted successfully' })

		expect(await rowsOf(course.id)).toEqual({ courses: 0, weeks: 0, enrollments: 0, seatHolds: 0, assignments: 0, payments: 0 })
		const payment = await t.db
			.selectFrom('registration_payments')
			.selectAll()
			.where('id', '=', paymentsBefore[0]!.id)
			.executeTakeFirstOrThrow()
		expect(payment).toMatchObject({ course_id: null, course_title: course.title, status: 'paid' })
		for (const key of keys) expect(await exists(key), key).toBe(false)

		expect(await countRows(t.db, 'audit_log')).toBe(before + 1)
		const audit = await t.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
		expect(audit).toMatchObject({ actor_id: admin.id, action: 'course.delete', entity: 'course', entity_id: String(course.id) })
		expect(audit.details).toMatchObject({ title: course.title, weeks: 1, files: 1, enrollments: 1, payments: 1 })
	})

	test("the admin's remembered dashboard course is forgotten only when it is the deleted one", async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const [deleted, other] = [await courseRow(), await courseRow()]
		const selecting = await callRoute(dashboardLoader, getRequest(`/dashboard?course=${deleted.id}`, { cookie: admin.cookie }))
		const cookie = `${admin.cookie}; ${cookiesFrom(selecting)}`
		const remembered = (response: Response) => response.headers.getSetCookie().filter((line) => line.startsWith('selected-course='))
		const remove = (courseId: number) =>
			callRoute(courseDeleteAction, formRequest(`${COURSES}/${courseId}/delete`, {}, { cookie }), { courseId: String(courseId) })

		expect(remembered(await remove(other.id))).toEqual([])
		expect(remembered(await remove(deleted.id))).toEqual([expect.stringMatching(/^selected-course=; Max-Age=0/)])
	})

	test('a delete that fails half-way (the audit insert) leaves the database and the files unchanged', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const { course, keys } = await populatedCourse()
		const rowsBefore = await rowsOf(course.id)
		const before = await countRows(t.db, 'audit_log')
		await sql`CREATE FUNCTION fail_course_delete_audit() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN
				IF NEW.action = 'course.delete' THEN RAISE EXCEPTION 'audit insert failed on purpose'; END IF;
				RETURN NEW;
			END $$`.execute(t.db)
		await sql`CREATE TRIGGER fail_course_delete_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION fail_course_delete_audit()`.execute(
			t.db,
		)
		const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
		try {
			const response = await callRoute(courseDeleteAction, formRequest(`${COURSES}/${course.id}/delete`, {}, { cookie: admin.cookie }), {
				courseId: String(course.id),
			})
			expect(response.status).toBe(302)
			expect(await toastOf(response)).toMatchObject({ type: 'error', title: 'Failed to delete course. Please try again.' })
		} finally {
			await sql`DROP TRIGGER fail_course_delete_audit ON audit_log`.execute(t.db)
			await sql`DROP FUNCTION fail_course_delete_audit()`.execute(t.db)
		}
		expect(logged).toHaveBeenCalled()
		expect(await rowsOf(course.id)).toEqual(rowsBefore)
		expect(rowsBefore).toEqual({ courses: 1, weeks: 1, enrollments: 1, seatHolds: 1, assignments: 1, payments: 1 })
		for (const key of keys) expect(await exists(key), key).toBe(true)
		expect(await countRows(t.db, 'audit_log')).toBe(before)
	})

	test('a storage failure after commit is logged; the course is gone and the files stay as orphans', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const { course, keys } = await populatedCourse()
		vi.spyOn(files.storage, 'deleteMany').mockRejectedValue(new Error('bucket unreachable'))
		const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
		const response = await callRoute(courseDeleteAction, formRequest(`${COURSES}/${course.id}/delete`, {}, { cookie: admin.cookie }), {
			courseId: String(course.id),
		})
		expect(await toastOf(response)).toMatchObject({ type: 'warning', title: 'Course and all associated data deleted successfully' })
		expect(logged).toHaveBeenCalled()
		expect((await rowsOf(course.id)).courses).toBe(0)
		for (const key of keys) expect(await exists(key), key).toBe(true)
	})
})

describe('pages of the course grid (docs/decisions/038)', () => {
	type Page = { courses: Array<{ id: number }>; page: number; pageCount: number; total: number }
	const load = async (cookie: string, search: string) =>
		(await (await callRoute(coursesLoader, getRequest(`${COURSES}${search}`, { cookie }))).json()) as Page

	test('twelve courses a page, newest first; a page past the last shows the last, a malformed one the first', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		for (let n = 0; n < 14; n++) await courseRow()
		const newestFirst = (await t.db.selectFrom('courses').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').execute()).map(
			(row) => row.id,
		)
		const pageCount = Math.ceil(newestFirst.length / COURSES_PER_PAGE)
		expect(pageCount).toBeGreaterThan(1)

		const seen: number[] = []
		for (let page = 1; page <= pageCount; page++) {
			const shown = await load(admin.cookie, page === 1 ? '' : `?page=${page}`)
			expect(shown).toMatchObject({ page, pageCount, total: newestFirst.length })
			expect(shown.courses.length).toBe(page < pageCount ? COURSES_PER_PAGE : newestFirst.length - (pageCount - 1) * COURSES_PER_PAGE)
			seen.push(...shown.courses.map((course) => course.id))
		}
		expect(seen).toEqual(newestFirst)

		const last = await load(admin.cookie, '?page=999')
		expect(last.page).toBe(pageCount)
		expect(last.courses.map((course) => course.id)).toEqual(newestFirst.slice((pageCount - 1) * COURSES_PER_PAGE))
		for (const malformed of ['abc', '0', '-2', '1.5', '']) {
			const shown = await load(admin.cookie, `?page=${malformed}`)
			expect(shown.page, malformed).toBe(1)
			expect(shown.courses.map((course) => course.id)).toEqual(newestFirst.slice(0, COURSES_PER_PAGE))
		}
	})

	test('editing or deleting from the second page goes back to the second page', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseRow()
		const edited = await callRoute(
			courseEditAction,
			formRequest(`${COURSES}/${course.id}/edit?page=2`, validCourse, { cookie: admin.cookie }),
			{ courseId: String(course.id) },
		)
		expect(edited.status).toBe(302)
		expect(edited.headers.get('Location')).toBe(`${COURSES}?page=2`)
		const deleted = await callRoute(
			courseDeleteAction,
			formRequest(`${COURSES}/${course.id}/delete?page=2`, {}, { cookie: admin.cookie }),
			{
				courseId: String(course.id),
			},
		)
		expect(deleted.status).toBe(302)
		expect(deleted.headers.get('Location')).toBe(`${COURSES}?page=2`)
		expect(await toastOf(deleted)).toMatchObject({ type: 'success', title: 'Course and all associated data deleted successfully' })
	})
})

describe('a course in the school’s own words (docs/decisions/043)', () => {
	test('Add and Edit Course keep its outcomes, duration and refund terms; emptied, the program’s words come back', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const title = `Own Words ${randomUUID().slice(0, 6)}`
		const created = await callRoute(
			coursesAction,
			formRequest(
				COURSES,
				{ ...validCourse, title, outcomes: 'Find deals\nFund deals', durationText: '6 weeks', refundTerms: 'Full refund before week 2.' },
				{ cookie: admin.cookie },
			),
		)
		expect(created.status).toBe(302)
		const row = await t.db
			.selectFrom('courses')
			.select(['id', 'outcomes', 'duration_text', 'refund_terms'])
			.where('title', '=', title)
			.executeTakeFirstOrThrow()
		expect(row).toMatchObject({ outcomes: 'Find deals\nFund deals', duration_text: '6 weeks', refund_terms: 'Full refund before week 2.' })

		const params = { courseId: String(row.id) }
		const form = (await (
			await callRoute(courseEditLoader, getRequest(`${COURSES}/${row.id}/edit`, { cookie: admin.cookie }), params)
		).json()) as {
			words: Record<string, string>
		}
		expect(form.words).toEqual({ outcomes: 'Find deals\nFund deals', durationText: '6 weeks', refundTerms: 'Full refund before week 2.' })
		const edited = await callRoute(
			courseEditAction,
			formRequest(
				`${COURSES}/${row.id}/edit`,
				{ ...validCourse, title, outcomes: '  ', durationText: '', refundTerms: '' },
				{ cookie: admin.cookie },
			),
			params,
		)
		expect(edited.status).toBe(302)
		expect(
			await t.db.selectFrom('courses').select(['outcomes', 'duration_text', 'refund_terms']).where('id', '=', row.id).executeTakeFirst(),
		).toEqual({
			outcomes: null,
			duration_text: null,
			refund_terms: null,
		})
	})

	test.each([
		[{ durationText: 'x'.repeat(61) }, 'durationText', 'Duration must be at most 60 characters'],
		[{ durationText: 'Two\nlines' }, 'durationText', 'Duration must not contain control characters'],
		[
			{ outcomes: Array.from({ length: 21 }, (_, index) => `Outcome ${index}`).join('\n') },
			'outcomes',
			'Give at most 20 outcomes, one per line',
		],
		[{ refundTerms: 'y'.repeat(2001) }, 'refundTerms', 'Refund terms must be at most 2,000 characters'],
	])('refuses %o with a message under the field and writes nothing', async (fields, field, message) => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const before = await countRows(t.db, 'courses')
		const response = await callRoute(coursesAction, formRequest(COURSES, { ...validCourse, ...fields }, { cookie: admin.cookie }))
		expect(response.status).toBe(400)
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error[field]).toEqual([message])
		expect(await countRows(t.db, 'courses')).toBe(before)
	})
})
