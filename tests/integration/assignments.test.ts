import { describe, expect, test } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import { listStudentAssignments } from '#app/models/materials/assignments.server.ts'
import type { StudentAssignment } from '#app/models/materials/assignments.ts'
import { type CourseWeekList, WEEK_NOT_OPEN_MESSAGE } from '#app/models/materials/materials.ts'
import { action as gradesAction, loader as gradesLoader } from '#app/routes/admin/grades.tsx'
import { action as assignmentAction, loader as assignmentLoader } from '#app/routes/dashboard/assignment.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard/index.tsx'
import { loader as submissionFileLoader } from '#app/routes/resources/submission-file.ts'
import type { EnrollmentStatus, Role } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertAssignment, insertCourse, insertEnrollment, insertLiveSession, insertWeek } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
let sequence = 0
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')
const HTML = new TextEncoder().encode('<html><body><script>alert(1)</script></body></html>')

async function person(role: Role, name = `Person ${sequence}`) {
	sequence += 1
	const user = await createUser(t.db, {
		email: `assign-${role}-${sequence}@example.com`,
		name,
		password: 'password-123',
		role,
		confirmed: true,
	})
	return { id: user.id, email: user.email, cookie: await sessionCookieFor(user.id) }
}

async function courseWithAssignment(title = 'Deal Worksheet') {
	sequence += 1
	const course = await insertCourse(t.db, { title: `Investing Course ${sequence}` })
	const assignment = await insertAssignment(t.db, { course_id: course.id, title, instructions: 'Analyse one deal in your market.' })
	return { course, assignmentId: assignment.id }
}

async function enroll(userId: string, courseId: number, status: EnrollmentStatus = 'active') {
	await insertEnrollment(t.db, { userId, courseId, status })
}

function submit(assignmentId: number, cookie: string, fields: { body?: string; file?: { name: string; bytes: Uint8Array } }) {
	const form = new FormData()
	form.set('body', fields.body ?? '')
	if (fields.file) form.set('file', new File([fields.file.bytes as Uint8Array<ArrayBuffer>], fields.file.name))
	const request = new Request(`http://localhost/dashboard/assignments/${assignmentId}`, {
		method: 'POST',
		body: form,
		headers: { Cookie: cookie },
	})
	return callRoute(assignmentAction, request, { assignmentId: String(assignmentId) })
}

function view(assignmentId: number, cookie: string) {
	return callRoute(assignmentLoader, getRequest(`/dashboard/assignments/${assignmentId}`, { cookie }), {
		assignmentId: String(assignmentId),
	})
}

async function queue(cookie: string, search = '') {
	const response = await callRoute(gradesLoader, getRequest(`/dashboard/admin/grades${search}`, { cookie }))
	return (await response.json()) as Awaited<ReturnType<typeof gradesLoader>>
}

function toastTitle(response: Response) {
	const value = decodeURIComponent(/toast=([^;]*)/.exec(response.headers.get('Set-Cookie') ?? '')?.[1] ?? '')
	return (JSON.parse(atob(value.split('.')[0]!)) as { title: string }).title
}

