import { randomUUID } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { action as newEnrollmentAction, loader as newEnrollmentLoader } from '#app/routes/admin/enrollment-new.tsx'
import { action as enrollmentsAction, loader as enrollmentsLoader } from '#app/routes/admin/enrollments.tsx'
import type { EnrollmentStatus } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { countRows, insertCourse, insertEnrollment, insertPayment, insertSeatHold } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()
const ENROLLMENTS = '/dashboard/admin/enrollments'
const NEW_ENROLLMENT = `${ENROLLMENTS}/new`

async function course(capacity = 10, title = `Course ${randomUUID().slice(0, 8)}`) {
	return insertCourse(t.db, { title, capacity })
}

async function enrol(userId: string, courseId: number, status: EnrollmentStatus = 'active') {
	return insertEnrollment(t.db, { userId, courseId, status })
}

/** Add Enrollment is a dialog route of its own (/new); status changes and removals are the list's. */
function post(cookie: string | undefined, fields: Record<string, string>, path?: string) {
	const creating = fields.intent === 'create'
	return callRoute(
		creating ? newEnrollmentAction : enrollmentsAction,
		formRequest(path ?? (creating ? NEW_ENROLLMENT : ENROLLMENTS), fields, { cookie }),
	)
}

async function formErrors(response: Response) {
	expect(response.status).toBe(400)
	const body = (await response.json()) as { result: { error: Record<string, string[] | null> } }
	return body.result.error['']
}

describe('access', () => {
	test('the loader and every action refuse a student (to /dashboard) and a visitor (to /login)', async () => {
		const student = await signedInUser(t.db, { role: 'student' })
		const target = await course()
		const enrollment = await enrol(student.id, target.id)
		const bodies: Array<Record<string, string>> = [
			{ intent: 'create', userId: student.id, courseId: String(target.id) },
			{ intent: 'status', enrollmentId: String(enrollment.id), status: 'completed' },
			{ intent: 'remove', enrollmentId: String(enrollment.id) },
		]
		for (const cookie of [student.cookie, undefined]) {
			const target = cookie ? /^\/dashboard$/ : /^\/login\?redirectTo=/
			const loaded = await callRoute(enrollmentsLoader, getRequest(ENROLLMENTS, { cookie }))
			expect(loaded.headers.get('Location')).toMatch(target)
			for (const body of bodies) {
				const response = await post(cookie, body)
				expect(response.status, body.intent).toBe(302)
				expect(response.headers.get('Location'), body.intent).toMatch(target)
			}
		}
		expect(await t.db.selectFrom('enrollments').select('status').where('id', '=', enrollment.id).executeTakeFirstOrThrow()).toEqual({
			status: 'active',
		})
	})
})

describe('list', () => {
	test('lists enrollments with student and course, searchable by student, e-mail or course', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const tag = randomUUID().slice(0, 8)
		const student = await signedInUser(t.db, { role: 'student', name: `Dana ${tag}` })
		const target = await course(10, `Flipping ${tag}`)
		const enrollment = await enrol(student.id, target.id, 'pending')
		const load = async (search: string) => {
			const response = await callRoute(enrollmentsLoader, getRequest(`${ENROLLMENTS}${search}`, { cookie: admin.cookie }))
			return (await response.json()) as { enrollments: Array<{ id: number; status: string; courseTitle: string; studentName: string }> }
		}
		expect((await load('')).enrollments.find((row) => row.id === enrollment.id)).toMatchObject({
			status: 'pending',
			courseTitle: `Flipping ${tag}`,
			studentName: `Dana ${tag}`,
		})
		expect((await load(`?q=dana%20${tag}`)).enrollments.map((row) => row.id)).toEqual([enrollment.id])
		expect((await load(`?q=FLIPPING%20${tag}`)).enrollments.map((row) => row.id)).toEqual([enrollment.id])
		expect((await load(`?q=${encodeURIComponent(student.email)}`)).enrollments.map((row) => row.id)).toEqual([enrollment.id])
		expect((await load('?q=no-such-enrollment-anywhere')).enrollments).toEqual([])
	})

	test('the Add Enrollment options mark full courses and list payments needing a refund', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const full = await course(1)
		await enrol((await signedInUser(t.db, { role: 'student' })).id, full.id)
		const open = await course(5)
		await insertPayment(t.db, { course_title: full.title, customer_email: 'late@example.com', status: 'needs_refund' })
		const dialog = await callRoute(newEnrollmentLoader, getRequest(NEW_ENROLLMENT, { cookie: admin.cookie }))
		const list = await callRoute(enrollmentsLoader, getRequest(ENROLLMENTS, { cookie: admin.cookie }))
		const data = {
			...((await dialog.json()) as { options: { courses: Array<{ id: number; isFull: boolean; taken: number; capacity: number }> } }),
			...((await list.json()) as { refunds: Array<{ customerEmail: string; amountCents: number }> }),
		}
		expect(data.options.courses.find((row) => row.id === full.id)).toMatchObject({ isFull: true, taken: 1, capacity: 1 })
		expect(data.options.courses.find((row) => row.id === open.id)).toMatchObject({ isFull: false, taken: 0, capacity: 5 })
		expect(data.refunds).toEqual(
			expect.arrayContaining([expect.objectContaining({ customerEmail: 'late@example.com', amountCents: 250000 })]),
		)
	})
})

