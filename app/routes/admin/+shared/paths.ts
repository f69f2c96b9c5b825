import { href } from 'react-router'
/** The Manage Course Materials screen of a course. */
export function materialsPath(courseId: number) {
	return href('/dashboard/admin/courses/:courseId/materials', { courseId: String(courseId) })
}

/** The attendance roster of one live session. */
export function attendancePath(courseId: number, sessionId: number) {
	return href('/dashboard/admin/courses/:courseId/sessions/:liveSessionId/attendance', {
		courseId: String(courseId),
		liveSessionId: String(sessionId),
	})
}
