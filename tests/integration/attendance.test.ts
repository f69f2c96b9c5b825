/**
 * Attendance of live sessions (issue 40 point 1, docs/decisions/048): the join link records a join
 * inside its window, once however many clicks; a meeting report is read in the shapes Zoom exports,
 * matched by e-mail then name, summed, judged against the course's threshold, previewed and then
 * imported once; the roster's hand-set status wins and says who set it.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { MAX_REPORT_BYTES, MAX_REPORT_ROWS } from '#app/models/sessions/attendance.ts'
import { applyImport, getAttendanceSession, getImportPreview, planImport } from '#app/models/sessions/attendance-admin.server.ts'
import { parseParticipantReport, parseReportTime, ReportError } from '#app/models/sessions/participant-reports.server.ts'
import { action as importAction, loader as importLoader } from '#app/routes/admin/attendance-import.tsx'
import { action as rosterAction, loader as rosterLoader } from '#app/routes/admin/session-attendance.tsx'
import { loader as joinLoader } from '#app/routes/resources/session-join.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertLiveSession, insertUser, insertWeek } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/zoom')
const report = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8')
const MINUTE = 60_000

type Student = { id: string; cookie: string }
let admin: { id: string; cookie: string }
let students: { ada: Student; grace: Student; alan: Student; katherine: Student }

async function student(name: string, email: string): Promise<Student> {
	const id = await insertUser(t.db, { name, email })
	return { id, cookie: await sessionCookieFor(id) }
}

beforeAll(async () => {
	const adminId = await insertUser(t.db, { role: 'admin', name: 'Ada Admin' })
	admin = { id: adminId, cookie: await sessionCookieFor(adminId) }
	students = {
		ada: await student('Ada Lovelace', 'ada@example.com'),
		grace: await student('Grace Hopper', 'grace@example.com'),
		alan: await student('Alan Turing', 'alan@example.com'),
		katherine: await student('Katherine Johnson', 'katherine@example.com'),
	}
})

/** A course whose week 1 has a call link and a 60-minute session at `startsAt`, with the four students enrolled. */
async function courseWithSession(startsAt = new Date('2026-01-14T00:00:00Z'), { presentPercent = 50 } = {}) {
	const course = await insertCourse(t.db, { time_zone: 'America/New_York', attendance_present_percent: presentPercent })
	await insertWeek(t.db, { courseId: course.id, weekNumber: 1, topic: 'Offers', zoomLink: 'https://zoom.us/j/4242' })
	const sessionId = await insertLiveSession(t.db, { courseId: course.id, startsAt, endsAt: new Date(startsAt.getTime() + 60 * MINUTE) })
	for (const one of Object.values(students)) await insertEnrollment(t.db, { userId: one.id, courseId: course.id })
	return { courseId: course.id, sessionId }
}

async function attendanceOf(sessionId: number) {
	const rows = await t.db
		.selectFrom('attendance')
		.select(['user_id', 'status', 'minutes', 'source', 'set_by', 'updated_at'])
		.where('live_session_id', '=', sessionId)
		.execute()
	return Object.fromEntries(rows.map((row) => [row.user_id, row]))
}

function join(sessionId: number, cookie: string) {
	return callRoute(joinLoader, getRequest(`/dashboard/sessions/${sessionId}/join`, { cookie }), { liveSessionId: String(sessionId) })
}