describe('add enrollment', () => {
	test('creates an active enrollment with one audit row and the toast', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const student = await signedInUser(t.db, { role: 'student' })
		const target = await course(2)
		const before = await countRows(t.db, 'audit_log')
		const response = await post(admin.cookie, { intent: 'create', userId: student.id, courseId: String(target.id) }, NEW_ENROLLMENT)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(ENROLLMENTS)
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Enrollment created!' })
		expect(
			await t.db.selectFrom('enrollments').select('status').where('user_id', '=', student.id).where('course_id', '=', target.id).execute(),
		).toEqual([{ status: 'active' }])
		expect(await countRows(t.db, 'audit_log')).toBe(before + 1)
		expect(await t.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()).toMatchObject({
			actor_id: admin.id,
			action: 'enrollment.create',
			entity: 'enrollment',
		})
	})

	test('asks for both a user and a course', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const student = await signedInUser(t.db, { role: 'student' })
		const target = await course()
		expect(await formErrors(await post(admin.cookie, { intent: 'create', userId: student.id }))).toEqual([
			'Select both a user and a course.',
		])
		expect(await formErrors(await post(admin.cookie, { intent: 'create', courseId: String(target.id) }))).toEqual([
			'Select both a user and a course.',
		])
		expect(await formErrors(await post(admin.cookie, { intent: 'create' }))).toEqual(['Select both a user and a course.'])
	})

	test('refuses a duplicate and a full course with the spec messages, writing nothing', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const student = await signedInUser(t.db, { role: 'student' })
		const target = await course(1)
		await enrol(student.id, target.id)
		const before = await countRows(t.db, 'audit_log')
		expect(await formErrors(await post(admin.cookie, { intent: 'create', userId: student.id, courseId: String(target.id) }))).toEqual([
			'User is already enrolled in this course.',
		])
		const other = await signedInUser(t.db, { role: 'student' })
		expect(await formErrors(await post(admin.cookie, { intent: 'create', userId: other.id, courseId: String(target.id) }))).toEqual([
			'Cannot enroll: Course has reached maximum capacity.',
		])
		expect(await t.db.selectFrom('enrollments').select('id').where('course_id', '=', target.id).execute()).toHaveLength(1)
		expect(await countRows(t.db, 'audit_log')).toBe(before)
	})

	test('a live seat hold counts against capacity', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const target = await course(1)
		const holder = await signedInUser(t.db, { role: 'student' })
		await insertSeatHold(t.db, { userId: holder.id, courseId: target.id })
		const student = await signedInUser(t.db, { role: 'student' })
		expect(await formErrors(await post(admin.cookie, { intent: 'create', userId: student.id, courseId: String(target.id) }))).toEqual([
			'Cannot enroll: Course has reached maximum capacity.',
		])
	})
})

