/**
 * An instructor works on the courses they teach only (issue 42 point 4, docs/decisions/056). Every
 * object reached by its own id — a week, a live session, a material item, a report import, the
 * course an upload names in its body — is checked for its own course: another course's object is
 * refused (404, or 403 for a file) under ids forged in the path, the body and the query string, with
 * no row changed. Taking an instructor off a course takes effect on their next request, and the
 * audit log names the instructor who made each change. Their course list and menu show the courses
 * they teach.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { removeCourseStaff } from '#app/models/courses/course-staff.server.ts'
import { action as importAction, loader as importLoader } from '#app/routes/admin/attendance-import.tsx'
import { action as materialsAction, loader as materialsLoader } from '#app/routes/admin/course-materials.tsx'
import { loader as progressLoader } from '#app/routes/admin/course-progress.tsx'
import { action as coursesAction, loader as coursesLoader } from '#app/routes/admin/courses.tsx'
import { action as attendanceAction, loader as attendanceLoader } from '#app/routes/admin/session-attendance.tsx'
import { action as sessionAction, loader as sessionLoader } from '#app/routes/admin/session-edit.tsx'
import { action as weekAction, loader as weekLoader } from '#app/routes/admin/week-edit.tsx'
import { action as topicsAction, loader as topicsLoader } from '#app/routes/admin/week-topics.tsx'
import { loader as layoutLoader } from '#app/routes/dashboard/layout.tsx'
import { loader as viewerLoader } from '#app/routes/dashboard/material-viewer.tsx'
import { loader as progressCsvLoader } from '#app/routes/resources/course-progress-csv.ts'
import { loader as fileLoader } from '#app/routes/resources/material-file.ts'
import { loader as previewLoader } from '#app/routes/resources/material-preview.ts'
import { action as uploadAction } from '#app/routes/resources/material-upload.ts'
import { samplePdf } from '#db/seed/sample-files.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAttendanceImport,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertLiveSession,
	insertUser,
	insertWeek,
	storeMaterialItem,
} from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor, toastOf } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
const PDF = await samplePdf({ title: 'Offer Sheet', subtitle: 'Week 1', sections: [{ heading: 'Offers', paragraphs: ['Write one.'] }] })
const DAY = 24 * 60 * 60 * 1000

type Side = {
	courseId: number
	weekId: number
	itemId: number
	itemTitle: string
	sessionId: number
	importId: string
	studentId: string
	instructor: { id: string; cookie: string }
}

let mine: Side
let theirs: Side
let sequence = 0

/** A course taught by its own instructor: a week with a stored file, a live session next week, a kept report preview, a student. */
async function teachingSide(label: string): Promise<Side> {
	sequence += 1
	const course = await insertCourse(t.db, { title: `${label} course ${sequence}` })
	const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: 1, topic: `${label} offers` })
	const itemTitle = `${label} handout ${sequence}`
	const item = await storeMaterialItem(t.db, files.storage, {
		courseId: course.id,
		weekId,
		title: itemTitle,
		fileName: `${label}-handout-${sequence}.pdf`,
		bytes: PDF,
		contentType: 'application/pdf',
	})
	const startsAt = new Date(Date.now() + 7 * DAY)
	const sessionId = await insertLiveSession(t.db, { courseId: course.id, startsAt, endsAt: new Date(startsAt.getTime() + 60 * 60_000) })
	const importId = await insertAttendanceImport(t.db, { sessionId })
	const studentId = await insertUser(t.db, { name: `${label} student` })
	await insertEnrollment(t.db, { userId: studentId, courseId: course.id })
	const instructorId = await insertUser(t.db, { role: 'instructor', name: `${label} instructor ${sequence}` })
	await insertCourseStaff(t.db, { courseId: course.id, userId: instructorId })
	return {
		courseId: course.id,
		weekId,
		itemId: item.id,
		itemTitle,
		sessionId,
		importId,
		studentId,
		instructor: { id: instructorId, cookie: await sessionCookieFor(instructorId) },
	}
}