describe('the join link', () => {
	test('inside the window it records the join and sends the student to the meeting; 30 clicks at once record one join', async () => {
		const { sessionId } = await courseWithSession(new Date(Date.now() + 10 * MINUTE))
		const responses = await Promise.all(Array.from({ length: 30 }, () => join(sessionId, students.ada.cookie)))
		expect(responses.map((response) => response.status)).toEqual(Array(30).fill(302))
		expect(new Set(responses.map((response) => response.headers.get('Location')))).toEqual(new Set(['https://zoom.us/j/4242']))
		const joins = await t.db.selectFrom('session_joins').selectAll().where('live_session_id', '=', sessionId).execute()
		expect(joins.map((row) => row.user_id)).toEqual([students.ada.id])
		expect(await attendanceOf(sessionId)).toEqual({
			[students.ada.id]: expect.objectContaining({ status: 'present', source: 'join_link', minutes: null, set_by: null }),
		})
	})

	test('before the window, after the end and when cancelled nothing is recorded and the dashboard says why', async () => {
		const early = await courseWithSession(new Date(Date.now() + 16 * MINUTE))
		const tooEarly = await join(early.sessionId, students.ada.cookie)
		expect(tooEarly.headers.get('Location')).toBe(`/dashboard?course=${early.courseId}`)
		expect((await toastOf(tooEarly))?.title).toBe('The join link opens 15 minutes before the start')

		const over = await courseWithSession(new Date(Date.now() - 61 * MINUTE))
		expect((await toastOf(await join(over.sessionId, students.ada.cookie)))?.title).toBe('This live session has ended')

		const cancelled = await courseWithSession(new Date(Date.now() + 5 * MINUTE))
		await t.db.updateTable('live_sessions').set({ status: 'cancelled' }).where('id', '=', cancelled.sessionId).execute()
		expect((await toastOf(await join(cancelled.sessionId, students.ada.cookie)))?.title).toBe('This live session is cancelled')

		for (const sessionId of [early.sessionId, over.sessionId, cancelled.sessionId]) expect(await attendanceOf(sessionId)).toEqual({})
		// The last minute before the end still counts.
		const ending = await courseWithSession(new Date(Date.now() - 59 * MINUTE))
		expect((await join(ending.sessionId, students.grace.cookie)).headers.get('Location')).toBe('https://zoom.us/j/4242')
	})

	test('only an enrolled student with full access joins: anyone else gets 404; an admin passes through unrecorded', async () => {
		const { courseId, sessionId } = await courseWithSession(new Date(Date.now() + 5 * MINUTE))
		for (const [who, status] of [
			[students.alan, 'completed'],
			[students.grace, 'inactive'],
		] as const) {
			await t.db.updateTable('enrollments').set({ status }).where('user_id', '=', who.id).where('course_id', '=', courseId).execute()
		}
		const stranger = await student('Stranger', 'stranger@example.com')
		for (const cookie of [stranger.cookie, students.alan.cookie, students.grace.cookie])
			expect((await join(sessionId, cookie)).status).toBe(404)
		expect((await join(2_000_000_000, students.ada.cookie)).status).toBe(404)
		expect((await join(sessionId, admin.cookie)).headers.get('Location')).toBe('https://zoom.us/j/4242')
		expect(await attendanceOf(sessionId)).toEqual({})
	})

	test('a report or an admin already set wins over a later join', async () => {
		const { sessionId } = await courseWithSession(new Date(Date.now() + 5 * MINUTE))
		await t.db
			.insertInto('attendance')
			.values({ live_session_id: sessionId, user_id: students.ada.id, status: 'excused', source: 'hand', set_by: admin.id })
			.execute()
		await join(sessionId, students.ada.cookie)
		expect((await attendanceOf(sessionId))[students.ada.id]).toMatchObject({ status: 'excused', source: 'hand' })
	})
})

describe('reading a participant report', () => {
	test('the export with a meeting details block and MM/DD/YYYY hh:mm:ss AM/PM times: a row per join, with its line', () => {
		const rows = parseParticipantReport(report('participants-with-meeting-details.csv'))
		expect(rows.map((row) => [row.line, row.name, row.email, row.minutes])).toEqual([
			[6, 'Coach Sam', 'coach@school.example', 69],
			[7, 'Ada Lovelace', 'ADA@example.com', 63],
			[8, 'Grace H (Grace Hopper)', 'grace@example.com', 30],
			[9, 'Alan Turing', 'alan.t@mail.example', 20],
			[10, 'iPhone (Linus)', '', 8],
			[11, 'Grace H (Grace Hopper)', 'grace@example.com', 25],
		])
		expect(rows[2]!.names).toEqual(['Grace H (Grace Hopper)', 'Grace H', 'Grace Hopper'])
	})

	test("the newer headers ('Email', 'Total duration (minutes)') and, without a duration, the minutes from the join and leave times", () => {
		expect(parseParticipantReport(report('participants-unique-users.csv')).map((row) => [row.name, row.minutes])).toEqual([
			['Ada Lovelace', 50],
			['Grace Hopper', 19],
		])
		expect(parseParticipantReport(report('participants-without-duration.csv')).map((row) => [row.name, row.minutes])).toEqual([
			['Ada Lovelace', 45],
			['Alan Turing', 10],
		])
		expect(parseReportTime('01/13/2026 07:01:44 PM')).toBe(Date.UTC(2026, 0, 13, 19, 1, 44))
		expect(parseReportTime('13/01/2026 19:00')).toBe(Date.UTC(2026, 0, 13, 19, 0, 0))
		expect(parseReportTime('2026-01-13 19:00:02')).toBe(Date.UTC(2026, 0, 13, 19, 0, 2))
		expect(parseReportTime('01/13/2026 13:00 PM')).toBeNull()
	})

	test.each([
		['participants-malformed.csv', 'Line 3: a quoted field is opened with " and never closed.'],
		['not a report', 'No participant rows were found'],
		['Name,Duration (Minutes)\nAda,sixty\n', 'Line 2: the duration "sixty" is not a number of minutes.'],
		['Name,Join Time,Leave Time\nAda,yesterday,today\n', 'Line 2: the row has no duration, and "yesterday" is not a date and time.'],
		['Name,Email,Duration (Minutes)\n"Ada" x,ada@example.com,3\n', 'Line 2: Found non trimable byte after quote'],
	])('a malformed file names its line: %s', (file, message) => {
		const text = file.endsWith('.csv') ? report(file) : file
		expect(() => parseParticipantReport(text)).toThrow(ReportError)
		expect(() => parseParticipantReport(text)).toThrow(message)
	})

	test(`more than ${MAX_REPORT_ROWS.toLocaleString('en-US')} rows is refused`, () => {
		const header = 'Name (Original Name),User Email,Duration (Minutes)\n'
		const rows = (count: number) =>
			header + Array.from({ length: count }, (_, index) => `Person ${index},p${index}@example.com,5\n`).join('')
		expect(parseParticipantReport(rows(MAX_REPORT_ROWS))).toHaveLength(MAX_REPORT_ROWS)
		expect(() => parseParticipantReport(rows(MAX_REPORT_ROWS + 1))).toThrow('more than 10,000 participant rows')
	})
})

