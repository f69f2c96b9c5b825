/**
 * An instructor works on the people of the courses they teach (issue 42, docs/decisions/056 and
 * 058): grading, hand-in files, announcements, direct messages, the waitlist and enrolments.
 * Another course's objects are refused under ids forged in the path, the body and the query, and
 * no row changes.
 */
import { beforeEach, describe, expect, test } from 'vitest'
import { action as waitlistAction, loader as waitlistLoader } from '#app/routes/admin/course-waitlist.tsx'
import { action as enrollmentsAction, loader as enrollmentsLoader } from '#app/routes/admin/enrollments.tsx'
import { action as gradesAction, loader as gradesLoader } from '#app/routes/admin/grades.tsx'
import { action as broadcastAction, loader as broadcastLoader } from '#app/routes/admin/messages/broadcast.tsx'
import { action as directAction, loader as directLoader } from '#app/routes/admin/messages/direct.tsx'
import { action as refundAction, loader as refundLoader } from '#app/routes/admin/payment-refund.tsx'
import { loader as studentMessagesLoader } from '#app/routes/dashboard/messages.tsx'
import { loader as submissionFileLoader } from '#app/routes/resources/submission-file.ts'
import { submissionKey } from '#app/services/storage/keys.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAssignment,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertMessage,
	insertPaidPayment,
	insertSubmission,
	insertUser,
	insertWaitlistEntry,
} from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor, signedInUser, toastOf } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
const GRADES = '/dashboard/admin/grades'

/** The instructor's course and another one, a student in each with a hand-in, and the instructor's session. */
async function twoCourses() {
	const mine = await insertCourse(t.db, { title: 'Flipping Basics' })
	const theirs = await insertCourse(t.db, { title: 'Rental Empire' })
	const instructor = await signedInUser(t.db, { role: 'instructor', name: 'Ivy Instructor' })
	const colleague = await insertUser(t.db, { role: 'instructor', name: 'Otto Other' })
	await insertCourseStaff(t.db, { courseId: mine.id, userId: instructor.id })
	await insertCourseStaff(t.db, { courseId: theirs.id, userId: colleague })
	const ownStudent = await insertUser(t.db, { role: 'student', name: 'Olive Own' })
	const otherStudent = await insertUser(t.db, { role: 'student', name: 'Xavier Elsewhere' })
	await insertEnrollment(t.db, { userId: ownStudent, courseId: mine.id })
	await insertEnrollment(t.db, { userId: otherStudent, courseId: theirs.id })
	const pdf = new TextEncoder().encode('%PDF-1.4 hand-in %%EOF')
	const handIn = async (courseId: number, studentId: string, title: string) => {
		const assignment = await insertAssignment(t.db, { course_id: courseId, title })
		const key = submissionKey(assignment.id, studentId, 'answer.pdf')
		await files.storage.put(key, pdf, { contentType: 'application/pdf' })
		return insertSubmission(t.db, {
			assignment_id: assignment.id,
			student_id: studentId,
			body: `${title} answer`,
			file_name: 'answer.pdf',
			file_type: 'application/pdf',
			file_size: pdf.byteLength,
			storage_key: key,
		})
	}
	const ownSubmission = await handIn(mine.id, ownStudent, 'Deal Analysis')
	const otherSubmission = await handIn(theirs.id, otherStudent, 'Tenant Screening')
	return { mine, theirs, instructor, colleague, ownStudent, otherStudent, ownSubmission, otherSubmission }
}

type World = Awaited<ReturnType<typeof twoCourses>>
let world: World
beforeEach(async () => {
	world = await twoCourses()
})

const submissionRow = (id: number) =>
	t.db
		.selectFrom('assignment_submissions')
		.select(['status', 'grade', 'feedback', 'graded_by'])
		.where('id', '=', id)
		.executeTakeFirstOrThrow()

