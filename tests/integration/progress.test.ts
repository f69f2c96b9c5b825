/**
 * Progress (issue 40 point 2, docs/decisions/051): the file routes and the viewer record a student's
 * first open of each material once, however many opens arrive at once; the student's dashboard line
 * per course; the admin's roster — its cells, its at-risk rules, its orders, its CSV — in a fixed
 * number of queries, for admins only.
 */
import { parse } from 'csv-parse/sync'
import { beforeAll, describe, expect, test } from 'vitest'
import { progressLine, type RosterSession, riskFlags, type StudentCourseProgress } from '#app/models/enrollment/progress.ts'
import { loader as rosterLoader } from '#app/routes/admin/course-progress.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard/index.tsx'
import { loader as viewerLoader } from '#app/routes/dashboard/material-viewer.tsx'
import { loader as csvLoader } from '#app/routes/resources/course-progress-csv.ts'
import { loader as fileLoader } from '#app/routes/resources/material-file.ts'
import type { AttendanceStatus } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAssignment,
	insertAttendance,
	insertCourse,
	insertCourseWithWeek,
	insertEnrollment,
	insertLiveSession,
	insertMaterialItem,
	insertMaterialLink,
	insertMaterialOpen,
	insertSubmission,
	insertUsers,
	insertWeek,
	storeMaterialItem,
} from '#tests/support/fixtures.ts'
import { useQueryCounter } from '#tests/support/query-counter.ts'
import { callRoute, getRequest, sessionCookieFor, signedInUser } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
const DAY = 86_400_000
const PDF = new TextEncoder().encode('%PDF-1.4 a tiny stand-in for a PDF %%EOF')

let admin: { id: string; cookie: string }
beforeAll(async () => {
	admin = await signedInUser(t.db, { role: 'admin' })
})

const daysFromNow = (days: number) => new Date(Date.now() + days * DAY)
const isoDate = (moment: Date) => moment.toISOString().slice(0, 10)

async function opensOf(itemId: number) {
	return t.db.selectFrom('material_opens').selectAll().where('material_item_id', '=', itemId).execute()
}