describe('planning an import', () => {
	const roster = [
		{ userId: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
		{ userId: 'grace', name: 'Grace Hopper', email: 'grace@example.com' },
		{ userId: 'alan', name: 'Alan Turing', email: 'alan@example.com' },
		{ userId: 'katherine', name: 'Katherine Johnson', email: 'katherine@example.com' },
	]

	test('matches by e-mail, then by name; sums a person’s rows up to the session; the threshold separates present from late; absent when not named', () => {
		const plan = planImport(parseParticipantReport(report('participants-with-meeting-details.csv')), roster, {
			minutes: 60,
			presentPercent: 50,
		})
		expect(plan.students).toEqual([
			{ userId: 'ada', minutes: 60, status: 'present', matchedBy: 'email' },
			{ userId: 'grace', minutes: 55, status: 'present', matchedBy: 'email' },
			{ userId: 'alan', minutes: 20, status: 'late', matchedBy: 'name' },
			{ userId: 'katherine', minutes: 0, status: 'absent', matchedBy: null },
		])
		expect(plan.unmatched).toEqual([
			{ line: 6, name: 'Coach Sam', email: 'coach@school.example', minutes: 69 },
			{ line: 10, name: 'iPhone (Linus)', email: '', minutes: 8 },
		])
		const strict = planImport(parseParticipantReport(report('participants-with-meeting-details.csv')), roster, {
			minutes: 60,
			presentPercent: 95,
		})
		expect(strict.students.map((one) => one.status)).toEqual(['present', 'late', 'late', 'absent'])
	})

	test('a name two students share matches neither', () => {
		const twins = [...roster, { userId: 'other-ada', name: 'ada  LOVELACE', email: 'other@example.com' }]
		const plan = planImport([{ line: 2, name: 'Ada Lovelace', names: ['Ada Lovelace'], email: '', minutes: 40 }], twins, {
			minutes: 60,
			presentPercent: 50,
		})
		expect(plan.unmatched).toHaveLength(1)
		expect(plan.students.every((one) => one.status === 'absent')).toBe(true)
	})
})

function uploadRequest(courseId: number, sessionId: number, body: string | Uint8Array<ArrayBuffer>, fileName = 'participants.csv') {
	const form = new FormData()
	form.append('report', new Blob([body], { type: 'text/csv' }), fileName)
	const headers = new Headers({ Cookie: admin.cookie, 'x-client-ip': '203.0.113.9' })
	return new Request(`http://localhost/dashboard/admin/courses/${courseId}/sessions/${sessionId}/attendance`, {
		method: 'POST',
		body: form,
		headers,
	})
}

async function upload(courseId: number, sessionId: number, body: string | Uint8Array<ArrayBuffer>) {
	const params = { courseId: String(courseId), liveSessionId: String(sessionId) }
	return callRoute(rosterAction, uploadRequest(courseId, sessionId, body), params)
}

function importIdOf(response: Response) {
	const location = response.headers.get('Location') ?? ''
	return /\/imports\/([0-9a-f-]{36})$/.exec(location)?.[1]
}

describe('importing a report', () => {
	test('the upload is previewed with what changes and the rows that matched nobody; confirming writes it; the same file again changes nothing', async () => {
		const { courseId, sessionId } = await courseWithSession()
		await t.db
			.insertInto('attendance')
			.values([
				{ live_session_id: sessionId, user_id: students.grace.id, status: 'present', source: 'join_link' },
				{ live_session_id: sessionId, user_id: students.katherine.id, status: 'excused', source: 'hand', set_by: admin.id },
			])
			.execute()
		const uploaded = await upload(courseId, sessionId, report('participants-with-meeting-details.csv'))
		expect(uploaded.status).toBe(302)
		const importId = importIdOf(uploaded)!
		expect(await t.db.selectFrom('attendance').select('user_id').where('live_session_id', '=', sessionId).execute()).toHaveLength(2)

		const params = { courseId: String(courseId), liveSessionId: String(sessionId), importId }
		const page = await callRoute(importLoader, getRequest(`/x/${importId}`, { cookie: admin.cookie }), params)
		const { preview } = (await page.json()) as { preview: NonNullable<Awaited<ReturnType<typeof getImportPreview>>> }
		expect(preview.students.map((one) => [one.name, one.status, one.minutes, one.effect])).toEqual([
			['Ada Lovelace', 'present', 60, 'new'],
			['Alan Turing', 'late', 20, 'new'],
			['Grace Hopper', 'present', 55, 'change'],
			['Katherine Johnson', 'absent', 0, 'kept'],
		])
		expect(preview.unmatched.map((row) => row.line)).toEqual([6, 10])

		const confirm = () => callRoute(importAction, formRequest(`/x/${importId}`, { intent: 'confirm' }, { cookie: admin.cookie }), params)
		const confirmed = await confirm()
		expect((await toastOf(confirmed))?.title).toBe('Report imported: 3 students updated')
		const after = await attendanceOf(sessionId)
		expect(after[students.ada.id]).toMatchObject({ status: 'present', minutes: 60, source: 'report', set_by: admin.id })
		expect(after[students.grace.id]).toMatchObject({ status: 'present', minutes: 55, source: 'report' })
		expect(after[students.alan.id]).toMatchObject({ status: 'late', minutes: 20, source: 'report' })
		expect(after[students.katherine.id]).toMatchObject({ status: 'excused', source: 'hand' })
		expect((await toastOf(await confirm()))?.title).toBe('This report was already imported')

		const again = importIdOf(await upload(courseId, sessionId, report('participants-with-meeting-details.csv')))!
		const session = (await getAttendanceSession(t.db, courseId, sessionId))!
		expect((await getImportPreview(t.db, { session, importId: again }))!.students.map((one) => one.effect)).toEqual([
			'same',
			'same',
			'same',
			'kept',
		])
		expect(await applyImport(t.db, { adminId: admin.id, session, importId: again })).toEqual({ changed: 0 })
		expect(await attendanceOf(sessionId)).toEqual(after)
	})

	test.each([
		['a malformed file', () => report('participants-malformed.csv'), 400, 'Line 3: a quoted field is opened with " and never closed.'],
		['an empty file', () => '', 400, 'Choose the participant report (a .csv file) to import'],
		['a binary file', () => new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 1, 2]), 400, 'This is not a CSV file'],
		['a file over 5 MB', () => 'x'.repeat(MAX_REPORT_BYTES + 1), 413, 'The report is larger than 5 MB'],
	])('%s gets a message and nothing is written', async (_name, body, status, message) => {
		const { courseId, sessionId } = await courseWithSession()
		const response = await upload(courseId, sessionId, body())
		expect(response.status).toBe(status)
		expect(((await response.json()) as { errors: string[] }).errors[0]).toContain(message)
		expect(await t.db.selectFrom('attendance_imports').select('id').where('live_session_id', '=', sessionId).execute()).toEqual([])
		expect(await attendanceOf(sessionId)).toEqual({})
	})

	test('two imports of one session at the same moment record each student once; one preview confirmed twice at once applies once', async () => {
		const { courseId, sessionId } = await courseWithSession()
		const session = (await getAttendanceSession(t.db, courseId, sessionId))!
		const ids = await Promise.all(
			[report('participants-with-meeting-details.csv'), report('participants-unique-users.csv')].map(async (text) =>
				importIdOf(await upload(courseId, sessionId, text)),
			),
		)
		const outcomes = await Promise.all(
			[...ids, ...ids].map((importId) => applyImport(t.db, { adminId: admin.id, session, importId: importId! })),
		)
		expect(outcomes.filter((outcome) => outcome === 'already')).toHaveLength(2)
		const rows = await t.db.selectFrom('attendance').select('user_id').where('live_session_id', '=', sessionId).execute()
		expect(rows.map((row) => row.user_id).sort()).toEqual(
			Object.values(students)
				.map((one) => one.id)
				.sort(),
		)
	})

	test("another session's or course's import, and an id that is not one, are not found", async () => {
		const first = await courseWithSession()
		const second = await courseWithSession()
		const importId = importIdOf(await upload(first.courseId, first.sessionId, report('participants-unique-users.csv')))!
		const tryParams = async (params: Record<string, string>) =>
			(await callRoute(importLoader, getRequest('/x', { cookie: admin.cookie }), params)).status
		expect(await tryParams({ courseId: String(second.courseId), liveSessionId: String(second.sessionId), importId })).toBe(404)
		expect(await tryParams({ courseId: String(second.courseId), liveSessionId: String(first.sessionId), importId })).toBe(404)
		expect(await tryParams({ courseId: String(first.courseId), liveSessionId: String(first.sessionId), importId: 'not-a-uuid' })).toBe(404)
		expect(await tryParams({ courseId: String(first.courseId), liveSessionId: String(first.sessionId), importId })).toBe(200)
	})
})

