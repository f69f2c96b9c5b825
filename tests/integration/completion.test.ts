/**
 * Completion (issue 40 point 3, docs/decisions/052): each course's rule, applied once when the course
 * ends — whatever number of runs at once — completing and e-mailing the students who meet it and
 * leaving the others; the admin's rule form and completing or reopening by hand, which revokes the
 * certificate.
 */
import { sql } from 'kysely'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, test } from 'vitest'
import { CompletionSchedule } from '#app/components/admin/course-completion.tsx'
import { SEND_CERTIFICATE_TASK } from '#app/models/enrollment/certificates.server.ts'
import { completeEndedCourse, completeEndedCourses } from '#app/models/enrollment/completion.server.ts'
import { checkCompletion, gradePercent } from '#app/models/enrollment/completion.ts'
import { setCompletionByHand } from '#app/models/enrollment/completion-admin.server.ts'
import { updateEnrollmentStatus } from '#app/models/enrollment/enrollments-admin.server.ts'
import { action, loader } from '#app/routes/admin/course-completion.tsx'
import { addJob } from '#app/services/jobs/queue.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAssignment,
	insertAttendance,
	insertCourse,
	insertEnrollment,
	insertLiveSession,
	insertSubmission,
	insertUser,
} from '#tests/support/fixtures.ts'
import { runInTwoJobRunners } from '#tests/support/job-runners.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()
let admin: string

beforeAll(async () => {
	admin = await insertUser(t.db, { role: 'admin', name: 'Completion Admin' })
})

const DAY = 86_400_000

/** A course that ended yesterday with four held sessions (and one cancelled), two assignments, and its rule. */
async function endedCourse(rule: { min?: number; all?: boolean; passing?: number | null } = {}) {
	const course = await insertCourse(t.db, {
		capacity: 50,
		start_date: '2026-01-05',
		end_date: new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10),
		time_zone: 'UTC',
		completion_min_attendance_percent: rule.min ?? 75,
		completion_requires_all_assignments: rule.all ?? true,
		completion_passing_grade_percent: rule.passing ?? null,
	})
	const sessions = []
	for (let week = 1; week <= 4; week++) {
		sessions.push(
			await insertLiveSession(t.db, {
				courseId: course.id,
				weekNumber: week,
				startsAt: `2026-02-0${week}T18:00:00Z`,
				endsAt: `2026-02-0${week}T19:00:00Z`,
			}),
		)
	}
	const cancelled = await insertLiveSession(t.db, {
		courseId: course.id,
		weekNumber: 5,
		startsAt: '2026-02-10T18:00:00Z',
		endsAt: '2026-02-10T19:00:00Z',
	})
	await t.db.updateTable('live_sessions').set({ status: 'cancelled' }).where('id', '=', cancelled).execute()
	const assignments = [
		await insertAssignment(t.db, { course_id: course.id, title: 'Deal analysis' }),
		await insertAssignment(t.db, { course_id: course.id, title: 'Rehab budget' }),
	]
	return { course, sessions, assignments: assignments.map((assignment) => assignment.id) }
}

type Course = Awaited<ReturnType<typeof endedCourse>>

/** A student of the course who attended `attended` sessions (the first present, then late) and handed in with the given grades. */
async function student(course: Course, { attended = 4, grades = ['90', '90'] as Array<string | null | undefined> } = {}) {
	const userId = await insertUser(t.db)
	const enrollment = await insertEnrollment(t.db, { userId, courseId: course.course.id })
	for (const [index, sessionId] of course.sessions.slice(0, attended).entries()) {
		await insertAttendance(t.db, { sessionId, userId, status: index === 0 ? 'present' : 'late' })
	}
	for (const sessionId of course.sessions.slice(attended))
		await insertAttendance(t.db, { sessionId, userId, status: 'absent', source: 'hand' })
	for (const [index, grade] of grades.entries()) {
		if (grade === undefined) continue
		await insertSubmission(t.db, {
			assignment_id: course.assignments[index]!,
			student_id: userId,
			body: 'My work',
			...(grade === null ? {} : { status: 'graded', grade, graded_at: new Date(), graded_by: admin }),
		})
	}
	return { userId, enrollmentId: enrollment.id }
}