beforeEach(async () => {
	mine = await teachingSide('Mine')
	theirs = await teachingSide('Theirs')
})

/** Every row an instructor's change could touch, of both courses, to compare before and after. */
async function snapshot() {
	const courseIds = [mine.courseId, theirs.courseId]
	const [weeks, items, sessions, attendance, imports, assignments, audit] = await Promise.all([
		t.db.selectFrom('course_materials').selectAll().where('course_id', 'in', courseIds).orderBy('id').execute(),
		t.db.selectFrom('material_items').selectAll().orderBy('id').execute(),
		t.db.selectFrom('live_sessions').selectAll().where('course_id', 'in', courseIds).orderBy('id').execute(),
		t.db.selectFrom('attendance').selectAll().orderBy('live_session_id').orderBy('user_id').execute(),
		t.db.selectFrom('attendance_imports').selectAll().orderBy('id').execute(),
		t.db.selectFrom('assignments').selectAll().orderBy('id').execute(),
		t.db.selectFrom('audit_log').select(['action', 'actor_id', 'entity_id']).orderBy('id').execute(),
	])
	return { weeks, items, sessions, attendance, imports, assignments, audit }
}

const materialsPath = (courseId: number) => `/dashboard/admin/courses/${courseId}/materials`

/** The route answers of a course's staff pages, asked by `cookie` with the ids given. */
function pages(cookie: string, ids: { courseId: number; weekId: number; sessionId: number; importId: string }) {
	const courseId = String(ids.courseId)
	const base = materialsPath(ids.courseId)
	const attendance = `/dashboard/admin/courses/${courseId}/sessions/${ids.sessionId}/attendance`
	const params = { courseId, weekId: String(ids.weekId), liveSessionId: String(ids.sessionId), importId: ids.importId }
	return {
		'materials GET': () => callRoute(materialsLoader, getRequest(base, { cookie }), params),
		'materials POST': () =>
			callRoute(materialsAction, formRequest(base, { intent: 'delete-week', weekId: String(ids.weekId) }, { cookie }), params),
		'week topics GET': () => callRoute(topicsLoader, getRequest(`${base}/weeks`, { cookie }), params),
		'week topics POST': () =>
			callRoute(
				topicsAction,
				formRequest(`${base}/weeks`, { 'weeks[0].weekNumber': '1', 'weeks[0].topic': 'Renamed' }, { cookie }),
				params,
			),
		'week edit GET': () => callRoute(weekLoader, getRequest(`${base}/${ids.weekId}/edit`, { cookie }), params),
		'week edit POST': () => callRoute(weekAction, formRequest(`${base}/${ids.weekId}/edit`, { topic: 'Renamed' }, { cookie }), params),
		'session GET': () => callRoute(sessionLoader, getRequest(`${base}/sessions/${ids.sessionId}`, { cookie }), params),
		'session POST': () =>
			callRoute(
				sessionAction,
				formRequest(`${base}/sessions/${ids.sessionId}`, { intent: 'cancel', note: 'Forged', confirm: 'on' }, { cookie }),
				params,
			),
		'attendance GET': () => callRoute(attendanceLoader, getRequest(attendance, { cookie }), params),
		'attendance POST': () =>
			callRoute(
				attendanceAction,
				formRequest(attendance, { 'marks[0].userId': theirs.studentId, 'marks[0].status': 'excused' }, { cookie }),
				params,
			),
		'import GET': () => callRoute(importLoader, getRequest(`${attendance}/imports/${ids.importId}`, { cookie }), params),
		'import POST': () =>
			callRoute(importAction, formRequest(`${attendance}/imports/${ids.importId}`, { intent: 'confirm' }, { cookie }), params),
		'progress GET': () => callRoute(progressLoader, getRequest(`/dashboard/admin/courses/${courseId}/progress`, { cookie }), params),
		'progress CSV GET': () =>
			callRoute(progressCsvLoader, getRequest(`/dashboard/admin/courses/${courseId}/progress.csv`, { cookie }), params),
	}
}

