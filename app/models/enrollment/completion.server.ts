import { type Kysely, sql, type Transaction } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import { type CompletionRecord, type CompletionRule, checkCompletion } from './completion.ts'
import { applyEnrollmentStatus } from './enrollments-admin.server.ts'

/**
 * When a course ends (docs/decisions/052): the end of its end date in its own zone, or the end of its
 * last live session that was not cancelled when that is later. A course without an end date never
 * ends by itself (null); GREATEST skips a course without sessions.
 */
export const courseEndsAt = sql<Date | null>`CASE WHEN courses.end_date IS NULL THEN NULL ELSE greatest(
	((courses.end_date + 1)::timestamp AT TIME ZONE courses.time_zone),
	(SELECT max(ends_at) FROM live_sessions WHERE live_sessions.course_id = courses.id AND live_sessions.status <> 'cancelled')
) END`

/**
 * A course whose rule is due: it has ended, and it was not evaluated since it ended — never, or before
 * its end moved later (a date changed, a session added after the evaluation; decision 052 amendment).
 * The claim sets `completion_evaluated_at` to a time at or after the end, so this is false afterwards.
 */
function dueForCompletion(now: Date) {
	return sql<boolean>`${courseEndsAt} <= ${now} AND (courses.completion_evaluated_at IS NULL OR courses.completion_evaluated_at < ${courseEndsAt})`
}

export function ruleOf(course: {
	completion_min_attendance_percent: number
	completion_requires_all_assignments: boolean
	completion_passing_grade_percent: number | null
}): CompletionRule {
	return {
		minAttendancePercent: course.completion_min_attendance_percent,
		requiresAllAssignments: course.completion_requires_all_assignments,
		passingGradePercent: course.completion_passing_grade_percent,
	}
}

/**
 * The course's students who can read it (active or completed), each with what the rule reads: held
 * sessions (not cancelled, ended by `now`) and those attended present or late, assignments and hand-ins,
 * and the grades of their hand-ins. Five queries, whatever the number of students.
 */
export async function completionRecords(db: Kysely<Database>, courseId: number, now: Date) {
	const [students, held, attended, assignments, handIns] = await Promise.all([
		db
			.selectFrom('enrollments')
			.innerJoin('users', 'users.id', 'enrollments.user_id')
			.leftJoin('profiles', 'profiles.id', 'enrollments.user_id')
			.select(['enrollments.id', 'enrollments.user_id', 'enrollments.status', 'users.email', 'profiles.name'])
			.where('enrollments.course_id', '=', courseId)
			.where('enrollments.status', 'in', ['active', 'completed'])
			.orderBy('profiles.name')
			.orderBy('users.email')
			.execute(),
		db
			.selectFrom('live_sessions')
			.select((eb) => eb.fn.countAll<string>().as('count'))
			.where('course_id', '=', courseId)
			.where('status', '<>', 'cancelled')
			.where('ends_at', '<=', now)
			.executeTakeFirstOrThrow(),
		db
			.selectFrom('attendance')
			.innerJoin('live_sessions', 'live_sessions.id', 'attendance.live_session_id')
			.select(['attendance.user_id', (eb) => eb.fn.countAll<string>().as('count')])
			.where('live_sessions.course_id', '=', courseId)
			.where('live_sessions.status', '<>', 'cancelled')
			.where('live_sessions.ends_at', '<=', now)
			.where('attendance.status', 'in', ['present', 'late'])
			.groupBy('attendance.user_id')
			.execute(),
		db
			.selectFrom('assignments')
			.select((eb) => eb.fn.countAll<string>().as('count'))
			.where('course_id', '=', courseId)
			.executeTakeFirstOrThrow(),
		db
			.selectFrom('assignment_submissions as s')
			.innerJoin('assignments', 'assignments.id', 's.assignment_id')
			.select(['s.student_id', 's.assignment_id', 's.status', 's.grade'])
			.where('assignments.course_id', '=', courseId)
			.execute(),
	])
	const attendedBy = new Map(attended.map((row) => [row.user_id, Number(row.count)]))
	return students.map((student) => {
		const own = handIns.filter((handIn) => handIn.student_id === student.user_id)
		const record: CompletionRecord = {
			heldSessions: Number(held.count),
			attendedSessions: attendedBy.get(student.user_id) ?? 0,
			assignments: Number(assignments.count),
			handedIn: new Set(own.map((handIn) => handIn.assignment_id)).size,
			grades: own.map((handIn) => (handIn.status === 'graded' ? handIn.grade : null)),
		}
		return { enrollmentId: student.id, userId: student.user_id, status: student.status, email: student.email, name: student.name, record }
	})
}

/**
 * Applies the rule of one ended course, in the caller's transaction, once: the update that sets
 * `completion_evaluated_at` claims the course, and a second caller (another process, a doubled cron
 * run) waits on its row lock and then finds it claimed. Each active enrolment that meets the rule is
 * completed, which issues its certificate and asks for its mail; the others stay as they are.
 * Null when the course has not ended or was evaluated since it ended.
 */
export async function completeEndedCourse(trx: Transaction<Database>, courseId: number, now = new Date()) {
	const course = await trx
		.updateTable('courses')
		.set({ completion_evaluated_at: now })
		.where('id', '=', courseId)
		.where(dueForCompletion(now))
		.returning(['completion_min_attendance_percent', 'completion_requires_all_assignments', 'completion_passing_grade_percent'])
		.executeTakeFirst()
	if (!course) return null
	const rule = ruleOf(course)
	const completed: number[] = []
	const notMet: number[] = []
	for (const student of await completionRecords(trx, courseId, now)) {
		if (student.status !== 'active') continue
		if (!checkCompletion(rule, student.record).meets) {
			notMet.push(student.enrollmentId)
			continue
		}
		await applyEnrollmentStatus(trx, { actorId: null, enrollmentId: student.enrollmentId, status: 'completed', now })
		completed.push(student.enrollmentId)
	}
	await recordAudit(trx, {
		actorId: null,
		action: 'course.completion',
		entity: 'course',
		entityId: courseId,
		details: { completed: completed.length, notMet: notMet.length },
	})
	return { completed, notMet }
}

/** The job's work: every ended course not yet evaluated, each in its own transaction. */
export async function completeEndedCourses(db: Kysely<Database>, now = new Date()) {
	const due = await db.selectFrom('courses').select('id').where(dueForCompletion(now)).orderBy('id').execute()
	const results = []
	for (const { id } of due) {
		const result = await transaction(db, (trx) => completeEndedCourse(trx, id, now))
		if (result) results.push({ courseId: id, ...result })
	}
	return results
}