async function statusOf(enrollmentId: number) {
	return (await t.db.selectFrom('enrollments').select('status').where('id', '=', enrollmentId).executeTakeFirstOrThrow()).status
}

/** The end-of-course job's audit entries for a course: one per evaluation. */
function completionAudits(courseId: number) {
	return t.db
		.selectFrom('audit_log')
		.select('id')
		.where('action', '=', 'course.completion')
		.where('entity_id', '=', String(courseId))
		.execute()
}

async function certificatesOf(enrollmentId: number) {
	return t.db.selectFrom('certificates').select(['id', 'revoked_at', 'revoked_reason']).where('enrollment_id', '=', enrollmentId).execute()
}

async function certificateJobs(certificateIds: string[]) {
	const { rows } = await sql<{ payload: { certificateId: string } }>`SELECT job.payload FROM graphile_worker._private_jobs job
		JOIN graphile_worker._private_tasks task ON task.id = job.task_id WHERE task.identifier = ${SEND_CERTIFICATE_TASK}`.execute(t.db)
	return rows.filter((row) => certificateIds.includes(row.payload.certificateId))
}

describe('the rule', () => {
	test('reads grades as percentages: numbers, fractions, letters, pass and fail; anything else is unreadable', () => {
		expect(gradePercent('85')).toBe(85)
		expect(gradePercent(' 85 % ')).toBe(85)
		expect(gradePercent('17/20')).toBe(85)
		expect(gradePercent('8.5 / 10')).toBe(85)
		expect(gradePercent('b+')).toBe(87)
		expect(gradePercent('F')).toBe(0)
		expect(gradePercent('Pass')).toBe(100)
		expect(gradePercent('Fail')).toBe(0)
		for (const unreadable of ['150', '21/20', 'Great work', '', '5/0']) expect(gradePercent(unreadable)).toBeNull()
	})

	test('attendance is met at the boundary and not below it; 0 % asks for none; no held sessions asks for none', () => {
		const record = { heldSessions: 4, attendedSessions: 3, assignments: 0, handedIn: 0, grades: [] }
		const rule = { minAttendancePercent: 75, requiresAllAssignments: true, passingGradePercent: null }
		expect(checkCompletion(rule, record).attendanceMet).toBe(true)
		expect(checkCompletion({ ...rule, minAttendancePercent: 76 }, record).attendanceMet).toBe(false)
		expect(checkCompletion({ ...rule, minAttendancePercent: 0 }, { ...record, attendedSessions: 0 }).meets).toBe(true)
		expect(checkCompletion(rule, { ...record, heldSessions: 0, attendedSessions: 0 }).meets).toBe(true)
	})
})