describe('status and removal', () => {
	test('changes the status with one audit row and the toast', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const student = await signedInUser(t.db, { role: 'student' })
		const target = await course()
		const enrollment = await enrol(student.id, target.id)
		const before = await countRows(t.db, 'audit_log')
		const response = await post(
			admin.cookie,
			{ intent: 'status', enrollmentId: String(enrollment.id), status: 'completed' },
			`${ENROLLMENTS}?q=x`,
		)
		expect(response.headers.get('Location')).toBe(`${ENROLLMENTS}?q=x`)
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Enrollment status updated successfully' })
		expect(await t.db.selectFrom('enrollments').select('status').where('id', '=', enrollment.id).executeTakeFirstOrThrow()).toEqual({
			status: 'completed',
		})
		expect(await countRows(t.db, 'audit_log')).toBe(before + 1)
		expect((await t.db.selectFrom('audit_log').select('details').orderBy('id', 'desc').executeTakeFirstOrThrow()).details).toMatchObject({
			from: 'active',
			to: 'completed',
		})
	})

	test('refuses to take a seat in a full course back from inactive', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const target = await course(1)
		const inactive = await enrol((await signedInUser(t.db, { role: 'student' })).id, target.id, 'inactive')
		await enrol((await signedInUser(t.db, { role: 'student' })).id, target.id, 'active')
		const before = await countRows(t.db, 'audit_log')
		const response = await post(admin.cookie, { intent: 'status', enrollmentId: String(inactive.id), status: 'active' })
		expect(await toastOf(response)).toMatchObject({
			type: 'error',
			title: 'Failed to update enrollment status',
			description: 'Cannot enroll: Course has reached maximum capacity.',
		})
		expect(await t.db.selectFrom('enrollments').select('status').where('id', '=', inactive.id).executeTakeFirstOrThrow()).toEqual({
			status: 'inactive',
		})
		expect(await countRows(t.db, 'audit_log')).toBe(before)
	})

	test('an invalid status is refused', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const enrollment = await enrol((await signedInUser(t.db, { role: 'student' })).id, (await course()).id)
		const response = await post(admin.cookie, { intent: 'status', enrollmentId: String(enrollment.id), status: 'expelled' })
		expect(await toastOf(response)).toMatchObject({ type: 'error', title: 'Failed to update enrollment status' })
	})

	test('removes an enrollment with one audit row and the toast; a missing one fails', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const enrollment = await enrol((await signedInUser(t.db, { role: 'student' })).id, (await course()).id)
		const before = await countRows(t.db, 'audit_log')
		const response = await post(admin.cookie, { intent: 'remove', enrollmentId: String(enrollment.id) })
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Enrollment removed successfully' })
		expect(await t.db.selectFrom('enrollments').select('id').where('id', '=', enrollment.id).execute()).toEqual([])
		expect(await countRows(t.db, 'audit_log')).toBe(before + 1)

		const again = await post(admin.cookie, { intent: 'remove', enrollmentId: String(enrollment.id) })
		expect(await toastOf(again)).toMatchObject({ type: 'error', title: 'Failed to remove enrollment' })
		expect(await countRows(t.db, 'audit_log')).toBe(before + 1)
	})
})

describe('a status change that ends access asks first (issue 39 point 8)', () => {
	test('to inactive or pending: the answer is the question, nothing changes until it is confirmed; other changes go at once', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const student = await signedInUser(t.db, { name: 'Quinn Question' })
		const target = await course(5, 'Question Course')
		const enrollment = await enrol(student.id, target.id)
		const statusOf = async () =>
			(await t.db.selectFrom('enrollments').select('status').where('id', '=', enrollment.id).executeTakeFirstOrThrow()).status

		for (const status of ['inactive', 'pending'] as const) {
			const asked = await post(admin.cookie, { intent: 'status', enrollmentId: String(enrollment.id), status }, `${ENROLLMENTS}?q=Quinn`)
			expect(asked.status).toBe(302)
			expect(asked.headers.get('Location')).toBe(`${ENROLLMENTS}?q=Quinn&confirm=status-${enrollment.id}-${status}`)
			expect(await statusOf()).toBe('active')
			const page = (await (
				await callRoute(enrollmentsLoader, getRequest(asked.headers.get('Location')!, { cookie: admin.cookie }))
			).json()) as {
				changingStatus: { id: number; status: string; to: string; loss: string; name: string; courseTitle: string }
			}
			expect(page.changingStatus).toMatchObject({
				id: enrollment.id,
				status: 'active',
				to: status,
				name: 'Quinn Question',
				courseTitle: 'Question Course',
			})
			expect(page.changingStatus.loss).toMatch(/^They lose access to the course/)
		}
		const makeInactive = (confirmed: string) =>
			post(admin.cookie, { intent: 'status', enrollmentId: String(enrollment.id), status: 'inactive', confirmed })
		// A forged confirmation value is no confirmation.
		const forged = await makeInactive('sure')
		expect(await toastOf(forged)).toMatchObject({ type: 'error', title: 'Failed to update enrollment status' })
		expect(await statusOf()).toBe('active')

		const confirmed = await makeInactive('yes')
		expect(await toastOf(confirmed)).toMatchObject({ type: 'success', title: 'Enrollment status updated successfully' })
		expect(await statusOf()).toBe('inactive')
		// Back to active takes nothing away: no question.
		const restored = await post(admin.cookie, { intent: 'status', enrollmentId: String(enrollment.id), status: 'active' })
		expect(await toastOf(restored)).toMatchObject({ type: 'success' })
		expect(await statusOf()).toBe('active')
		// A confirmation link for a change that takes nothing away shows no dialog.
		const noQuestion = (await (
			await callRoute(enrollmentsLoader, getRequest(`${ENROLLMENTS}?confirm=status-${enrollment.id}-completed`, { cookie: admin.cookie }))
		).json()) as { changingStatus: unknown }
		expect(noQuestion.changingStatus).toBeNull()
	})
})
