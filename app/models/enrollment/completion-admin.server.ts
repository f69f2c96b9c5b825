import type { Kysely } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import { completionRecords, courseEndsAt, ruleOf } from './completion.server.ts'
import { type CompletionRuleValues, checkCompletion } from './completion.ts'
import { applyEnrollmentStatus } from './enrollments-admin.server.ts'
import { lockCourse } from './seat-offers.server.ts'

/** A course's completion page: its rule, when it ends, and each student measured against the rule. Null for no such course. */
export async function getCourseCompletion(db: Kysely<Database>, courseId: number, now = new Date()) {
	const course = await db
		.selectFrom('courses')
		.select([
			'id',
			'title',
			'completion_min_attendance_percent',
			'completion_requires_all_assignments',
			'completion_passing_grade_percent',
			'completion_evaluated_at',
			courseEndsAt.as('ends_at'),
		])
		.where('id', '=', courseId)
		.executeTakeFirst()
	if (!course) return null
	const rule = ruleOf(course)
	const students = await completionRecords(db, courseId, now)
	return {
		course: {
			id: course.id,
			title: course.title,
			endsAt: course.ends_at ? new Date(course.ends_at).toISOString() : null,
			evaluatedAt: course.completion_evaluated_at?.toISOString() ?? null,
		},
		rule,
		students: students.map((student) => ({
			enrollmentId: student.enrollmentId,
			name: student.name ?? '',
			email: student.email,
			status: student.status,
			record: student.record,
			check: checkCompletion(rule, student.record),
		})),
	}
}

/** Saves the course's completion rule, with its audit entry; false when the course does not exist. */
export async function saveCompletionRule(
	db: Kysely<Database>,
	adminId: string,
	{ courseId, values }: { courseId: number; values: CompletionRuleValues },
) {
	return transaction(db, async (trx) => {
		const before = await trx
			.selectFrom('courses')
			.select(['completion_min_attendance_percent', 'completion_requires_all_assignments', 'completion_passing_grade_percent'])
			.where('id', '=', courseId)
			.forNoKeyUpdate()
			.executeTakeFirst()
		if (!before) return false
		const after = {
			minAttendancePercent: values.minAttendancePercent,
			requiresAllAssignments: values.requiresAllAssignments,
			passingGradePercent: values.passingGradePercent ?? null,
		}
		await trx
			.updateTable('courses')
			.set({
				completion_min_attendance_percent: after.minAttendancePercent,
				completion_requires_all_assignments: after.requiresAllAssignments,
				completion_passing_grade_percent: after.passingGradePercent,
				updated_at: new Date(),
			})
			.where('id', '=', courseId)
			.execute()
		await recordAudit(trx, {
			actorId: adminId,
			action: 'course.completion_rule',
			entity: 'course',
			entityId: courseId,
			details: { before: ruleOf(before), after },
		})
		return true
	})
}

export type CompletionByHand = 'complete' | 'reopen'

/**
 * The admin completes an active enrolment of the course (its certificate is issued and mailed) or
 * reopens a completed one (active again; its certificate is revoked, docs/decisions/052).
 * 'not-found' for an enrolment of no such course, 'unchanged' when it is not in the state the
 * change starts from (already done, e.g. the same form sent twice at once).
 */
export async function setCompletionByHand(
	db: Kysely<Database>,
	adminId: string,
	{ courseId, enrollmentId, change, now = new Date() }: { courseId: number; enrollmentId: number; change: CompletionByHand; now?: Date },
) {
	return transaction(db, async (trx) => {
		if (!(await lockCourse(trx, courseId))) return 'not-found' as const
		const enrollment = await trx
			.selectFrom('enrollments')
			.select('status')
			.where('id', '=', enrollmentId)
			.where('course_id', '=', courseId)
			.executeTakeFirst()
		if (!enrollment) return 'not-found' as const
		const [from, to] = change === 'complete' ? (['active', 'completed'] as const) : (['completed', 'active'] as const)
		if (enrollment.status !== from) return 'unchanged' as const
		await applyEnrollmentStatus(trx, { actorId: adminId, enrollmentId, status: to, now })
		return change === 'complete' ? ('completed' as const) : ('reopened' as const)
	})
}