/** Uploads a PDF to a week of my course through the upload endpoint. */
function uploadToMyCourse(cookie: string, week: { weekNumber: string; topic: string }, fileName: string) {
	return callRoute(
		uploadAction,
		multipartRequest('/uploads/materials', cookie, { courseId: String(mine.courseId), ...week }, { name: fileName, bytes: PDF }),
	)
}

/** Marks one student on the roster of my course's live session. */
function markRoster(cookie: string, params: Record<string, string>, userId: string, status: string) {
	return callRoute(
		attendanceAction,
		formRequest(
			`/dashboard/admin/courses/${mine.courseId}/sessions/${mine.sessionId}/attendance`,
			{ 'marks[0].userId': userId, 'marks[0].status': status },
			{ cookie },
		),
		params,
	)
}

async function statuses(calls: Record<string, () => Promise<Response>>) {
	const answers: Record<string, number> = {}
	for (const [name, call] of Object.entries(calls)) answers[name] = (await call()).status
	return answers
}

function multipartRequest(path: string, cookie: string, fields: Record<string, string>, file: { name: string; bytes: Uint8Array }) {
	const body = new FormData()
	for (const [name, value] of Object.entries(fields)) body.append(name, value)
	body.append('materialFiles', new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: 'application/pdf' }))
	return new Request(`http://localhost${path}`, { method: 'POST', body, headers: { Cookie: cookie } })
}