describe('grading', () => {
	test("the queue lists only the instructor's courses, also under a search for another course", async () => {
		const { instructor, ownSubmission, otherSubmission } = world
		for (const search of ['', '?q=Rental', '?q=Xavier', `?grade=${otherSubmission.id}`, `?view=${otherSubmission.id}`]) {
			const response = await callRoute(gradesLoader, getRequest(`${GRADES}${search}`, { cookie: instructor.cookie }))
			expect(response.status).toBe(200)
			const page = (await response.json()) as { rows: { id: number }[]; grading: unknown; viewing: unknown }
			expect(page.rows.map((row) => row.id)).toEqual(search.startsWith('?q=') ? [] : [ownSubmission.id])
			expect(page.grading, search).toBeNull()
			expect(page.viewing, search).toBeNull()
		}
		const opened = await callRoute(gradesLoader, getRequest(`${GRADES}?grade=${ownSubmission.id}`, { cookie: instructor.cookie }))
		expect(((await opened.json()) as { grading: { id: number } }).grading.id).toBe(ownSubmission.id)
	})

	test('the instructor grades a hand-in of their course; the audit log names them', async () => {
		const { instructor, ownSubmission } = world
		const response = await callRoute(
			gradesAction,
			formRequest(
				GRADES,
				{ submissionId: String(ownSubmission.id), grade: 'A-', feedback: 'Solid numbers.' },
				{ cookie: instructor.cookie },
			),
		)
		expect(response.status).toBe(302)
		expect((await toastOf(response))?.type).toBe('success')
		expect(await submissionRow(ownSubmission.id)).toEqual({
			status: 'graded',
			grade: 'A-',
			feedback: 'Solid numbers.',
			graded_by: instructor.id,
		})
		const audit = await t.db
			.selectFrom('audit_log')
			.select(['actor_id', 'action'])
			.where('entity_id', '=', String(ownSubmission.id))
			.execute()
		expect(audit).toEqual([{ actor_id: instructor.id, action: 'submission.grade' }])
	})

	test('a forged submission id of another course, in the body or the query, grades nothing', async () => {
		const { instructor, otherSubmission } = world
		for (const path of [GRADES, `${GRADES}?grade=${otherSubmission.id}`]) {
			const response = await callRoute(
				gradesAction,
				formRequest(path, { submissionId: String(otherSubmission.id), grade: 'F' }, { cookie: instructor.cookie }),
			)
			expect(response.status).toBe(302)
			expect((await toastOf(response))?.type).toBe('error')
		}
		expect(await submissionRow(otherSubmission.id)).toEqual({ status: 'submitted', grade: null, feedback: null, graded_by: null })
		const audit = await t.db.selectFrom('audit_log').select('id').where('entity_id', '=', String(otherSubmission.id)).execute()
		expect(audit).toEqual([])
	})

	test('the same hand-in graded twice at once: both answers are redirects, the row holds one of the grades', async () => {
		const { instructor, ownSubmission } = world
		const cookie2 = await sessionCookieFor(instructor.id)
		const responses = await Promise.all(
			[
				{ grade: 'B', cookie: instructor.cookie },
				{ grade: 'A', cookie: cookie2 },
			].map(({ grade, cookie }) =>
				callRoute(gradesAction, formRequest(GRADES, { submissionId: String(ownSubmission.id), grade }, { cookie })),
			),
		)
		expect(responses.map((response) => response.status)).toEqual([302, 302])
		const row = await submissionRow(ownSubmission.id)
		expect(row.status).toBe('graded')
		expect(['A', 'B']).toContain(row.grade)
	})

	test("hand-in files: the course's instructor downloads them, another course's instructor is refused", async () => {
		const { instructor, colleague, ownSubmission, otherSubmission } = world
		const download = async (cookie: string, submissionId: number) =>
			callRoute(submissionFileLoader, getRequest(`/files/submissions/${submissionId}`, { cookie }), { submissionId: String(submissionId) })
		const own = await download(instructor.cookie, ownSubmission.id)
		expect(own.status).toBe(200)
		expect(await own.text()).toContain('%PDF')
		const forged = await download(instructor.cookie, otherSubmission.id)
		expect(forged.status).toBe(403)
		expect(await forged.text()).not.toContain('%PDF')
		const colleagueAsks = await download(await sessionCookieFor(colleague), ownSubmission.id)
		expect(colleagueAsks.status).toBe(403)
	})
})