describe('first opens', () => {
	/** A course whose first week holds one stored PDF. */
	async function courseWithPdf(title: string) {
		const { course, weekId } = await insertCourseWithWeek(t.db)
		const item = await storeMaterialItem(t.db, files.storage, {
			courseId: course.id,
			weekId,
			title,
			bytes: PDF,
			contentType: 'application/pdf',
		})
		return { course, weekId, item }
	}
	const fetchFile = (itemId: number, cookie: string) =>
		callRoute(fileLoader, getRequest(`/files/materials/${itemId}`, { cookie }), { itemId: String(itemId) })

	test('thirty opens of a file at once record one row; the viewer records links too; the first time stays', async () => {
		const { course, weekId, item } = await courseWithPdf('Guide.pdf')
		const student = await signedInUser(t.db)
		await insertEnrollment(t.db, { userId: student.id, courseId: course.id })

		const open = () => fetchFile(item.id, student.cookie)
		const responses = await Promise.all(Array.from({ length: 30 }, open))
		expect(responses.map((response) => response.status)).toEqual(Array(30).fill(200))
		await Promise.all(responses.map((response) => response.body?.cancel()))
		const [first, ...others] = await opensOf(item.id)
		expect(others).toEqual([])
		expect(first).toMatchObject({ user_id: student.id })

		await (await open()).body?.cancel()
		expect(await opensOf(item.id)).toEqual([first])

		const link = await insertMaterialLink(t.db, { weekId, url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' })
		const viewed = await callRoute(viewerLoader, getRequest(`/dashboard/materials/${link.id}`, { cookie: student.cookie }), {
			itemId: String(link.id),
		})
		expect(viewed.status).toBe(200)
		expect((await opensOf(link.id)).map((row) => row.user_id)).toEqual([student.id])
	})

	test('an admin, a stranger and a student whose enrolment ended record nothing', async () => {
		const { course, item } = await courseWithPdf('Notes.pdf')
		const stranger = await signedInUser(t.db)
		const former = await signedInUser(t.db)
		await insertEnrollment(t.db, { userId: former.id, courseId: course.id, status: 'inactive' })
		const statuses = []
		for (const cookie of [admin.cookie, stranger.cookie, former.cookie]) {
			const response = await fetchFile(item.id, cookie)
			await response.body?.cancel()
			statuses.push(response.status)
		}
		expect(statuses).toEqual([200, 403, 403])
		expect(await opensOf(item.id)).toEqual([])
	})
})

describe("the student's line", () => {
	// Wednesday 14 January 2026, 10 am in New York.
	const now = new Date('2026-01-14T15:00:00Z')
	const base: StudentCourseProgress = {
		courseId: 1,
		title: 'Rentals',
		startDate: '2025-12-31',
		endDate: '2026-02-24',
		timeZone: 'America/New_York',
		heldSessions: 3,
		attendedSessions: 2,
		overdueAssignments: 0,
		upcomingDueDates: [new Date('2026-01-16T22:00:00Z'), new Date('2026-02-03T22:00:00Z')],
		completed: false,
	}

	test('in the course: the week, the classes and the next assignment due with its weekday', () => {
		expect(progressLine(base, now)).toBe('Week 3 of 8 · 2 of 3 classes attended · 1 assignment due Fri')
		expect(progressLine({ ...base, upcomingDueDates: [new Date('2026-01-15T22:00:00Z'), ...base.upcomingDueDates] }, now)).toBe(
			'Week 3 of 8 · 2 of 3 classes attended · 2 assignments due, the next Thu',
		)
		expect(progressLine({ ...base, overdueAssignments: 1, upcomingDueDates: base.upcomingDueDates.slice(1) }, now)).toBe(
			'Week 3 of 8 · 2 of 3 classes attended · 1 assignment overdue · Next assignment due Tue 3 Feb',
		)
		expect(progressLine({ ...base, upcomingDueDates: [] }, now)).toBe('Week 3 of 8 · 2 of 3 classes attended · No assignments due')
		// The reader's own zone names the day: 5 pm Friday in New York is Saturday in Tokyo.
		expect(progressLine(base, now, 'Asia/Tokyo')).toBe('Week 3 of 8 · 2 of 3 classes attended · 1 assignment due Sat')
	})

	test('before the start, after the end and without dates', () => {
		const before = { ...base, startDate: '2026-02-02', endDate: '2026-03-29', heldSessions: 0, attendedSessions: 0, upcomingDueDates: [] }
		expect(progressLine(before, now)).toBe('Starts Mon 2 Feb · No classes held yet · No assignments due')
		const ended = { ...base, startDate: '2025-10-01', endDate: '2025-11-25', heldSessions: 8, attendedSessions: 7, upcomingDueDates: [] }
		expect(progressLine(ended, now)).toBe('Course ended · 7 of 8 classes attended')
		expect(progressLine({ ...ended, completed: true }, now)).toBe('Course ended · Completed · 7 of 8 classes attended')
		const undated = { ...base, startDate: null, endDate: null, heldSessions: 1, attendedSessions: 1, upcomingDueDates: [] }
		expect(progressLine(undated, now)).toBe('1 of 1 class attended · No assignments due')
	})

	test('the dashboard counts held classes, present or late, and the assignments not handed in', async () => {
		const start = daysFromNow(-15)
		const course = await insertCourse(t.db, {
			title: 'Counting course',
			time_zone: 'America/New_York',
			start_date: isoDate(start),
			end_date: isoDate(new Date(start.getTime() + 55 * DAY)),
		})
		const student = await signedInUser(t.db)
		await insertEnrollment(t.db, { userId: student.id, courseId: course.id, daysAgo: 20 })
		const session = (week: number, days: number) =>
			insertLiveSession(t.db, { courseId: course.id, weekNumber: week, startsAt: daysFromNow(days), endsAt: daysFromNow(days + 0.05) })
		const held = [await session(1, -14), await session(2, -7), await session(3, -1)]
		const cancelled = await session(4, -2)
		await t.db.updateTable('live_sessions').set({ status: 'cancelled' }).where('id', '=', cancelled).execute()
		await session(5, 6)
		const statuses: AttendanceStatus[] = ['present', 'late', 'absent']
		for (const [index, sessionId] of held.entries())
			await insertAttendance(t.db, { sessionId, userId: student.id, status: statuses[index] })
		const dueSoon = daysFromNow(2)
		await insertAssignment(t.db, { course_id: course.id, title: 'Due soon', due_at: dueSoon })
		const handedIn = await insertAssignment(t.db, { course_id: course.id, title: 'Handed in', due_at: daysFromNow(3) })
		await insertSubmission(t.db, { assignment_id: handedIn.id, student_id: student.id, body: 'Done' })
		await insertAssignment(t.db, { course_id: course.id, title: 'Later', due_at: daysFromNow(30) })

		const response = await callRoute(dashboardLoader, getRequest('/dashboard', { cookie: student.cookie }))
		const weekday = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', weekday: 'short' }).format(dueSoon)
		expect((await response.json()).progress).toEqual([
			{ courseId: course.id, title: 'Counting course', line: `Week 3 of 8 · 2 of 3 classes attended · 1 assignment due ${weekday}` },
		])
		const adminPage = await callRoute(dashboardLoader, getRequest('/dashboard', { cookie: admin.cookie }))
		expect((await adminPage.json()).progress).toBeUndefined()
	})
})

describe('the at-risk rules', () => {
	const now = new Date('2026-03-01T12:00:00Z')
	const sessions: RosterSession[] = [1, 2, 3, 4].map((week) => ({
		id: week,
		weekNumber: week,
		startsAt: new Date(now.getTime() - (5 - week) * 7 * DAY),
		endsAt: new Date(now.getTime() - (5 - week) * 7 * DAY + 3_600_000),
	}))
	const student = (attendance: Array<AttendanceStatus | null>, overrides = {}) => ({
		enrolledAt: new Date(now.getTime() - 60 * DAY),
		lastOpenedAt: new Date(now.getTime() - DAY),
		openedCount: 1,
		attendance: new Map(attendance.flatMap((status, index) => (status ? [[index + 1, status] as const] : []))),
		handedIn: new Set<number>(),
		...overrides,
	})
	const course = { takenSessions: sessions, assignments: [], openMaterials: 3 }
	const kinds = (flags: Array<{ kind: string }>) => flags.map((flag) => flag.kind)

	test('two classes missed in a row (nothing recorded is missed; excused is left out of the run)', () => {
		expect(riskFlags(student(['present', 'absent', null, 'present']), course, now)).toEqual([
			{ kind: 'missed-classes', reason: 'Missed two classes in a row (weeks 2 and 3)' },
		])
		expect(kinds(riskFlags(student(['absent', 'excused', 'absent', 'present']), course, now))).toEqual(['missed-classes'])
		expect(kinds(riskFlags(student(['absent', 'present', 'absent', 'late']), course, now))).toEqual([])
		// Classes before the enrolment are not theirs to miss.
		const lateJoiner = student([null, null, 'present', 'present'], { enrolledAt: new Date(now.getTime() - 15 * DAY) })
		expect(kinds(riskFlags(lateJoiner, course, now))).toEqual([])
	})

	test('nothing opened for seven days, since the enrolment if never, while something is left to open', () => {
		const idle = student(['present'], { lastOpenedAt: new Date(now.getTime() - 8 * DAY) })
		const noClasses = { ...course, takenSessions: [] }
		expect(riskFlags(idle, noClasses, now)).toEqual([{ kind: 'inactive', reason: 'Nothing opened for 8 days' }])
		const never = student(['present'], { lastOpenedAt: null, openedCount: 0, enrolledAt: new Date(now.getTime() - 10 * DAY) })
		expect(riskFlags(never, noClasses, now)).toEqual([{ kind: 'inactive', reason: 'Nothing opened since enrolling 10 days ago' }])
		const newcomer = student([], { lastOpenedAt: null, openedCount: 0, enrolledAt: new Date(now.getTime() - 3 * DAY) })
		expect(kinds(riskFlags(newcomer, noClasses, now))).toEqual([])
		expect(kinds(riskFlags({ ...idle, openedCount: 3 }, noClasses, now))).toEqual([])
	})

	test('an assignment past its due time not handed in', () => {
		const assignments = [
			{ id: 7, title: 'Deal memo', weekNumber: 1, dueAt: new Date(now.getTime() - DAY) },
			{ id: 8, title: 'Budget', weekNumber: 2, dueAt: new Date(now.getTime() + DAY) },
			{ id: 9, title: 'Reading', weekNumber: 2, dueAt: null },
		]
		const withAssignments = { ...course, takenSessions: [], assignments }
		expect(riskFlags(student([]), withAssignments, now)).toEqual([{ kind: 'overdue', reason: 'Overdue: Deal memo' }])
		expect(riskFlags(student([], { handedIn: new Set([7]) }), withAssignments, now)).toEqual([])
	})
})

/** A course of four weeks (three held and taken, one ahead) with `count` students who each did something different. */
async function rosterCourse(count: number, { title = 'Roster course' } = {}) {
	const course = await insertCourse(t.db, { title })
	const items: number[] = []
	const sessions: number[] = []
	for (const week of [1, 2, 3, 4]) {
		const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: week })
		items.push(await insertMaterialItem(t.db, { courseId: course.id, weekId, title: `Week ${week} notes.pdf` }))
		sessions.push(
			await insertLiveSession(t.db, {
				courseId: course.id,
				weekNumber: week,
				startsAt: daysFromNow((week - 4) * 7 + 1),
				endsAt: daysFromNow((week - 4) * 7 + 1.05),
			}),
		)
	}
	const assignment = await insertAssignment(t.db, { course_id: course.id, title: 'Deal memo', due_at: daysFromNow(-2) })
	const students = await insertUsers(t.db, count, { name: (index) => `Student ${String(index).padStart(3, '0')}` })
	for (const student of students) await insertEnrollment(t.db, { userId: student.id, courseId: course.id, daysAgo: 30 })
	await t.db
		.insertInto('material_opens')
		.values(
			students.flatMap((student, index) => items.slice(0, index % 4).map((itemId) => ({ user_id: student.id, material_item_id: itemId }))),
		)
		.execute()
	await t.db
		.insertInto('attendance')
		.values(
			students.flatMap((student, index) =>
				sessions.slice(0, 3).map((sessionId, order) => ({
					live_session_id: sessionId,
					user_id: student.id,
					status: (index + order) % 3 === 0 ? ('absent' as const) : ('present' as const),
					source: 'join_link' as const,
				})),
			),
		)
		.execute()
	await t.db
		.insertInto('assignment_submissions')
		.values(
			students
				.filter((_, index) => index % 2 === 0)
				.map((student) => ({ assignment_id: assignment.id, student_id: student.id, body: 'Memo' })),
		)
		.execute()
	return { course, items, sessions, students }
}

