/**
 * The staff's side of assignments: a course's list, creating one, the grading queue and grading.
 * The queue and grading are scoped to the courses the viewer works on (docs/decisions/056).
 */

import { type Kysely, sql } from 'kysely'
import { type StaffViewer, taughtBy } from '#app/models/courses/course-staff.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { addJob } from '#app/services/jobs/queue.server.ts'
import type { Database } from '#db/types.ts'
import type { CourseAssignment, GradingRow, GradingTab, SubmissionDetail, SubmissionStatus } from './assignments.ts'
import { COURSE_UPDATE_TASK, type CourseUpdate } from './materials.ts'

/** A course's assignments for the admin, with how many were handed in and await a grade. */
export async function listCourseAssignments(db: Kysely<Database>, courseId: number): Promise<CourseAssignment[]> {
	const rows = await db
		.selectFrom('assignments as a')
		.leftJoin('course_materials as week', 'week.id', 'a.week_id')
		.leftJoin('assignment_submissions as s', 's.assignment_id', 'a.id')
		.select((eb) => [
			'a.id',
			'a.title',
			'week.week_number as weekNumber',
			'a.due_at as dueAt',
			eb.fn.count<string>('s.id').as('submissions'),
			eb.fn.count<string>('s.id').filterWhere('s.status', '=', 'submitted').as('pending'),
		])
		.where('a.course_id', '=', courseId)
		.groupBy(['a.id', 'week.week_number'])
		.orderBy('week.week_number', (order) => order.asc().nullsLast())
		.orderBy('a.due_at', (order) => order.asc().nullsLast())
		.orderBy('a.id')
		.execute()
	return rows.map((row) => ({ ...row, submissions: Number(row.submissions), pending: Number(row.pending) }))
}

/** Creates an assignment of a course (the week, when given, must be one of its weeks); null when the course is gone. */
export async function createAssignment(
	db: Kysely<Database>,
	{
		adminId,
		courseId,
		title,
		instructions,
		weekId,
		dueDate,
	}: { adminId: string; courseId: number; title: string; instructions?: string; weekId?: number; dueDate?: string },
) {
	return db.transaction().execute(async (trx) => {
		const course = await trx.selectFrom('courses').select('id').where('id', '=', courseId).executeTakeFirst()
		if (!course) return null
		const week = weekId
			? await trx.selectFrom('course_materials').select('id').where('id', '=', weekId).where('course_id', '=', courseId).executeTakeFirst()
			: undefined
		const row = await trx
			.insertInto('assignments')
			.values({
				course_id: courseId,
				week_id: week?.id ?? null,
				title,
				instructions: instructions ?? '',
				// A due date is due by the end of that day (UTC).
				due_at: dueDate ? new Date(`${dueDate}T23:59:59Z`) : null,
				created_by: adminId,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		await recordAudit(trx, {
			actorId: adminId,
			action: 'assignment.create',
			entity: 'assignment',
			entityId: row.id,
			details: { courseId, title, weekId: week?.id ?? null, dueDate: dueDate ?? null },
		})
		await addJob(trx, COURSE_UPDATE_TASK, { kind: 'assignment-posted', assignmentId: row.id } satisfies CourseUpdate)
		return row.id
	})
}

const GRADING_LIST_LIMIT = 200

function gradingQuery(db: Kysely<Database>, viewer: StaffViewer, query: string) {
	let base = db
		.selectFrom('assignment_submissions as s')
		.innerJoin('assignments as a', 'a.id', 's.assignment_id')
		.innerJoin('courses as c', 'c.id', 'a.course_id')
		.innerJoin('users as u', 'u.id', 's.student_id')
		.leftJoin('profiles as p', 'p.id', 's.student_id')
		.where(({ ref }) => taughtBy(viewer, ref('a.course_id')))
	if (query) {
		const pattern = `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
		base = base.where((eb) =>
			eb.or([
				eb('p.name', 'ilike', pattern),
				eb('u.email', 'ilike', pattern),
				eb('a.title', 'ilike', pattern),
				eb('c.title', 'ilike', pattern),
			]),
		)
	}
	return base
}

/** A submission as the grading queue lists it (a GradingRow); its detail adds to these. */
const gradingRowColumns = [
	's.id',
	sql<string>`coalesce(p.name, '')`.as('studentName'),
	'u.email as studentEmail',
	'c.title as courseTitle',
	'a.title as assignmentTitle',
	's.submitted_at as submittedAt',
	's.grade',
] as const

/**
 * The grading queue of the courses the viewer works on: one tab's submissions (newest first) and
 * how many each tab holds, both under the same case-insensitive search over the student's name
 * and e-mail, the assignment and the course.
 */
export async function listGradingQueue(db: Kysely<Database>, viewer: StaffViewer, { tab, query }: { tab: GradingTab; query: string }) {
	const [rows, counts] = await Promise.all([
		gradingQuery(db, viewer, query)
			.select(gradingRowColumns)
			.where('s.status', '=', tab === 'graded' ? 'graded' : 'submitted')
			.orderBy('s.submitted_at', 'desc')
			.orderBy('s.id', 'desc')
			.limit(GRADING_LIST_LIMIT)
			.execute(),
		gradingQuery(db, viewer, query)
			.select(['s.status', (eb) => eb.fn.countAll<string>().as('count')])
			.groupBy('s.status')
			.execute(),
	])
	const count = (status: SubmissionStatus) => Number(counts.find((row) => row.status === status)?.count ?? 0)
	return { rows: rows satisfies GradingRow[], counts: { pending: count('submitted'), graded: count('graded') } }
}

/** One submission of a course the viewer works on; null for any other id. */
export async function getSubmissionDetail(
	db: Kysely<Database>,
	viewer: StaffViewer,
	submissionId: number,
): Promise<SubmissionDetail | null> {
	const row = await gradingQuery(db, viewer, '')
		.select(gradingRowColumns)
		.select(['a.instructions', 's.feedback', 's.status', 's.body', 's.file_name as fileName', 's.file_size as fileSize'])
		.where('s.id', '=', submissionId)
		.executeTakeFirst()
	return row ?? null
}

/**
 * Grades a submission, or changes its grade and feedback; false when it does not exist or is of a
 * course the grader does not work on (then no row changes).
 */
export async function gradeSubmission(
	db: Kysely<Database>,
	{ grader, submissionId, grade, feedback }: { grader: StaffViewer; submissionId: number; grade: string; feedback?: string },
) {
	return db.transaction().execute(async (trx) => {
		const updated = await trx
			.updateTable('assignment_submissions')
			.set({ status: 'graded', grade, feedback: feedback ?? null, graded_at: new Date(), graded_by: grader.id })
			.where('id', '=', submissionId)
			.where((eb) =>
				eb.exists(
					eb
						.selectFrom('assignments')
						.select('assignments.id')
						.whereRef('assignments.id', '=', 'assignment_submissions.assignment_id')
						.where(({ ref }) => taughtBy(grader, ref('assignments.course_id'))),
				),
			)
			.returning(['id', 'assignment_id', 'student_id'])
			.executeTakeFirst()
		if (!updated) return false
		await recordAudit(trx, {
			actorId: grader.id,
			action: 'submission.grade',
			entity: 'assignment_submission',
			entityId: submissionId,
			details: { assignmentId: updated.assignment_id, studentId: updated.student_id, grade, feedback: feedback ?? null },
		})
		await addJob(trx, COURSE_UPDATE_TASK, { kind: 'submission-graded', submissionId } satisfies CourseUpdate)
		return true
	})
}