/** The composer and the broadcast form post multipart form data. */
function multipart(path: string, cookie: string, fields: Record<string, string>) {
	const body = new FormData()
	for (const [name, value] of Object.entries(fields)) body.set(name, value)
	return new Request(`http://localhost${path}`, { method: 'POST', body, headers: { Cookie: cookie, 'x-client-ip': '203.0.113.42' } })
}

const BROADCAST = '/dashboard/admin/messages/broadcast'
const DIRECT = '/dashboard/admin/messages/direct'
const messagesFrom = (senderId: string) =>
	t.db.selectFrom('messages').select(['receiver_id', 'course_id', 'content']).where('sender_id', '=', senderId).orderBy('id').execute()

describe('announcements', () => {
	test("the instructor's audience is their courses only; they see the announcements they sent", async () => {
		const { instructor, mine } = world
		const admin = await insertUser(t.db, { role: 'admin' })
		await insertMessage(t.db, { sender_id: admin, receiver_id: null, is_announcement: true, subject: 'School news', content: 'For all' })
		const sent = await callRoute(
			broadcastAction,
			multipart(BROADCAST, instructor.cookie, {
				intent: 'announce',
				courseId: String(mine.id),
				subject: 'Week 1',
				message: 'Bring numbers',
			}),
		)
		expect(sent.status).toBe(302)
		expect(await messagesFrom(instructor.id)).toEqual([{ receiver_id: null, course_id: mine.id, content: 'Bring numbers' }])
		const page = (await (await callRoute(broadcastLoader, getRequest(BROADCAST, { cookie: instructor.cookie }))).json()) as {
			courses: { id: number }[]
			draft: { courseId: string }
			announcements: { content: string }[]
		}
		expect(page.courses.map((course) => course.id)).toEqual([mine.id])
		expect(page.draft.courseId).toBe(String(mine.id))
		expect(page.announcements.map((announcement) => announcement.content)).toEqual(['Bring numbers'])
		const audit = await t.db.selectFrom('audit_log').select('actor_id').where('action', '=', 'announcement.create').execute()
		expect(audit).toContainEqual({ actor_id: instructor.id })
	})

	test('every student, another course, a course that does not exist or a forged query: refused, nothing sent', async () => {
		const { instructor, theirs } = world
		for (const [path, courseId] of [
			[BROADCAST, undefined],
			[BROADCAST, ''],
			[BROADCAST, String(theirs.id)],
			[BROADCAST, '999999'],
			[`${BROADCAST}?courseId=${theirs.id}`, String(theirs.id)],
		] as const) {
			const fields: Record<string, string> = { intent: 'announce', subject: 'Hi', message: 'Sneaky' }
			if (courseId !== undefined) fields.courseId = courseId
			const response = await callRoute(broadcastAction, multipart(path, instructor.cookie, fields))
			expect(response.status, `${path} ${courseId}`).toBe(400)
			expect(JSON.stringify(await response.json())).toContain('Choose one of the courses you teach.')
		}
		expect(await messagesFrom(instructor.id)).toEqual([])
		const forgedChoice = (await (
			await callRoute(broadcastLoader, getRequest(`${BROADCAST}?courseId=${theirs.id}`, { cookie: instructor.cookie }))
		).json()) as { draft: { courseId: string }; courses: { id: number }[] }
		expect(forgedChoice.courses.map((course) => course.id)).not.toContain(theirs.id)
		expect(forgedChoice.draft.courseId).not.toBe(String(theirs.id))
	})
})

