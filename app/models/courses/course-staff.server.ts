import { type Expression, type Kysely, type SqlBool, sql } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { Database } from '#db/types.ts'

/** A refusal whose message is shown to the admin as it is. */
export class CourseStaffError extends Error {}

/** The course's instructors and every other instructor who could be added, by name. */
export async function getCourseStaff(db: Kysely<Database>, courseId: number) {
	const rows = await db
		.selectFrom('profiles')
		.innerJoin('users', 'users.id', 'profiles.id')
		.leftJoin('course_staff', (join) => join.onRef('course_staff.user_id', '=', 'profiles.id').on('course_staff.course_id', '=', courseId))
		.select(['profiles.id', 'profiles.name', 'users.email', 'course_staff.added_at'])
		.where('profiles.role', '=', 'instructor')
		.orderBy('profiles.name')
		.orderBy('users.email')
		.execute()
	const toRow = (row: (typeof rows)[number]) => ({ id: row.id, name: row.name, email: row.email })
	return {
		staff: rows.filter((row) => row.added_at).map(toRow),
		others: rows.filter((row) => !row.added_at).map(toRow),
	}
}

/**
 * Makes an instructor staff of courses; courses they already teach are left as they are.
 * Returns the ids of the courses newly added. Unknown courses are refused.
 */
export async function addCourseStaff(db: Kysely<Database>, actorId: string, userId: string, courseIds: readonly number[]) {
	if (courseIds.length === 0) return []
	const courses = await db.selectFrom('courses').select(['id', 'title']).where('id', 'in', courseIds).execute()
	if (courses.length !== new Set(courseIds).size) throw new CourseStaffError('Course not found')
	const instructor = await db
		.selectFrom('profiles')
		.select('name')
		.where('id', '=', userId)
		.where('role', '=', 'instructor')
		.executeTakeFirst()
	if (!instructor) throw new CourseStaffError('Only instructors can teach a course')
	const added = await db
		.insertInto('course_staff')
		.values(courses.map((course) => ({ course_id: course.id, user_id: userId, added_by: actorId })))
		.onConflict((conflict) => conflict.columns(['course_id', 'user_id']).doNothing())
		.returning('course_id')
		.execute()
	for (const { course_id } of added) {
		const course = courses.find((row) => row.id === course_id)
		await recordAudit(db, {
			actorId,
			action: 'course_staff.add',
			entity: 'course',
			entityId: course_id,
			details: { instructor: instructor.name, course: course?.title },
		})
	}
	return added.map((row) => row.course_id)
}

/** Takes an instructor off a course; false when they were not on it. */
export async function removeCourseStaff(db: Kysely<Database>, actorId: string, courseId: number, userId: string) {
	const removed = await db
		.deleteFrom('course_staff')
		.where('course_id', '=', courseId)
		.where('user_id', '=', userId)
		.returning('user_id')
		.executeTakeFirst()
	if (!removed) return false
	const instructor = await db.selectFrom('profiles').select('name').where('id', '=', userId).executeTakeFirst()
	await recordAudit(db, {
		actorId,
		action: 'course_staff.remove',
		entity: 'course',
		entityId: courseId,
		details: { instructor: instructor?.name ?? null },
	})
	return true
}

/** The titles of the courses an instructor teaches, for the mail that tells them. */
export async function courseTitles(db: Kysely<Database>, courseIds: readonly number[]) {
	if (courseIds.length === 0) return []
	const rows = await db.selectFrom('courses').select('title').where('id', 'in', courseIds).orderBy('title').execute()
	return rows.map((row) => row.title)
}

/** Whether the person teaches the course (is on its staff); an admin's access is decided elsewhere. */
export async function isCourseStaff(db: Kysely<Database>, userId: string, courseId: number) {
	const row = await db
		.selectFrom('course_staff')
		.select('course_id')
		.where('user_id', '=', userId)
		.where('course_id', '=', courseId)
		.executeTakeFirst()
	return row !== undefined
}

/** The courses an instructor teaches, soonest start first, for their menu and their scoped lists. */
export async function listStaffCourses(db: Kysely<Database>, userId: string) {
	return db
		.selectFrom('course_staff')
		.innerJoin('courses', 'courses.id', 'course_staff.course_id')
		.select(['courses.id', 'courses.title', 'courses.start_date'])
		.where('course_staff.user_id', '=', userId)
		.orderBy('courses.start_date', 'desc')
		.orderBy('courses.id')
		.execute()
}

/** Someone in the staff area: an admin works on every course, an instructor on those they teach. */
export type StaffViewer = { id: string; isAdmin: boolean }

/**
 * A condition on a course id (a column reference of the caller's query): always true for an
 * admin, true for an instructor only when a `course_staff` row names them and that course. Every
 * scoped list and write of the staff area filters with it, so a forged id finds nothing.
 */
export function taughtBy(viewer: StaffViewer, courseId: Expression<number>): Expression<SqlBool> {
	if (viewer.isAdmin) return sql<SqlBool>`true`
	return sql<SqlBool>`exists (select 1 from course_staff where course_staff.course_id = ${courseId} and course_staff.user_id = ${viewer.id})`
}

/** The courses a staff member works on, as id and title: every course for an admin. */
export async function listCoursesOf(db: Kysely<Database>, viewer: StaffViewer) {
	return db
		.selectFrom('courses')
		.select(['id', 'title'])
		.where(({ ref }) => taughtBy(viewer, ref('courses.id')))
		.orderBy('title')
		.orderBy('id')
		.execute()
}
