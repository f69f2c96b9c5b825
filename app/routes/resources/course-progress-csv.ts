import { RosterQuerySchema, sortRoster } from '#app/models/enrollment/progress.ts'
import { getCourseRoster, rosterCsv } from '#app/models/enrollment/progress-admin.server.ts'
import { requireCourseStaff } from '#app/routes/admin/+shared/course-access.server.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { contentDisposition } from '#app/services/storage/keys.ts'
import { courseCsvFileName } from '#app/utils/csv.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import type { Route } from './+types/course-progress-csv'

/**
 * The progress roster of a course as a CSV download, in the roster's order (docs/decisions/051), for
 * an admin or one of the course's instructors (docs/decisions/056).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const { courseId } = await requireCourseStaff(request, params.courseId)
	const now = new Date()
	const roster = await getCourseRoster(getDb(), courseId, now)
	if (!roster) return textResponse('Course not found', 404)
	const { sort } = RosterQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
	return new Response(rosterCsv(roster, sortRoster(roster.rows, sort)), {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': contentDisposition('attachment', courseCsvFileName('progress', roster.course.title, now)),
			'Cache-Control': 'private, no-store',
			'X-Content-Type-Options': 'nosniff',
		},
	})
}