function loadRoster(courseId: number, cookie: string, query = '') {
	return callRoute(rosterLoader, getRequest(`/dashboard/admin/courses/${courseId}/progress${query}`, { cookie }), {
		courseId: String(courseId),
	})
}

describe('the roster', () => {
	test('shows each student by week, flags who is at risk and why, and sorts by the address', async () => {
		const course = await insertCourse(t.db, { title: 'Two students' })
		const weekOne = await insertWeek(t.db, { courseId: course.id, weekNumber: 1 })
		const weekTwo = await insertWeek(t.db, { courseId: course.id, weekNumber: 2 })
		const notes = await insertMaterialItem(t.db, { courseId: course.id, weekId: weekOne, title: 'Notes.pdf' })
		await insertMaterialItem(t.db, { courseId: course.id, weekId: weekOne, title: 'Recording.mp4', category: 'recording' })
		await insertMaterialItem(t.db, { courseId: course.id, weekId: weekTwo, title: 'Budget.xlsx' })
		const first = await insertLiveSession(t.db, {
			courseId: course.id,
			weekNumber: 1,
			startsAt: daysFromNow(-8),
			endsAt: daysFromNow(-7.95),
		})
		const second = await insertLiveSession(t.db, {
			courseId: course.id,
			weekNumber: 2,
			startsAt: daysFromNow(-1),
			endsAt: daysFromNow(-0.95),
		})
		const memo = await insertAssignment(t.db, { course_id: course.id, week_id: weekOne, title: 'Deal memo', due_at: daysFromNow(-3) })
		const [ada, bob] = await insertUsers(t.db, 2, { name: (index) => ['Ada Keen', 'Bob Behind'][index]! })
		for (const student of [ada!, bob!]) await insertEnrollment(t.db, { userId: student.id, courseId: course.id, daysAgo: 20 })
		await insertMaterialOpen(t.db, { userId: ada!.id, itemId: notes, openedAt: daysFromNow(-1) })
		await insertAttendance(t.db, { sessionId: first, userId: ada!.id, status: 'present' })
		await insertAttendance(t.db, { sessionId: second, userId: ada!.id, status: 'late' })
		await insertAttendance(t.db, { sessionId: first, userId: bob!.id, status: 'absent', source: 'hand' })
		await insertSubmission(t.db, { assignment_id: memo.id, student_id: ada!.id, body: 'Memo', status: 'graded', grade: 'A' })

		const response = await loadRoster(course.id, admin.cookie)
		expect(response.status).toBe(200)
		const { roster, rows, sort } = await response.json()
		expect(sort).toBe('risk')
		expect(roster.weeks.map((week: { weekNumber: number; materials: number }) => [week.weekNumber, week.materials])).toEqual([
			[1, 2],
			[2, 1],
		])
		expect(rows.map((row: { name: string }) => row.name)).toEqual(['Bob Behind', 'Ada Keen'])
		const [bobRow, adaRow] = rows
		expect(bobRow.flags.map((flag: { reason: string }) => flag.reason)).toEqual([
			'Missed two classes in a row (weeks 1 and 2)',
			'Nothing opened since enrolling 20 days ago',
			'Overdue: Deal memo',
		])
		expect(adaRow).toMatchObject({ flags: [], openedCount: 1, attendedSessions: 2, heldSessions: 2, handedIn: 1, graded: 1 })
		expect(adaRow.weeks).toEqual([
			{ opened: 1, attendance: 'present', handedIn: 1, graded: 1 },
			{ opened: 0, attendance: 'late', handedIn: 0, graded: 0 },
		])
		expect(bobRow.weeks[1]).toEqual({ opened: 0, attendance: 'not-recorded', handedIn: 0, graded: 0 })

		const order = async (query: string) =>
			(await (await loadRoster(course.id, admin.cookie, query)).json()).rows.map((row: { name: string }) => row.name)
		expect(await order('?sort=name')).toEqual(['Ada Keen', 'Bob Behind'])
		expect(await order('?sort=attendance')).toEqual(['Bob Behind', 'Ada Keen'])
		expect(await order('?sort=opened')).toEqual(['Bob Behind', 'Ada Keen'])
		// An unknown order is the default, not an error.
		expect(await order('?sort=%3Cscript%3E')).toEqual(['Bob Behind', 'Ada Keen'])
	})

	test('the CSV has one line per student in the chosen order, a safe file name and no formulas', async () => {
		const { course, students } = await rosterCourse(3, { title: 'Flip & Hold: "Week" 1/2' })
		await t.db
			.updateTable('profiles')
			.set({ name: '=HYPERLINK("http://evil.example","Click")' })
			.where('id', '=', students[0]!.id)
			.execute()
		const response = await callRoute(
			csvLoader,
			getRequest(`/dashboard/admin/courses/${course.id}/progress.csv?sort=name`, { cookie: admin.cookie }),
			{
				courseId: String(course.id),
			},
		)
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
		expect(response.headers.get('Content-Disposition')).toMatch(
			/^attachment; filename="progress-flip-hold-week-1-2-\d{4}-\d{2}-\d{2}\.csv"$/,
		)
		const [header, ...lines] = parse(await response.text()) as string[][]
		expect(header!.slice(0, 12)).toEqual([
			'Student',
			'Email',
			'Enrolled',
			'Classes attended',
			'Classes held',
			'Materials opened',
			'Materials',
			'Assignments handed in',
			'Assignments graded',
			'Assignments',
			'Last opened',
			'At risk',
		])
		expect(header!.slice(12, 15)).toEqual(['Week 1 opened', 'Week 1 class', 'Week 1 handed in'])
		expect(lines.map((line) => line[0])).toEqual(['\'=HYPERLINK("http://evil.example","Click")', 'Student 001', 'Student 002'])
		expect(lines[1]!.slice(3, 7)).toEqual(['2', '3', '1', '4'])
		expect(lines[1]![13]).toBe('present')
	})

	test('only admins: a student of the course is sent away, a visitor to log in; an unknown course is 404', async () => {
		const { course, students } = await rosterCourse(2)
		const cookie = await sessionCookieFor(students[0]!.id)
		for (const load of [rosterLoader, csvLoader]) {
			const asStudent = await callRoute(load, getRequest(`/dashboard/admin/courses/${course.id}/progress`, { cookie }), {
				courseId: String(course.id),
			})
			expect(asStudent.status).toBe(302)
			expect(asStudent.headers.get('Location')).toMatch(/^\/dashboard(\?|$)/)
			const anonymous = await callRoute(load, getRequest(`/dashboard/admin/courses/${course.id}/progress`), { courseId: String(course.id) })
			expect(anonymous.headers.get('Location')).toMatch(/^\/login/)
			for (const courseId of ['2000000000', 'abc']) {
				expect(
					(await callRoute(load, getRequest(`/dashboard/admin/courses/${courseId}/progress`, { cookie: admin.cookie }), { courseId }))
						.status,
				).toBe(404)
			}
		}
	})
})

describe('query counts', () => {
	const counter = useQueryCounter(t)

	test('the roster and its CSV issue the same statements with 10 and with 200 students', async () => {
		const count = async (students: number) => {
			const { course } = await rosterCourse(students)
			const counts: number[] = []
			for (const load of [rosterLoader, csvLoader]) {
				let status = 0
				const statements = await counter.record(async () => {
					const response = await callRoute(load, getRequest(`/dashboard/admin/courses/${course.id}/progress`, { cookie: admin.cookie }), {
						courseId: String(course.id),
					})
					status = response.status
					if (load === rosterLoader) expect((await response.json()).rows).toHaveLength(students)
				})
				expect(status).toBe(200)
				counts.push(statements.length)
			}
			return counts
		}
		const small = await count(10)
		const large = await count(200)
		expect(large).toEqual(small)
		for (const statements of small) expect(statements).toBeLessThanOrEqual(12)
	})
})
