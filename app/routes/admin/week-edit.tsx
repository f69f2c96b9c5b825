import { data, href, Link } from 'react-router'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { WeekEditForm } from '#app/components/uploads/week-edit-form.tsx'
import { getWeekForEdit } from '#app/models/materials/materials-admin.server.ts'
import { WEEK_MESSAGES } from '#app/models/materials/materials-admin.ts'
import { listAdminSessions } from '#app/models/sessions/live-sessions-admin.server.ts'
import { requireCourseStaff } from '#app/routes/admin/+shared/course-access.server.ts'
import { materialsPath } from '#app/routes/admin/+shared/paths.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'
import { receiveWeekEdit } from './+shared/week-edit.server.ts'
import type { Route } from './+types/week-edit'

/**
 * The week of the address, found in the course of the address only, for an admin or one of the
 * course's instructors: another course's week id answers 404 (docs/decisions/056).
 */
async function requireWeek(request: Request, params: { courseId?: string; weekId?: string }) {
	const { user, courseId } = await requireCourseStaff(request, params.courseId)
	const weekId = parseRowId(params.weekId)
	const week = weekId ? await getWeekForEdit(getDb(), courseId, weekId) : null
	if (!week) throw data('Week not found', { status: 404 })
	return { user, courseId, week }
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const { courseId, week } = await requireWeek(request, params)
	const sessions = await listAdminSessions(getDb(), courseId)
	const session = sessions.find((candidate) => candidate.weekNumber === week.weekNumber) ?? null
	return { courseId, week, session, maxUploadMb: getEnv().MAX_UPLOAD_MB }
}

export async function action(args: Route.ActionArgs) {
	const { request, params } = args
	const { user: admin, courseId, week } = await requireWeek(request, params)
	const outcome = await receiveWeekEdit(request, {
		adminId: admin.id,
		week,
		courseId,
		maxUploadMb: getEnv().MAX_UPLOAD_MB,
	})
	if (outcome.ok) {
		return redirectWithToast(
			materialsPath(courseId),
			outcome.changed ? { type: 'success', title: WEEK_MESSAGES.success } : { type: 'info', title: WEEK_MESSAGES.unchanged },
		)
	}
	const headers = outcome.toast ? await actionToastHeaders(args, outcome.toast) : undefined
	return data({ result: outcome.result }, { status: outcome.status, headers })
}

export default function EditWeek({ loaderData, actionData }: Route.ComponentProps) {
	const { courseId, week, session, maxUploadMb } = loaderData
	const closeTo = materialsPath(courseId)
	return (
		<RouteDialog title="Edit Week & Materials" description={`Week ${week.weekNumber}: ${week.topic}`} closeTo={closeTo} size="xl">
			{session ? (
				<p className="mb-4 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
					Live session: {session.status === 'cancelled' ? `cancelled (${session.when})` : session.when} · {session.opening}.{' '}
					<Link
						to={href('/dashboard/admin/courses/:courseId/materials/sessions/:liveSessionId', {
							courseId: String(courseId),
							liveSessionId: String(session.id),
						})}
						preventScrollReset
						className="font-medium text-brand-700 underline-offset-4 hover:underline"
					>
						Move, cancel or open this week
					</Link>
				</p>
			) : null}
			<WeekEditForm
				key={week.id}
				week={week}
				action={`${closeTo}/${week.id}/edit`}
				closeTo={closeTo}
				lastResult={actionData?.result}
				maxUploadMb={maxUploadMb}
			/>
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Edit Week & Materials')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
