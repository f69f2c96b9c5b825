import { data } from 'react-router'
import { isCourseStaff } from '#app/models/courses/course-staff.server.ts'
import { getCourseOption } from '#app/models/materials/materials-admin.server.ts'
import { requireStaff } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import type { SessionUser } from '#app/utils/session.server.ts'

/** The course id of the address: 404 when it is not an id, the same answer as for a course that does not exist. */
export function courseIdOf(courseIdParam: string | undefined) {
	const courseId = parseRowId(courseIdParam)
	if (courseId === null) throw data('Course Not Found', { status: 404 })
	return courseId
}

/** What `find` answers for the course of the address; 404 when the id is not one or `find` finds nothing. */
export async function findCourse<T>(courseIdParam: string | undefined, find: (courseId: number) => Promise<T | null | undefined>) {
	const found = await find(courseIdOf(courseIdParam))
	if (!found) throw data('Course Not Found', { status: 404 })
	return found
}

/**
 * The gate of every course-scoped staff page (docs/decisions/056): an admin, or an instructor on the
 * course's staff, asked again on every request so that taking someone off a course takes effect at
 * once. Anyone else signed in goes back to the dashboard; another course's instructor, like an id
 * that names no course, gets 404: the page does not say whether the course exists.
 */
export async function requireCourseStaff(request: Request, courseIdParam: string | undefined) {
	const user = await requireStaff(request)
	const courseId = courseIdOf(courseIdParam)
	if (!user.isAdmin && !(await isCourseStaff(getDb(), user.id, courseId))) throw data('Course Not Found', { status: 404 })
	return { user, courseId }
}

/** The course of the address with the staff member at work on it, through `requireCourseStaff`'s gate. */
export async function requireStaffCourse(request: Request, params: { courseId?: string }) {
	const { user, courseId } = await requireCourseStaff(request, params.courseId)
	const course = await getCourseOption(getDb(), courseId)
	if (!course) throw data('Course not found', { status: 404 })
	return { user, course }
}

/**
 * Whether a staff member may work on a course named by a body or query field rather than by the
 * path: an admin on every course, an instructor on the courses they teach, asked at the time.
 */
export async function teachesCourse(user: SessionUser, courseId: number) {
	return user.isAdmin || (await isCourseStaff(getDb(), user.id, courseId))
}