describe('the end-of-course job', () => {
	test('completes the active students who meet the rule and leaves the others: attendance boundary, a missing hand-in, a failing or ungraded grade', async () => {
		const course = await endedCourse({ min: 75, all: true, passing: 70 })
		const meets = await student(course, { attended: 3, grades: ['17/20', 'B-'] })
		const belowAttendance = await student(course, { attended: 2 })
		const missingHandIn = await student(course, { grades: ['90', undefined] })
		const failingGrade = await student(course, { grades: ['90', 'D'] })
		const ungraded = await student(course, { grades: ['90', null] })
		const inactive = await student(course)
		await t.db.updateTable('enrollments').set({ status: 'inactive' }).where('id', '=', inactive.enrollmentId).execute()

		const result = await transaction(t.db, (trx) => completeEndedCourse(trx, course.course.id))
		expect(result).toEqual({ completed: [meets.enrollmentId], notMet: expect.any(Array) })
		expect(result?.notMet.sort()).toEqual(
			[belowAttendance, missingHandIn, failingGrade, ungraded].map((one) => one.enrollmentId).sort((a, b) => a - b),
		)
		expect(await statusOf(meets.enrollmentId)).toBe('completed')
		for (const other of [belowAttendance, missingHandIn, failingGrade, ungraded]) {
			expect(await statusOf(other.enrollmentId)).toBe('active')
			expect(await certificatesOf(other.enrollmentId)).toEqual([])
		}
		expect(await statusOf(inactive.enrollmentId)).toBe('inactive')
		const [certificate] = await certificatesOf(meets.enrollmentId)
		expect(certificate?.revoked_at).toBeNull()
		expect(await certificateJobs([certificate!.id])).toHaveLength(1)
		const audit = await t.db
			.selectFrom('audit_log')
			.select(['actor_id', 'details'])
			.where('action', '=', 'course.completion')
			.where('entity_id', '=', String(course.course.id))
			.executeTakeFirstOrThrow()
		expect(audit).toEqual({ actor_id: null, details: { completed: 1, notMet: 4 } })
	})

	test('without a hand-in rule or a passing grade, attendance alone decides; 0 % completes everyone active', async () => {
		const course = await endedCourse({ min: 0, all: false })
		const absentAll = await student(course, { attended: 0, grades: [undefined, 'F'] })
		await transaction(t.db, (trx) => completeEndedCourse(trx, course.course.id))
		expect(await statusOf(absentAll.enrollmentId)).toBe('completed')
	})

	test('run twice and in parallel, completes and e-mails each student exactly once', async () => {
		const course = await endedCourse()
		const students = await Promise.all(Array.from({ length: 6 }, () => student(course)))
		const runs = await Promise.all([completeEndedCourses(t.db), completeEndedCourses(t.db)])
		await completeEndedCourses(t.db)
		const ours = runs.flat().filter((run) => run.courseId === course.course.id)
		expect(ours).toHaveLength(1)
		const ids: string[] = []
		for (const one of students) {
			expect(await statusOf(one.enrollmentId)).toBe('completed')
			const certificates = await certificatesOf(one.enrollmentId)
			expect(certificates).toHaveLength(1)
			ids.push(certificates[0]!.id)
		}
		expect(await certificateJobs(ids)).toHaveLength(students.length)
		expect(await completionAudits(course.course.id)).toHaveLength(1)
	})

	test('in two job runners (two app processes), each student gets one certificate mail', async () => {
		const course = await endedCourse()
		const students = await Promise.all(
			Array.from({ length: 4 }, async () => {
				const one = await student(course)
				const { email } = await t.db.selectFrom('users').select('email').where('id', '=', one.userId).executeTakeFirstOrThrow()
				return { ...one, email }
			}),
		)
		await runInTwoJobRunners({ databaseUrl: t.url, db: t.db, tasks: ['complete-ended-courses', SEND_CERTIFICATE_TASK] }, () =>
			Promise.all(Array.from({ length: 6 }, () => addJob(t.db, 'complete-ended-courses'))),
		)
		for (const one of students) {
			const mails = await t.db.selectFrom('email_outbox').select('subject').where('to_address', '=', one.email).execute()
			expect(mails).toHaveLength(1)
		}
	})

	test('a make-up session added after the evaluation runs the rule again once it has ended: who meets it now is completed, nobody is reopened', async () => {
		const course = await endedCourse({ min: 60, all: false })
		const first = await student(course, { attended: 4 })
		const late = await student(course, { attended: 2 })
		const evaluatedAt = new Date(Date.now() - 2 * 3_600_000)
		expect((await completeEndedCourses(t.db, evaluatedAt)).find((run) => run.courseId === course.course.id)?.completed).toEqual([
			first.enrollmentId,
		])
		const makeUp = await insertLiveSession(t.db, {
			courseId: course.course.id,
			weekNumber: 6,
			startsAt: new Date(Date.now() - 2 * 3_600_000 + 60_000),
			endsAt: new Date(Date.now() - 3_600_000),
		})
		await insertAttendance(t.db, { sessionId: makeUp, userId: late.userId, status: 'present' })
		await insertAttendance(t.db, { sessionId: makeUp, userId: first.userId, status: 'absent', source: 'hand' })

		const again = await Promise.all([completeEndedCourses(t.db), completeEndedCourses(t.db)])
		expect(again.flat().filter((run) => run.courseId === course.course.id)).toEqual([
			{ courseId: course.course.id, completed: [late.enrollmentId], notMet: [] },
		])
		expect(await statusOf(first.enrollmentId)).toBe('completed')
		expect(await statusOf(late.enrollmentId)).toBe('completed')
		expect((await certificatesOf(first.enrollmentId)).filter((one) => one.revoked_at === null)).toHaveLength(1)
		expect((await completeEndedCourses(t.db)).some((run) => run.courseId === course.course.id)).toBe(false)
		expect(await completionAudits(course.course.id)).toHaveLength(2)
	})

	test('leaves a course that has not ended, one whose last live session is still ahead after its end date, and one without an end date', async () => {
		const future = await insertCourse(t.db, {
			capacity: 5,
			end_date: new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10),
			completion_min_attendance_percent: 0,
		})
		const futureStudent = await insertEnrollment(t.db, { userId: await insertUser(t.db), courseId: future.id })
		const lateSession = await insertCourse(t.db, {
			capacity: 5,
			end_date: '2026-01-01',
			time_zone: 'UTC',
			completion_min_attendance_percent: 0,
		})
		await insertLiveSession(t.db, {
			courseId: lateSession.id,
			startsAt: new Date(Date.now() + DAY),
			endsAt: new Date(Date.now() + DAY + 3_600_000),
		})
		const lateStudent = await insertEnrollment(t.db, { userId: await insertUser(t.db), courseId: lateSession.id })
		const undated = await insertCourse(t.db, { capacity: 5, completion_min_attendance_percent: 0 })
		await insertLiveSession(t.db, { courseId: undated.id })
		const undatedStudent = await insertEnrollment(t.db, { userId: await insertUser(t.db), courseId: undated.id })

		const ran = await completeEndedCourses(t.db)
		expect(ran.map((one) => one.courseId)).not.toEqual(expect.arrayContaining([future.id]))
		for (const id of [future.id, lateSession.id, undated.id]) {
			expect(ran.some((one) => one.courseId === id)).toBe(false)
			const row = await t.db.selectFrom('courses').select('completion_evaluated_at').where('id', '=', id).executeTakeFirstOrThrow()
			expect(row.completion_evaluated_at).toBeNull()
		}
		expect(await statusOf(futureStudent.id)).toBe('active')
		expect(await statusOf(lateStudent.id)).toBe('active')
		expect(await statusOf(undatedStudent.id)).toBe('active')
	})
})

