/**
 * The notices a cohort expects (issue 39 point 6): an assignment posted, a recording added and a
 * grade each e-mail the students concerned, through a job asked for with the change, on the
 * announcements switch with its unsubscribe link.
 */
import { runOnce } from 'graphile-worker'
import { sql } from 'kysely'
import { describe, expect, test } from 'vitest'
import { TASKS } from '#app/jobs/index.server.ts'
import { createAssignment, gradeSubmission } from '#app/models/materials/assignments-admin.server.ts'
import { COURSE_UPDATE_TASK, type CourseUpdate } from '#app/models/materials/materials.ts'
import { emailCourseUpdate } from '#app/models/materials/materials-emails.server.ts'
import type { EnrollmentStatus } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertAssignment, insertCourse, insertEnrollment, insertSubmission, insertUser, insertWeek } from '#tests/support/fixtures.ts'

const t = useTestDatabase()

async function student(
	courseId: number,
	{ announcements = true, status = 'active' }: { announcements?: boolean; status?: EnrollmentStatus } = {},
) {
	const email = `${crypto.randomUUID()}@example.com`
	const id = await insertUser(t.db, { email, name: 'Casey' })
	await t.db.updateTable('profiles').set({ email_announcements: announcements }).where('id', '=', id).execute()
	await insertEnrollment(t.db, { userId: id, courseId, status })
	return { id, email }
}

async function mailsTo(email: string) {
	return t.db
		.selectFrom('email_outbox')
		.select(['subject', 'text_body as text', 'headers'])
		.where('to_address', '=', email)
		.orderBy('id')
		.execute()
}

async function runCourseUpdates() {
	await runOnce({
		connectionString: t.url,
		concurrency: 1,
		noHandleSignals: true,
		taskList: { [COURSE_UPDATE_TASK]: TASKS[COURSE_UPDATE_TASK]! },
	})
}

async function pendingUpdates() {
	const { rows } = await sql<{
		n: number
	}>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = ${COURSE_UPDATE_TASK}`.execute(t.db)
	return rows[0]!.n
}

describe('course news by e-mail', () => {
	test('a new assignment: a job with the change, then one mail to each active student who keeps course e-mails on', async () => {
		const course = await insertCourse(t.db, { title: 'Notice Course' })
		const admin = await insertUser(t.db, { role: 'admin' })
		const [reader, quiet, gone] = [
			await student(course.id),
			await student(course.id, { announcements: false }),
			await student(course.id, { status: 'inactive' }),
		]
		const assignmentId = await createAssignment(t.db, { adminId: admin, courseId: course.id, title: 'Deal Memo', dueDate: '2031-02-01' })
		expect(await pendingUpdates()).toBeGreaterThanOrEqual(1)
		await runCourseUpdates()
		const [mail] = await mailsTo(reader.email)
		expect(mail?.subject).toBe('Notice Course: new assignment, Deal Memo')
		expect(mail?.text).toContain('Deal Memo has been posted in Notice Course. It is due on 2031-02-01.')
		expect(mail?.text).toContain(`/dashboard/assignments/${assignmentId}`)
		expect(mail?.text).toMatch(/\/unsubscribe\?token=/)
		expect(mail?.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' })
		expect(await mailsTo(quiet.email)).toEqual([])
		expect(await mailsTo(gone.email)).toEqual([])
	})

	test('a grade: a mail to that student only; recordings added: to the course’s students, naming them', async () => {
		const course = await insertCourse(t.db, { title: 'Graded Course' })
		const admin = await insertUser(t.db, { role: 'admin' })
		const [author, classmate] = [await student(course.id), await student(course.id)]
		const assignment = await insertAssignment(t.db, { course_id: course.id, title: 'Rehab Budget' })
		const submission = await insertSubmission(t.db, { assignment_id: assignment.id, student_id: author.id, body: 'My budget' })
		expect(
			await gradeSubmission(t.db, { grader: { id: admin, isAdmin: true }, submissionId: submission.id, grade: 'A', feedback: 'Clear.' }),
		).toBe(true)
		await runCourseUpdates()
		expect((await mailsTo(author.email)).map((mail) => mail.subject)).toEqual(['Graded Course: Rehab Budget is graded'])
		expect((await mailsTo(author.email))[0]?.text).toContain('Your submission for Rehab Budget has been graded: A.')
		expect(await mailsTo(classmate.email)).toEqual([])

		const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: 2, topic: 'Rehab' })
		expect(await emailCourseUpdate(t.db, { kind: 'recordings-added', weekId, titles: ['Week 2 Class'] }, 'run-1')).toBe(2)
		for (const person of [author, classmate]) {
			const mails = await mailsTo(person.email)
			expect(mails.at(-1)?.subject).toBe('Graded Course: week 2 recording added')
			expect(mails.at(-1)?.text).toContain('A recording of week 2 (Rehab) can now be watched: Week 2 Class.')
		}
	})

	test('news about something deleted before the job ran sends nothing', async () => {
		expect(await emailCourseUpdate(t.db, { kind: 'assignment-posted', assignmentId: 999_999 }, 'run-1')).toBe(0)
		expect(await emailCourseUpdate(t.db, { kind: 'submission-graded', submissionId: 999_999 }, 'run-1')).toBe(0)
		expect(await emailCourseUpdate(t.db, { kind: 'recordings-added', weekId: 999_999, titles: ['x'] }, 'run-1')).toBe(0)
	})

	test('a job run again after its mail committed (a worker stopped before marking it done) mails nobody twice', async () => {
		const course = await insertCourse(t.db, { title: 'Retry Course' })
		const [first, second] = [await student(course.id), await student(course.id)]
		const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: 3, topic: 'Exit' })
		const update: CourseUpdate = { kind: 'recordings-added', weekId, titles: ['Week 3 Class'] }
		expect(await emailCourseUpdate(t.db, update, 'job-41')).toBe(2)
		const again = await Promise.all([emailCourseUpdate(t.db, update, 'job-41'), emailCourseUpdate(t.db, update, 'job-41')])
		expect(again).toEqual([0, 0])
		for (const person of [first, second]) expect(await mailsTo(person.email)).toHaveLength(1)
		// Another run of the same news (a second job) is news again.
		expect(await emailCourseUpdate(t.db, update, 'job-42')).toBe(2)
	})
})