describe('the roster by hand', () => {
	function mark(courseId: number, sessionId: number, fields: Record<string, string>) {
		const request = formRequest(
			`/dashboard/admin/courses/${courseId}/sessions/${sessionId}/attendance`,
			{ intent: 'mark', ...fields },
			{
				cookie: admin.cookie,
			},
		)
		return callRoute(rosterAction, request, { courseId: String(courseId), liveSessionId: String(sessionId) })
	}

	test('a changed choice is saved as set by hand, by whom, and a later report leaves it; an unchanged one is not rewritten', async () => {
		const { courseId, sessionId } = await courseWithSession()
		await t.db
			.insertInto('attendance')
			.values({ live_session_id: sessionId, user_id: students.ada.id, status: 'present', source: 'join_link' })
			.execute()
		const saved = await mark(courseId, sessionId, {
			'marks[0].userId': students.ada.id,
			'marks[0].status': 'present',
			'marks[1].userId': students.alan.id,
			'marks[1].status': 'excused',
			'marks[2].userId': students.grace.id,
		})
		expect((await toastOf(saved))?.title).toBe('Attendance saved: 1 student marked')
		const marked = await attendanceOf(sessionId)
		expect(marked[students.ada.id]).toMatchObject({ status: 'present', source: 'join_link' })
		expect(marked[students.alan.id]).toMatchObject({ status: 'excused', source: 'hand', set_by: admin.id })
		expect(marked[students.grace.id]).toBeUndefined()

		const importId = importIdOf(await upload(courseId, sessionId, report('participants-with-meeting-details.csv')))!
		const session = (await getAttendanceSession(t.db, courseId, sessionId))!
		await applyImport(t.db, { adminId: admin.id, session, importId })
		expect((await attendanceOf(sessionId))[students.alan.id]).toMatchObject({ status: 'excused', source: 'hand' })

		const page = await callRoute(rosterLoader, getRequest('/x', { cookie: admin.cookie }), {
			courseId: String(courseId),
			liveSessionId: String(sessionId),
		})
		const { roster } = (await page.json()) as { roster: Array<{ name: string; status: string; source: string; setBy: string | null }> }
		expect(roster.find((entry) => entry.name === 'Alan Turing')).toMatchObject({ status: 'excused', source: 'hand', setBy: 'Ada Admin' })
		expect(roster.find((entry) => entry.name === 'Ada Lovelace')).toMatchObject({ status: 'present', source: 'report', setBy: 'Ada Admin' })
	})

	test('a student not on the roster or an unknown status is refused and nothing is written', async () => {
		const { courseId, sessionId } = await courseWithSession()
		const outsider = await student('Outsider', 'outsider@example.com')
		const forged = await mark(courseId, sessionId, {
			'marks[0].userId': students.ada.id,
			'marks[0].status': 'present',
			'marks[1].userId': outsider.id,
			'marks[1].status': 'present',
		})
		expect(forged.status).toBe(400)
		const unknown = await mark(courseId, sessionId, { 'marks[0].userId': students.ada.id, 'marks[0].status': 'asleep' })
		expect(unknown.status).toBe(400)
		expect(JSON.stringify(await unknown.json())).toContain('Choose present, late, absent or excused')
		expect(await attendanceOf(sessionId)).toEqual({})
	})
})