describe('direct messages', () => {
	test("the instructor's contacts are their course's students; a student of another course is refused under a forged id", async () => {
		const { instructor, ownStudent, otherStudent } = world
		const page = (await (
			await callRoute(directLoader, getRequest(`${DIRECT}?with=${otherStudent}`, { cookie: instructor.cookie }))
		).json()) as {
			contacts: { id: string }[]
			selected: unknown
			thread: unknown
		}
		expect(page.contacts.map((contact) => contact.id)).toEqual([ownStudent])
		expect(page.selected).toBeNull()
		expect(page.thread).toBeNull()

		const refused = await callRoute(
			directAction,
			multipart(DIRECT, instructor.cookie, { intent: 'send', receiverId: otherStudent, content: 'Psst' }),
		)
		expect(refused.status).toBe(403)
		const forgedQuery = await callRoute(
			directAction,
			multipart(`${DIRECT}?with=${ownStudent}`, instructor.cookie, { intent: 'send', receiverId: otherStudent, content: 'Psst' }),
		)
		expect(forgedQuery.status).toBe(403)
		expect(await messagesFrom(instructor.id)).toEqual([])

		const sent = await callRoute(
			directAction,
			multipart(DIRECT, instructor.cookie, { intent: 'send', receiverId: ownStudent, content: 'Nice work' }),
		)
		expect(sent.status).toBe(302)
		expect(await messagesFrom(instructor.id)).toEqual([{ receiver_id: ownStudent, course_id: null, content: 'Nice work' }])
		const audit = await t.db.selectFrom('audit_log').select('actor_id').where('action', '=', 'message.send').execute()
		expect(audit).toContainEqual({ actor_id: instructor.id })
	})

	test("a student's contacts hold their course's instructor, not another course's", async () => {
		const { instructor, colleague, ownStudent } = world
		const page = (await (
			await callRoute(studentMessagesLoader, getRequest('/dashboard/messages', { cookie: await sessionCookieFor(ownStudent) }))
		).json()) as { contacts: { id: string }[] }
		const ids = page.contacts.map((contact) => contact.id)
		expect(ids).toContain(instructor.id)
		expect(ids).not.toContain(colleague)
	})
})

describe('the waitlist, read-only', () => {
	const waitlistPath = (courseId: number) => `/dashboard/admin/courses/${courseId}/waitlist`
	const entries = (courseId: number) =>
		t.db.selectFrom('waitlist_entries').select(['id', 'position', 'status']).where('course_id', '=', courseId).orderBy('id').execute()

	test("the instructor reads their course's queue; another course's is 404, whatever the query asks", async () => {
		const { instructor, mine, theirs } = world
		const waiting = await insertWaitlistEntry(t.db, { course_id: mine.id, name: 'Wendy Waiting' })
		const own = await callRoute(
			waitlistLoader,
			getRequest(`${waitlistPath(mine.id)}?confirm=remove-${waiting.id}`, { cookie: instructor.cookie }),
			{
				courseId: String(mine.id),
			},
		)
		expect(own.status).toBe(200)
		const page = (await own.json()) as { live: { name: string }[]; readOnly: boolean; confirm: unknown }
		expect(page).toMatchObject({ readOnly: true, confirm: null })
		expect(page.live.map((entry) => entry.name)).toEqual(['Wendy Waiting'])
		const other = await callRoute(waitlistLoader, getRequest(waitlistPath(theirs.id), { cookie: instructor.cookie }), {
			courseId: String(theirs.id),
		})
		expect(other.status).toBe(404)
	})

	test('every change is refused to the instructor, on their course and another, and no entry moves', async () => {
		const { instructor, mine, theirs } = world
		for (const course of [mine, theirs]) {
			const first = await insertWaitlistEntry(t.db, { course_id: course.id, position: 1 })
			await insertWaitlistEntry(t.db, { course_id: course.id, position: 2 })
			const before = await entries(course.id)
			const attempts: Record<string, string>[] = [
				{ intent: 'move', entryId: String(first.id), direction: 'down' },
				{ intent: 'remove', entryId: String(first.id) },
				{ intent: 'offer', entryId: String(first.id) },
				{ intent: 'offer-hours', hours: '1' },
			]
			for (const fields of attempts) {
				const response = await callRoute(waitlistAction, formRequest(waitlistPath(course.id), fields, { cookie: instructor.cookie }), {
					courseId: String(course.id),
				})
				expect(response.headers.get('Location'), fields.intent).toBe('/dashboard')
			}
			expect(await entries(course.id)).toEqual(before)
		}
	})
})

