import { data } from 'react-router'
import { ProgressRoster } from '#app/components/progress/progress-roster.tsx'
import { RosterQuerySchema, sortRoster } from '#app/models/enrollment/progress.ts'
import { getCourseRoster } from '#app/models/enrollment/progress-admin.server.ts'
import { requireCourseStaff } from '#app/routes/admin/+shared/course-access.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import type { Route } from './+types/course-progress'

/**
 * A course's progress roster (docs/decisions/051): students × weeks, who is at risk and why, in the
 * order of ?sort=; for an admin or one of the course's instructors (docs/decisions/056).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const { courseId } = await requireCourseStaff(request, params.courseId)
	const roster = await getCourseRoster(getDb(), courseId)
	if (!roster) throw data('Course Not Found', { status: 404 })
	const { sort } = RosterQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
	const { rows, ...frame } = roster
	return { roster: frame, rows: sortRoster(rows, sort), sort }
}

export default function CourseProgressPage({ loaderData }: Route.ComponentProps) {
	return <ProgressRoster roster={loaderData.roster} rows={loaderData.rows} sort={loaderData.sort} />
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle(`Progress: ${loaderData?.roster.course.title ?? 'Course'}`)

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
