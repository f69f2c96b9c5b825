import { type Kysely, sql } from 'kysely'
import { READING_STATUSES } from '#app/models/materials/materials.ts'
import type { Database } from '#db/types.ts'
import type { StudentCourseProgress } from './progress.ts'

/**
 * The student's progress in each course they can read (active or completed), in one query
 * whatever their number (docs/decisions/051): sessions held and attended, assignments overdue and
 * the due times of those still to hand in.
 */
export async function listStudentProgress(db: Kysely<Database>, userId: string, now = new Date()): Promise<StudentCourseProgress[]> {
	const heldSession = sql`s.course_id = course.id AND s.status = 'scheduled' AND s.ends_at <= ${now}`
	const notHandedIn = sql`a.course_id = course.id AND NOT EXISTS (
		SELECT 1 FROM assignment_submissions x WHERE x.assignment_id = a.id AND x.student_id = ${userId})`
	const rows = await db
		.selectFrom('enrollments')
		.innerJoin('courses as course', 'course.id', 'enrollments.course_id')
		.select([
			'course.id as courseId',
			'course.title',
			'course.start_date as startDate',
			'course.end_date as endDate',
			'course.time_zone as timeZone',
			'enrollments.status',
			sql<string>`(SELECT count(*) FROM live_sessions s WHERE ${heldSession})`.as('held'),
			sql<string>`(SELECT count(*) FROM live_sessions s
				JOIN attendance att ON att.live_session_id = s.id AND att.user_id = ${userId} AND att.status IN ('present', 'late')
				WHERE ${heldSession})`.as('attended'),
			sql<string>`(SELECT count(*) FROM assignments a WHERE ${notHandedIn} AND a.due_at < ${now})`.as('overdue'),
			sql<string[] | null>`(SELECT json_agg(a.due_at ORDER BY a.due_at) FROM assignments a WHERE ${notHandedIn} AND a.due_at >= ${now})`.as(
				'upcoming',
			),
		])
		.where('enrollments.user_id', '=', userId)
		.where('enrollments.status', 'in', READING_STATUSES)
		.orderBy('course.start_date', (order) => order.desc().nullsLast())
		.orderBy('course.id')
		.execute()
	return rows.map(({ held, attended, overdue, upcoming, status, ...course }) => ({
		...course,
		completed: status === 'completed',
		heldSessions: Number(held),
		attendedSessions: Number(attended),
		overdueAssignments: Number(overdue),
		upcomingDueDates: (upcoming ?? []).map((due) => new Date(due)),
	}))
}
