import { href } from 'react-router'
/** The Manage Course Materials screen of a course. */
export function materialsPath(courseId: number) {
	return href('/dashboard/admin/courses/:courseId/materials', { courseId: String(courseId) })
}
