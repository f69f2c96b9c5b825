import { RosterQuerySchema, rosterFileName, sortRoster } from '#app/models/enrollment/progress.ts'
import { getCourseRoster, rosterCsv } from '#app/models/enrollment/progress-admin.server.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { contentDisposition } from '#app/services/storage/keys.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import type { Route } from './+types/course-progress-csv'

/** The progress roster of a course as a CSV download, for admins, in the roster's order (docs/decisions/051). */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const courseId = parseRowId(params.courseId)
	const now = new Date()
	const roster = courseId ? await getCourseRoster(getDb(), courseId, now) : null
	if (!roster) return textResponse('Course not found', 404)
	const { sort } = RosterQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
	return new Response(rosterCsv(roster, sortRoster(roster.rows, sort)), {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': contentDisposition('attachment', rosterFileName(roster.course.title, now)),
			'Cache-Control': 'private, no-store',
			'X-Content-Type-Options': 'nosniff',
		},
	})
}