describe("another course's pages", () => {
	test("by the other course's id in the path, every page and form answers 404 and changes nothing", async () => {
		const before = await snapshot()
		const answers = await statuses(pages(mine.instructor.cookie, theirs))
		expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((name) => [name, 404])))
		expect(await snapshot()).toEqual(before)
	})

	test("by their own course's id in the path and the other course's week, session and import ids, every page answers 404 and changes nothing", async () => {
		const before = await snapshot()
		const calls = pages(mine.instructor.cookie, {
			courseId: mine.courseId,
			weekId: theirs.weekId,
			sessionId: theirs.sessionId,
			importId: theirs.importId,
		})
		const objectPages = Object.fromEntries(
			Object.entries(calls).filter(([name]) => /^(week edit|session|attendance|import)/.test(name)),
		) as Record<string, () => Promise<Response>>
		const answers = await statuses(objectPages)
		expect(answers).toEqual(Object.fromEntries(Object.keys(objectPages).map((name) => [name, 404])))
		// Their own session with the other session's kept preview: the import is not theirs either.
		const ownSessionOtherImport = pages(mine.instructor.cookie, { ...mine, importId: theirs.importId })
		expect((await ownSessionOtherImport['import GET']()).status).toBe(404)
		expect((await ownSessionOtherImport['import POST']()).status).toBe(404)
		expect(await snapshot()).toEqual(before)
	})

	test('the same pages answer the course’s own instructor and an admin', async () => {
		const adminId = await insertUser(t.db, { role: 'admin' })
		for (const cookie of [mine.instructor.cookie, await sessionCookieFor(adminId)]) {
			const calls = pages(cookie, mine)
			for (const name of [
				'materials GET',
				'week topics GET',
				'week edit GET',
				'session GET',
				'attendance GET',
				'progress GET',
				'progress CSV GET',
			] as const) {
				expect((await calls[name]()).status, name).toBe(200)
			}
		}
	})

	test("ids forged into the body of their own course's forms are refused and change nothing", async () => {
		const before = await snapshot()
		const cookie = mine.instructor.cookie
		const params = { courseId: String(mine.courseId), liveSessionId: String(mine.sessionId) }
		const post = (fields: Record<string, string>) =>
			callRoute(materialsAction, formRequest(materialsPath(mine.courseId), fields, { cookie }), params)

		const itemDelete = await post({ intent: 'delete-item', itemId: String(theirs.itemId) })
		expect((await toastOf(itemDelete))?.title).toBe('Failed to delete material: Material not found')
		const weekDelete = await post({ intent: 'delete-week', weekId: String(theirs.weekId) })
		expect((await toastOf(weekDelete))?.title).toBe('Failed to delete course material: Week not found')
		const assignment = await post({ intent: 'create-assignment', title: 'Forged homework', weekId: String(theirs.weekId) })
		expect(assignment.status).toBe(400)
		expect(JSON.stringify(await assignment.json())).toContain("Choose one of this course's weeks")

		const roster = await markRoster(cookie, params, theirs.studentId, 'present')
		expect(roster.status).toBe(400)

		// The course an upload names is a field of its body: the page's own form and the upload endpoint refuse another course.
		const fields = { courseId: String(theirs.courseId), weekNumber: '1', topic: 'Forged week' }
		const onPage = await callRoute(
			materialsAction,
			multipartRequest(materialsPath(mine.courseId), cookie, fields, { name: 'forged.pdf', bytes: PDF }),
			params,
		)
		expect(onPage.status).toBe(404)
		const endpoint = await callRoute(
			uploadAction,
			multipartRequest('/uploads/materials', cookie, fields, { name: 'forged.pdf', bytes: PDF }),
		)
		expect(endpoint.status).toBe(404)
		expect(await endpoint.json()).toMatchObject({ ok: false })
		const weekOnly = await callRoute(
			uploadAction,
			(() => {
				const body = new FormData()
				for (const [name, value] of Object.entries(fields)) body.append(name, value)
				return new Request('http://localhost/uploads/materials', { method: 'POST', body, headers: { Cookie: cookie } })
			})(),
		)
		expect(weekOnly.status).toBe(404)

		expect(await snapshot()).toEqual(before)
		expect(storedNames()).not.toContain('forged.pdf')
	})

	test('thirty forged requests at once, by path, body and upload, change nothing of the other course', async () => {
		const before = await snapshot()
		const cookie = theirs.instructor.cookie
		const params = { courseId: String(mine.courseId) }
		const requests = Array.from({ length: 10 }, (_, index) => [
			// By the path: their instructor on my course.
			callRoute(
				materialsAction,
				formRequest(materialsPath(mine.courseId), { intent: 'delete-item', itemId: String(mine.itemId) }, { cookie }),
				params,
			),
			// By the body: their own course's page naming my week.
			callRoute(
				materialsAction,
				formRequest(materialsPath(theirs.courseId), { intent: 'delete-week', weekId: String(mine.weekId) }, { cookie }),
				{ courseId: String(theirs.courseId) },
			),
			// By the upload's course field.
			uploadToMyCourse(cookie, { weekNumber: '1', topic: `Forged ${index}` }, `forged-${index}.pdf`),
		]).flat()
		const answers = await Promise.all(requests)
		const toasts = await Promise.all(answers.filter((_, index) => index % 3 === 1).map((response) => toastOf(response)))
		expect(answers.filter((_, index) => index % 3 !== 1).map((response) => response.status)).toEqual(Array(20).fill(404))
		expect(new Set(toasts.map((toast) => toast?.title))).toEqual(new Set(['Failed to delete course material: Week not found']))
		expect(await snapshot()).toEqual(before)
		expect(storedNames().filter((name) => name.startsWith('forged-'))).toEqual([])
	})

	test("a query string naming the other course's item or week shows nothing of it, and the raw SQL dialog stays an admin's", async () => {
		const cookie = mine.instructor.cookie
		const params = { courseId: String(mine.courseId) }
		const ask = async (query: string) => {
			const response = await callRoute(materialsLoader, getRequest(`${materialsPath(mine.courseId)}?${query}`, { cookie }), params)
			expect(response.status).toBe(200)
			return (await response.json()) as { deletingItem: unknown; deletingWeek: unknown; lastSql: unknown; isAdmin: boolean }
		}
		const item = await ask(`dialog=delete-item&item=${theirs.itemId}`)
		expect(item.deletingItem).toBeNull()
		expect(JSON.stringify(item)).not.toContain(theirs.itemTitle)
		expect((await ask(`dialog=delete-week&week=${theirs.weekId}`)).deletingWeek).toBeNull()
		const sqlDialog = await ask('dialog=last-sql')
		expect(sqlDialog.lastSql).toBeUndefined()
		expect(sqlDialog.isAdmin).toBe(false)
	})
})