describe('the schedule the page states', () => {
	test('before the end, after the evaluation, and after the end moved past the evaluation', () => {
		const text = (endsAt: string | null, evaluatedAt: string | null) =>
			renderToStaticMarkup(createElement(CompletionSchedule, { endsAt, evaluatedAt })).replace(/<[^>]+>/g, '')
		expect(text('2026-12-01T00:00:00.000Z', null)).toMatch(/^The rule is applied once, when the course ends/)
		expect(text('2026-12-01T00:00:00.000Z', '2026-12-01T00:10:00.000Z')).toMatch(/^The rule was applied when the course ended, on /)
		expect(text('2026-12-08T00:00:00.000Z', '2026-12-01T00:10:00.000Z')).toMatch(
			/^The rule was applied on .+; the course now ends later \(.+\), and the rule is applied again then for the students still active\.$/,
		)
		expect(text(null, null)).toBe('This course has no end date, so the rule is never applied by itself.')
	})
})

describe('by hand', () => {
	test('reopening a completed enrolment makes it active and revokes its certificate with an audit entry; completing again issues a new one', async () => {
		const course = await endedCourse()
		const one = await student(course, { attended: 0 })
		expect(await setCompletionByHand(t.db, admin, { courseId: course.course.id, enrollmentId: one.enrollmentId, change: 'complete' })).toBe(
			'completed',
		)
		const [first] = await certificatesOf(one.enrollmentId)
		const twice = await Promise.all(
			[0, 1].map(() => setCompletionByHand(t.db, admin, { courseId: course.course.id, enrollmentId: one.enrollmentId, change: 'reopen' })),
		)
		expect(twice.sort()).toEqual(['reopened', 'unchanged'])
		expect(await statusOf(one.enrollmentId)).toBe('active')
		expect(await certificatesOf(one.enrollmentId)).toEqual([
			{ id: first!.id, revoked_at: expect.any(Date), revoked_reason: 'Enrollment reopened: no longer completed' },
		])
		const revokeAudit = await t.db
			.selectFrom('audit_log')
			.select(['actor_id'])
			.where('action', '=', 'certificate.revoke')
			.where('entity_id', '=', first!.id)
			.execute()
		expect(revokeAudit).toEqual([{ actor_id: admin }])

		expect(await setCompletionByHand(t.db, admin, { courseId: course.course.id, enrollmentId: one.enrollmentId, change: 'complete' })).toBe(
			'completed',
		)
		const after = await certificatesOf(one.enrollmentId)
		expect(after.filter((certificate) => certificate.revoked_at === null)).toHaveLength(1)
		expect(after).toHaveLength(2)
	})

	test("Manage Enrollments' status change away from completed revokes the certificate too", async () => {
		const course = await endedCourse()
		const one = await student(course)
		await updateEnrollmentStatus(t.db, admin, one.enrollmentId, 'completed')
		await updateEnrollmentStatus(t.db, admin, one.enrollmentId, 'inactive')
		const [certificate] = await certificatesOf(one.enrollmentId)
		expect(certificate?.revoked_at).toBeInstanceOf(Date)
	})

	test('an enrolment of another course, or one not in the state the change starts from, is refused and nothing changes', async () => {
		const course = await endedCourse()
		const other = await endedCourse()
		const one = await student(course)
		expect(await setCompletionByHand(t.db, admin, { courseId: other.course.id, enrollmentId: one.enrollmentId, change: 'complete' })).toBe(
			'not-found',
		)
		expect(await setCompletionByHand(t.db, admin, { courseId: course.course.id, enrollmentId: one.enrollmentId, change: 'reopen' })).toBe(
			'unchanged',
		)
		expect(await statusOf(one.enrollmentId)).toBe('active')
	})
})

