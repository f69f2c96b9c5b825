import { exportedCourse, streamAttendanceLines } from '#app/models/reports/exports.server.ts'
import { ATTENDANCE_COLUMNS, attendanceCells } from '#app/models/reports/exports.ts'
import { requireCourseStaff } from '#app/routes/admin/+shared/course-access.server.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { courseCsvFileName } from '#app/utils/csv.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { csvDownload } from './+shared/csv-download.server.ts'
import type { Route } from './+types/attendance-export'

/**
 * A course's attendance, student × session held, as a CSV download for the course's staff: admins
 * and its instructors (docs/decisions/056, 066).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const { courseId } = await requireCourseStaff(request, params.courseId)
	const db = getDb()
	const course = await exportedCourse(db, courseId)
	if (!course) return textResponse('Course not found', 404)
	const now = new Date()
	return csvDownload({
		fileName: courseCsvFileName('attendance', course.title, now),
		header: ATTENDANCE_COLUMNS,
		lines: streamAttendanceLines(db, { courseId, now }),
		cells: attendanceCells,
	})
}