describe('enrolments, read-only', () => {
	const ENROLLMENTS = '/dashboard/admin/enrollments'

	test("the instructor sees their courses' enrolments without payments, also under a search or a forged confirm", async () => {
		const { instructor, mine, theirs, otherStudent } = world
		await insertPaidPayment(t.db, {
			checkoutSessionId: `cs_test_people_${mine.id}`,
			userId: otherStudent,
			courseId: theirs.id,
			courseTitle: theirs.title,
			customerEmail: 'payer@example.com',
		})
		const otherEnrollment = await t.db.selectFrom('enrollments').select('id').where('course_id', '=', theirs.id).executeTakeFirstOrThrow()
		for (const search of [
			'',
			'?q=Rental',
			'?q=Xavier',
			`?confirm=remove-${otherEnrollment.id}`,
			`?confirm=status-${otherEnrollment.id}-inactive`,
		]) {
			const response = await callRoute(enrollmentsLoader, getRequest(`${ENROLLMENTS}${search}`, { cookie: instructor.cookie }))
			expect(response.status).toBe(200)
			const page = (await response.json()) as {
				enrollments: { courseId: number; payment: unknown; paid: unknown }[]
				refunds: unknown[]
				removing: unknown
				changingStatus: unknown
				readOnly: boolean
			}
			expect(page.readOnly).toBe(true)
			expect(page.refunds).toEqual([])
			expect(page.removing).toBeNull()
			expect(page.changingStatus).toBeNull()
			expect(page.enrollments.map((row) => row.courseId)).toEqual(search.startsWith('?q=') ? [] : [mine.id])
			for (const row of page.enrollments) expect(row).toMatchObject({ payment: null, paid: null })
		}
	})

	test('status changes, removals and refunds are refused to the instructor; no row changes', async () => {
		const { instructor, mine, theirs, ownStudent } = world
		const paymentId = await insertPaidPayment(t.db, {
			checkoutSessionId: `cs_test_refund_${mine.id}`,
			userId: ownStudent,
			courseId: mine.id,
			courseTitle: mine.title,
			customerEmail: 'own-payer@example.com',
		})
		const snapshot = () =>
			t.db.selectFrom('enrollments').select(['id', 'status']).where('course_id', 'in', [mine.id, theirs.id]).orderBy('id').execute()
		const before = await snapshot()
		for (const enrollment of before) {
			const attempts: Record<string, string>[] = [
				{ intent: 'status', enrollmentId: String(enrollment.id), status: 'inactive', confirmed: 'yes' },
				{ intent: 'remove', enrollmentId: String(enrollment.id) },
			]
			for (const fields of attempts) {
				const response = await callRoute(enrollmentsAction, formRequest(ENROLLMENTS, fields, { cookie: instructor.cookie }))
				expect(response.headers.get('Location')).toBe('/dashboard')
			}
		}
		expect(await snapshot()).toEqual(before)
		const refundPath = `${ENROLLMENTS}/payments/${paymentId}/refund`
		const params = { paymentId: String(paymentId) }
		const page = await callRoute(refundLoader, getRequest(refundPath, { cookie: instructor.cookie }), params)
		expect(page.headers.get('Location')).toBe('/dashboard')
		const refund = await callRoute(
			refundAction,
			formRequest(refundPath, { amount: '1.00', reason: 'requested_by_customer' }, { cookie: instructor.cookie }),
			params,
		)
		expect(refund.headers.get('Location')).toBe('/dashboard')
		expect(await t.db.selectFrom('payment_refunds').select('id').execute()).toEqual([])
	})
})