describe('the completion page', () => {
	test('saves a valid rule with an audit entry; refuses 150 % with a message and writes nothing', async () => {
		const course = await endedCourse()
		const { cookie } = await signedInUser(t.db, { role: 'admin' })
		const path = `/dashboard/admin/courses/${course.course.id}/completion`
		const refused = await callRoute(
			action,
			formRequest(path, { intent: 'rule', minAttendancePercent: '150', passingGradePercent: '', requiresAllAssignments: 'on' }, { cookie }),
			{ courseId: String(course.course.id) },
		)
		expect(refused.status).toBe(400)
		expect(JSON.stringify(await refused.json())).toContain('Enter a whole percentage from 0 to 100')
		const unchanged = await t.db
			.selectFrom('courses')
			.select('completion_min_attendance_percent')
			.where('id', '=', course.course.id)
			.executeTakeFirstOrThrow()
		expect(unchanged.completion_min_attendance_percent).toBe(75)

		const saved = await callRoute(
			action,
			formRequest(path, { intent: 'rule', minAttendancePercent: '0', passingGradePercent: '60' }, { cookie }),
			{
				courseId: String(course.course.id),
			},
		)
		expect(saved.status).toBe(302)
		expect((await toastOf(saved))?.title).toBe('Completion rule saved')
		const row = await t.db
			.selectFrom('courses')
			.select(['completion_min_attendance_percent', 'completion_requires_all_assignments', 'completion_passing_grade_percent'])
			.where('id', '=', course.course.id)
			.executeTakeFirstOrThrow()
		expect(row).toEqual({
			completion_min_attendance_percent: 0,
			completion_requires_all_assignments: false,
			completion_passing_grade_percent: 60,
		})

		const page = await callRoute(loader, getRequest(path, { cookie }), { courseId: String(course.course.id) })
		expect(page.status).toBe(200)
	})

	test('the database refuses a rule out of range whatever writes it', async () => {
		const course = await insertCourse(t.db)
		await expect(
			t.db.updateTable('courses').set({ completion_min_attendance_percent: 101 }).where('id', '=', course.id).execute(),
		).rejects.toThrow(/check constraint/)
		await expect(
			t.db.updateTable('courses').set({ completion_passing_grade_percent: 0 }).where('id', '=', course.id).execute(),
		).rejects.toThrow(/check constraint/)
	})
})