/** The names of the files in storage, whatever their key. */
function storedNames() {
	if (!fs.existsSync(files.dir)) return []
	return fs.readdirSync(files.dir, { recursive: true, encoding: 'utf8' }).map((name) => path.basename(name))
}

describe("another course's files", () => {
	test("the file, its preview and the viewer are refused (403) for the other course's item, and served for their own", async () => {
		const cookie = mine.instructor.cookie
		const call = (itemId: number) => {
			const params = { itemId: String(itemId) }
			return Promise.all([
				callRoute(fileLoader, getRequest(`/files/materials/${itemId}`, { cookie }), params),
				callRoute(previewLoader, getRequest(`/files/materials/${itemId}/preview`, { cookie }), params),
				callRoute(viewerLoader, getRequest(`/dashboard/materials/${itemId}`, { cookie }), params),
			])
		}
		expect((await call(theirs.itemId)).map((response) => response.status)).toEqual([403, 403, 403])
		// Their own: the file and the viewer; a PDF has no Office preview.
		expect((await call(mine.itemId)).map((response) => response.status)).toEqual([200, 404, 200])
	})

	test("an instructor reads their course's week before it opens, as an admin does, and is not counted as a student's first open", async () => {
		await t.db
			.updateTable('live_sessions')
			.set({ starts_at: new Date(Date.now() + 30 * DAY), ends_at: new Date(Date.now() + 30 * DAY + 3_600_000) })
			.where('id', '=', mine.sessionId)
			.execute()
		const response = await callRoute(fileLoader, getRequest(`/files/materials/${mine.itemId}`, { cookie: mine.instructor.cookie }), {
			itemId: String(mine.itemId),
		})
		expect(response.status).toBe(200)
		expect(await t.db.selectFrom('material_opens').selectAll().where('user_id', '=', mine.instructor.id).execute()).toEqual([])
	})
})

describe('taking an instructor off a course', () => {
	test('takes effect on their next request: pages, files and uploads of that course are refused at once', async () => {
		const cookie = mine.instructor.cookie
		const params = { courseId: String(mine.courseId) }
		const materials = () => callRoute(materialsLoader, getRequest(materialsPath(mine.courseId), { cookie }), params)
		const file = () => callRoute(fileLoader, getRequest(`/files/materials/${mine.itemId}`, { cookie }), { itemId: String(mine.itemId) })
		expect((await materials()).status).toBe(200)
		expect((await file()).status).toBe(200)

		const adminId = await insertUser(t.db, { role: 'admin' })
		expect(await removeCourseStaff(t.db, adminId, mine.courseId, mine.instructor.id)).toBe(true)

		expect((await materials()).status).toBe(404)
		expect((await file()).status).toBe(403)
		const before = await snapshot()
		const upload = await uploadToMyCourse(cookie, { weekNumber: '2', topic: 'Late' }, 'late.pdf')
		expect(upload.status).toBe(404)
		expect(await snapshot()).toEqual(before)
	})
})