describe('a student and an assignment', () => {
	test('submit text and a file, get graded, read the grade and feedback; graded work is locked', async () => {
		const { course, assignmentId } = await courseWithAssignment()
		const student = await person('student', 'Sam Student')
		const admin = await person('admin')
		await enroll(student.id, course.id)

		const before = (await (await view(assignmentId, student.cookie)).json()) as Awaited<ReturnType<typeof assignmentLoader>>
		expect(before).toMatchObject({ canSubmit: true, submission: null, assignment: { title: 'Deal Worksheet', courseTitle: course.title } })
		expect((await listStudentAssignments(t.db, { reader: { id: student.id, isAdmin: false }, courseId: course.id }))[0]).toMatchObject({
			status: 'not-submitted',
		})

		const sent = await submit(assignmentId, student.cookie, { body: 'Offer $170,000.', file: { name: 'analysis.pdf', bytes: PDF } })
		expect(sent.status).toBe(302)
		expect(toastTitle(sent)).toBe('Assignment submitted successfully')
		const row = await t.db
			.selectFrom('assignment_submissions')
			.selectAll()
			.where('assignment_id', '=', assignmentId)
			.executeTakeFirstOrThrow()
		expect(row).toMatchObject({
			student_id: student.id,
			body: 'Offer $170,000.',
			file_name: 'analysis.pdf',
			file_type: 'application/pdf',
			status: 'submitted',
		})
		expect(row.storage_key).toMatch(new RegExp(`^submissions/${assignmentId}/${student.id}/[0-9a-f-]{36}-analysis\\.pdf$`))

		// Handing in again before grading replaces the answer and the file.
		const again = await submit(assignmentId, student.cookie, { body: 'Offer $168,000.', file: { name: 'analysis-v2.pdf', bytes: PDF } })
		expect(again.status).toBe(302)
		const replaced = await t.db.selectFrom('assignment_submissions').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
		expect(replaced).toMatchObject({ body: 'Offer $168,000.', file_name: 'analysis-v2.pdf' })
		expect(await files.storage.stat(row.storage_key!)).toBeNull()
		expect(await files.storage.stat(replaced.storage_key!)).not.toBeNull()

		const pending = await queue(admin.cookie)
		expect(pending.rows.find((entry) => entry.id === row.id)).toMatchObject({
			studentName: 'Sam Student',
			assignmentTitle: 'Deal Worksheet',
			courseTitle: course.title,
		})

		const empty = await callRoute(
			gradesAction,
			formRequest(`/dashboard/admin/grades?grade=${row.id}`, { submissionId: String(row.id), grade: ' ' }, { cookie: admin.cookie }),
		)
		expect(empty.status).toBe(400)
		expect(((await empty.json()) as { result: { error: Record<string, string[]> } }).result.error.grade).toEqual(['Please enter a grade'])

		const graded = await callRoute(
			gradesAction,
			formRequest(
				`/dashboard/admin/grades?grade=${row.id}`,
				{ submissionId: String(row.id), grade: 'B+', feedback: 'Add vacancy costs.' },
				{ cookie: admin.cookie },
			),
		)
		expect(graded.status).toBe(302)
		expect(graded.headers.get('Location')).toBe('/dashboard/admin/grades')
		expect(toastTitle(graded)).toBe('Assignment graded successfully')
		const audit = await t.db
			.selectFrom('audit_log')
			.select(['action', 'entity_id'])
			.where('actor_id', '=', admin.id)
			.executeTakeFirstOrThrow()
		expect(audit).toEqual({ action: 'submission.grade', entity_id: String(row.id) })

		// Reopened through Feedback: the grade and feedback change.
		await callRoute(
			gradesAction,
			formRequest(
				`/dashboard/admin/grades?tab=graded&grade=${row.id}`,
				{ submissionId: String(row.id), grade: 'A-', feedback: 'Better.' },
				{ cookie: admin.cookie },
			),
		)

		const after = (await (await view(assignmentId, student.cookie)).json()) as Awaited<ReturnType<typeof assignmentLoader>>
		expect(after.canSubmit).toBe(false)
		expect(after.submission).toMatchObject({ status: 'graded', grade: 'A-', feedback: 'Better.' })
		expect((await listStudentAssignments(t.db, { reader: { id: student.id, isAdmin: false }, courseId: course.id }))[0]).toMatchObject({
			status: 'graded',
			grade: 'A-',
		})

		const locked = await submit(assignmentId, student.cookie, { body: 'One more try' })
		expect(locked.status).toBe(403)
	})

	test('only an active enrollment opens an assignment; an admin reads it but hands nothing in', async () => {
		const { course, assignmentId } = await courseWithAssignment()
		const stranger = await person('student')
		const lapsed = await person('student')
		await enroll(lapsed.id, course.id, 'inactive')
		const admin = await person('admin')
		expect((await view(assignmentId, stranger.cookie)).status).toBe(403)
		expect((await view(assignmentId, lapsed.cookie)).status).toBe(403)
		expect((await submit(assignmentId, stranger.cookie, { body: 'Let me in' })).status).toBe(403)
		const asAdmin = (await (await view(assignmentId, admin.cookie)).json()) as Awaited<ReturnType<typeof assignmentLoader>>
		expect(asAdmin.canSubmit).toBe(false)
		expect((await view(999_999, admin.cookie)).status).toBe(404)
		expect(await t.db.selectFrom('assignment_submissions').select('id').where('assignment_id', '=', assignmentId).execute()).toEqual([])
	})

	test('an empty answer and a disguised file are refused, storing nothing', async () => {
		const { course, assignmentId } = await courseWithAssignment()
		const student = await person('student')
		await enroll(student.id, course.id)
		const empty = await submit(assignmentId, student.cookie, { body: '   ' })
		expect(empty.status).toBe(400)
		expect(((await empty.json()) as { result: { error: Record<string, string[]> } }).result.error['']).toEqual([
			'Please write your answer or attach a file',
		])
		const html = await submit(assignmentId, student.cookie, { file: { name: 'essay.pdf', bytes: HTML } })
		expect(html.status).toBe(415)
		expect(await t.db.selectFrom('assignment_submissions').select('id').where('assignment_id', '=', assignmentId).execute()).toEqual([])
		const stored: string[] = []
		for await (const object of files.storage.list(`submissions/${assignmentId}/`)) stored.push(object.key)
		expect(stored).toEqual([])
	})

	test('an answer with a control character is refused with its message, the text kept, nothing stored; line breaks and tabs pass', async () => {
		const { course, assignmentId } = await courseWithAssignment()
		const student = await person('student')
		await enroll(student.id, course.id)
		for (const body of ['My answer\u0000', 'My \u001b[31manswer']) {
			const refused = await submit(assignmentId, student.cookie, { body, file: { name: 'analysis.pdf', bytes: PDF } })
			expect(refused.status).toBe(400)
			const reply = (await refused.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
			expect(reply.result.error.body).toEqual(['Your answer must not contain control characters'])
			expect(reply.result.initialValue.body).toBe(body)
		}
		expect(await t.db.selectFrom('assignment_submissions').select('id').where('assignment_id', '=', assignmentId).execute()).toEqual([])
		const stored: string[] = []
		for await (const object of files.storage.list(`submissions/${assignmentId}/`)) stored.push(object.key)
		expect(stored).toEqual([])

		expect((await submit(assignmentId, student.cookie, { body: 'Line one\r\n\tLine two' })).status).toBe(302)
		const row = await t.db
			.selectFrom('assignment_submissions')
			.select('body')
			.where('assignment_id', '=', assignmentId)
			.executeTakeFirstOrThrow()
		expect(row.body).toBe('Line one\r\n\tLine two')
	})

	test('a submitted file is served to its student and to admins only, as a download', async () => {
		const { course, assignmentId } = await courseWithAssignment()
		const student = await person('student')
		const classmate = await person('student')
		const admin = await person('admin')
		await enroll(student.id, course.id)
		await enroll(classmate.id, course.id)
		await submit(assignmentId, student.cookie, { file: { name: 'budget.pdf', bytes: PDF } })
		const { id } = await t.db
			.selectFrom('assignment_submissions')
			.select('id')
			.where('student_id', '=', student.id)
			.executeTakeFirstOrThrow()
		const fetchAs = (cookie: string) =>
			callRoute(submissionFileLoader, getRequest(`/files/submissions/${id}`, { cookie }), { submissionId: String(id) })

		const own = await fetchAs(student.cookie)
		expect(own.status).toBe(200)
		expect(own.headers.get('Content-Disposition')).toBe('attachment; filename="budget.pdf"')
		expect(own.headers.get('X-Content-Type-Options')).toBe('nosniff')
		expect(own.headers.get('Content-Security-Policy')).toBe('sandbox')
		expect(new Uint8Array(await own.arrayBuffer())).toEqual(PDF)
		expect((await fetchAs(admin.cookie)).status).toBe(200)
		expect((await fetchAs(classmate.cookie)).status).toBe(403)
	})
})

describe('an assignment of a week that has not opened (docs/decisions/031)', () => {
	const DAY = 86_400_000

	/** An assignment of week 1, whose live session is 10 days away: the week opens 7 days before it. */
	async function inClosedWeek() {
		const { course, assignmentId } = await courseWithAssignment('Week One Memo')
		const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: 1 })
		await t.db.updateTable('assignments').set({ week_id: weekId }).where('id', '=', assignmentId).execute()
		const startsAt = new Date(Date.now() + 10 * DAY)
		await insertLiveSession(t.db, { courseId: course.id, startsAt, endsAt: new Date(startsAt.getTime() + DAY / 24) })
		return { course, assignmentId }
	}

	async function dashboardOf(cookie: string, courseId: number) {
		const response = await callRoute(dashboardLoader, getRequest(`/dashboard?course=${courseId}`, { cookie }))
		return (await response.json()) as { assignments: StudentAssignment[]; weeks: CourseWeekList }
	}

	async function storedFor(assignmentId: number) {
		const stored: string[] = []
		for await (const object of files.storage.list(`submissions/${assignmentId}/`)) stored.push(object.key)
		return stored
	}

	test('a student sees when it opens instead of a link, and its page and hand-in are refused like its files, writing and storing nothing', async () => {
		const { course, assignmentId } = await inClosedWeek()
		const student = await person('student')
		await enroll(student.id, course.id)

		const dashboard = await dashboardOf(student.cookie, course.id)
		// The same words as the week's card: 'Opens Tue 6 Jan'.
		expect(dashboard.assignments).toEqual([expect.objectContaining({ id: assignmentId, opensOn: dashboard.weeks.weeks[0]!.opensOn })])
		expect(dashboard.assignments[0]!.opensOn).toMatch(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}$/)

		const page = await view(assignmentId, student.cookie)
		expect(page.status).toBe(403)
		expect(await page.json()).toBe(WEEK_NOT_OPEN_MESSAGE)
		const handIn = await submit(assignmentId, student.cookie, { body: 'Early bird', file: { name: 'early.pdf', bytes: PDF } })
		expect(handIn.status).toBe(403)
		expect(await handIn.json()).toBe(WEEK_NOT_OPEN_MESSAGE)
		expect(await t.db.selectFrom('assignment_submissions').select('id').where('assignment_id', '=', assignmentId).execute()).toEqual([])
		expect(await storedFor(assignmentId)).toEqual([])

		// 'Open now': the page, the link and the hand-in at once.
		await t.db.updateTable('live_sessions').set({ opens_at: new Date() }).where('course_id', '=', course.id).execute()
		expect((await dashboardOf(student.cookie, course.id)).assignments[0]).toMatchObject({ id: assignmentId, opensOn: null })
		expect((await view(assignmentId, student.cookie)).status).toBe(200)
		const sent = await submit(assignmentId, student.cookie, { body: 'On time', file: { name: 'memo.pdf', bytes: PDF } })
		expect(sent.status).toBe(302)
		expect(await storedFor(assignmentId)).toHaveLength(1)
	})

	test('an admin reads it before it opens', async () => {
		const { assignmentId, course } = await inClosedWeek()
		const admin = await person('admin')
		expect((await view(assignmentId, admin.cookie)).status).toBe(200)
		const [listed] = await listStudentAssignments(t.db, { reader: { id: admin.id, isAdmin: true }, courseId: course.id })
		expect(listed).toMatchObject({ id: assignmentId, opensOn: null })
	})
})

