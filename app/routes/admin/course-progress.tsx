import { data } from 'react-router'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { ProgressRoster } from '#app/components/progress/progress-roster.tsx'
import { RosterQuerySchema, sortRoster } from '#app/models/enrollment/progress.ts'
import { getCourseRoster } from '#app/models/enrollment/progress-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import type { Route } from './+types/course-progress'

/** A course's progress roster (docs/decisions/051): students × weeks, who is at risk and why, in the order of ?sort=. */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const courseId = parseRowId(params.courseId)
	const roster = courseId ? await getCourseRoster(getDb(), courseId) : null
	if (!roster) throw data('Course Not Found', { status: 404 })
	const { sort } = RosterQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
	const { rows, ...frame } = roster
	return { roster: frame, rows: sortRoster(rows, sort), sort }
}

export default function CourseProgressPage({ loaderData }: Route.ComponentProps) {
	return <ProgressRoster roster={loaderData.roster} rows={loaderData.rows} sort={loaderData.sort} />
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
	{ title: `Progress: ${loaderData?.roster.course.title ?? 'Course'} | Real Estate Mentorship` },
]

export function ErrorBoundary() {
	return <GeneralErrorBoundary />
}