describe("the instructor's own changes", () => {
	test('an upload, a session cancelled, a roster marked and a material deleted are written and the audit log names the instructor', async () => {
		const cookie = mine.instructor.cookie
		const params = { courseId: String(mine.courseId), liveSessionId: String(mine.sessionId) }
		const upload = await uploadToMyCourse(cookie, { weekNumber: '2', topic: 'Closing' }, 'closing.pdf')
		expect(upload.status).toBe(200)
		const cancel = await callRoute(
			sessionAction,
			formRequest(
				`${materialsPath(mine.courseId)}/sessions/${mine.sessionId}`,
				{ intent: 'cancel', note: 'Snow day', confirm: 'on' },
				{ cookie },
			),
			params,
		)
		expect(cancel.status).toBe(302)
		const roster = await markRoster(cookie, params, mine.studentId, 'excused')
		expect(roster.status).toBe(302)
		const deleted = await callRoute(
			materialsAction,
			formRequest(materialsPath(mine.courseId), { intent: 'delete-item', itemId: String(mine.itemId) }, { cookie }),
			params,
		)
		expect((await toastOf(deleted))?.title).toBe('Material deleted successfully')

		const audit = await t.db.selectFrom('audit_log').select(['action', 'actor_id']).where('actor_id', '=', mine.instructor.id).execute()
		expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['attendance.mark', 'material.delete']))
		expect(audit.length).toBeGreaterThanOrEqual(4)
		const session = await t.db.selectFrom('live_sessions').select('status').where('id', '=', mine.sessionId).executeTakeFirstOrThrow()
		expect(session.status).toBe('cancelled')
		const attendance = await t.db
			.selectFrom('attendance')
			.select(['status', 'set_by'])
			.where('live_session_id', '=', mine.sessionId)
			.execute()
		expect(attendance).toEqual([{ status: 'excused', set_by: mine.instructor.id }])
	})
})

describe("the instructor's course list and menu", () => {
	test('Manage Courses lists the courses they teach only, and adding a course stays an admin’s', async () => {
		const cookie = mine.instructor.cookie
		const grid = await callRoute(coursesLoader, getRequest('/dashboard/admin/courses', { cookie }))
		const body = (await grid.json()) as { isAdmin: boolean; courses: Array<{ id: number }>; total: number; raw: unknown }
		expect(body).toMatchObject({ isAdmin: false, total: 1, raw: null })
		expect(body.courses.map((course) => course.id)).toEqual([mine.courseId])
		const raw = await callRoute(coursesLoader, getRequest('/dashboard/admin/courses?dialog=raw', { cookie }))
		expect(((await raw.json()) as { raw: unknown }).raw).toBeNull()

		const before = await t.db.selectFrom('courses').select('id').execute()
		const created = await callRoute(coursesAction, formRequest('/dashboard/admin/courses', { title: 'Mine now' }, { cookie }))
		expect(created.headers.get('Location')).toBe('/dashboard')
		expect(await t.db.selectFrom('courses').select('id').execute()).toEqual(before)

		const adminId = await insertUser(t.db, { role: 'admin' })
		const adminGrid = await callRoute(coursesLoader, getRequest('/dashboard/admin/courses', { cookie: await sessionCookieFor(adminId) }))
		const adminBody = (await adminGrid.json()) as { isAdmin: boolean; courses: Array<{ id: number }> }
		expect(adminBody.isAdmin).toBe(true)
		expect(adminBody.courses.map((course) => course.id)).toEqual(expect.arrayContaining([mine.courseId, theirs.courseId]))
	})

	test('the dashboard shell gives an instructor the courses they teach for their menu, and nobody else any', async () => {
		const second = await insertCourse(t.db, { title: 'Mine, second run' })
		await insertCourseStaff(t.db, { courseId: second.id, userId: mine.instructor.id })
		const shell = async (cookie: string) =>
			(await (await callRoute(layoutLoader, getRequest('/dashboard', { cookie }))).json()) as {
				user: { isInstructor: boolean }
				teaching: Array<{ id: number; title: string }>
			}
		const instructor = await shell(mine.instructor.cookie)
		expect(instructor.user.isInstructor).toBe(true)
		expect(instructor.teaching.map((course) => course.id).sort()).toEqual([mine.courseId, second.id].sort())
		const adminId = await insertUser(t.db, { role: 'admin' })
		for (const userId of [adminId, mine.studentId]) {
			const other = await shell(await sessionCookieFor(userId))
			expect(other.user.isInstructor).toBe(false)
			expect(other.teaching).toEqual([])
		}
	})
})