describe('the grading queue', () => {
	test('tabs count pending and graded; search is case-insensitive over student, e-mail, assignment and course', async () => {
		const admin = await person('admin')
		const first = await courseWithAssignment('Rehab Budget Zeta')
		const second = await courseWithAssignment('Tenant Screening Zeta')
		const olivia = await person('student', 'Olivia Zeta-Quinn')
		const marco = await person('student', 'Marco Zeta')
		for (const student of [olivia, marco]) {
			await enroll(student.id, first.course.id)
			await enroll(student.id, second.course.id)
		}
		await submit(first.assignmentId, olivia.cookie, { body: 'Budget attached.' })
		await submit(second.assignmentId, olivia.cookie, { body: 'Criteria.' })
		await submit(first.assignmentId, marco.cookie, { body: 'My budget.' })
		const marcoSubmission = await t.db
			.selectFrom('assignment_submissions')
			.select('id')
			.where('student_id', '=', marco.id)
			.executeTakeFirstOrThrow()
		await callRoute(
			gradesAction,
			formRequest('/dashboard/admin/grades', { submissionId: String(marcoSubmission.id), grade: 'A' }, { cookie: admin.cookie }),
		)

		const all = await queue(admin.cookie, '?q=zeta')
		expect(all.counts).toEqual({ pending: 2, graded: 1 })
		expect(all.tab).toBe('pending')
		const graded = await queue(admin.cookie, '?tab=graded&q=ZETA')
		expect(graded.rows.map((row) => [row.studentName, row.grade])).toEqual([['Marco Zeta', 'A']])

		expect((await queue(admin.cookie, '?q=OLIVIA')).counts).toEqual({ pending: 2, graded: 0 })
		expect((await queue(admin.cookie, `?q=${encodeURIComponent(marco.email.toUpperCase())}`)).counts).toEqual({ pending: 0, graded: 1 })
		expect((await queue(admin.cookie, '?q=tenant screening zeta')).rows.map((row) => row.studentName)).toEqual(['Olivia Zeta-Quinn'])
		expect((await queue(admin.cookie, `?q=${encodeURIComponent(first.course.title.toLowerCase())}`)).counts).toEqual({
			pending: 1,
			graded: 1,
		})
		// Wildcards are searched for literally.
		expect((await queue(admin.cookie, '?q=%25')).counts).toEqual({ pending: 0, graded: 0 })
		expect((await queue(admin.cookie, '?q=no-such-thing-zeta')).rows).toEqual([])
	})
})
