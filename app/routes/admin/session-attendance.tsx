import { parseWithZod } from '@conform-to/zod/v4'
import { data, href, Link, useNavigation } from 'react-router'
import { ReportUploadForm } from '#app/components/sessions/attendance-import.tsx'
import { AttendanceRoster } from '#app/components/sessions/attendance-roster.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { ATTENDANCE_MESSAGES, RosterSchema } from '#app/models/sessions/attendance.ts'
import { getAttendanceSession, listRoster, markAttendance, prepareImport } from '#app/models/sessions/attendance-admin.server.ts'
import { requireCourseStaff } from '#app/routes/admin/+shared/course-access.server.ts'
import { attendancePath, materialsPath } from '#app/routes/admin/+shared/paths.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { receiveReport } from './+shared/attendance-report.server.ts'
import type { Route } from './+types/session-attendance'

/**
 * The session of the address, in the course of the address, for an admin or one of the course's
 * instructors; 404 otherwise, another course's session id too (docs/decisions/056).
 */
async function requireSession(request: Request, params: { courseId?: string; liveSessionId?: string }) {
	const { user, courseId } = await requireCourseStaff(request, params.courseId)
	const sessionId = parseRowId(params.liveSessionId)
	const session = sessionId ? await getAttendanceSession(getDb(), courseId, sessionId) : null
	if (!session) throw data('Session not found', { status: 404 })
	return { user, session }
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const { session } = await requireSession(request, params)
	const roster = await listRoster(getDb(), session)
	return { session, roster }
}

export async function action({ request, params }: Route.ActionArgs) {
	const { user: admin, session } = await requireSession(request, params)
	const db = getDb()
	if ((request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
		const report = await receiveReport(request)
		if (!report.ok) return data({ form: 'import' as const, errors: [report.message] }, { status: report.status })
		const importId = await prepareImport(db, { adminId: admin.id, session, fileName: report.fileName, rows: report.rows })
		const preview = href('/dashboard/admin/courses/:courseId/sessions/:liveSessionId/attendance/imports/:importId', {
			courseId: String(session.courseId),
			liveSessionId: String(session.id),
			importId,
		})
		return redirectWithToast(preview, { type: 'info', title: 'Nothing is saved yet: check the preview and confirm' })
	}
	const submission = parseWithZod(await readFormData(request), { schema: RosterSchema })
	if (submission.status !== 'success') {
		const errors = Object.values(submission.error ?? {}).flatMap((messages) => messages ?? [])
		return data(
			{ form: 'roster' as const, errors: errors.length ? errors.slice(0, 1) : [ATTENDANCE_MESSAGES.notOnRoster] },
			{ status: 400 },
		)
	}
	const marked = await markAttendance(db, { adminId: admin.id, session, marks: submission.value.marks })
	if (!marked) return data({ form: 'roster' as const, errors: [ATTENDANCE_MESSAGES.notOnRoster] }, { status: 400 })
	const title =
		marked.changed === 0
			? 'No changes to save'
			: `Attendance saved: ${marked.changed} ${marked.changed === 1 ? 'student' : 'students'} marked`
	return redirectWithToast(attendancePath(session.courseId, session.id), { type: 'success', title })
}

export default function SessionAttendance({ loaderData, actionData }: Route.ComponentProps) {
	const { session, roster } = loaderData
	const action = attendancePath(session.courseId, session.id)
	const navigation = useNavigation()
	const submitting = navigation.state === 'submitting' && navigation.formAction === action
	const uploading = submitting && navigation.formEncType === 'multipart/form-data'
	return (
		<>
			<div className="space-y-1">
				<Link to={materialsPath(session.courseId)} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
					Back to Manage Course Materials
				</Link>
				<h1 className="text-2xl font-bold text-ink">Attendance: Week {session.weekNumber}</h1>
				<p className="text-slate-700">
					{session.courseTitle} · {session.when}
				</p>
			</div>
			{session.status === 'cancelled' ? <Alert tone="warning">This session is cancelled.</Alert> : null}
			<Card>
				<CardHeader>
					<CardTitle>Roster</CardTitle>
					<CardDescription>
						A choice you change here is saved as set by you and wins over the meeting report and the join link.
					</CardDescription>
				</CardHeader>
				<CardContent>
					<AttendanceRoster
						entries={roster}
						action={action}
						formId={`attendance-${session.id}`}
						errors={actionData?.form === 'roster' ? actionData.errors : undefined}
						busy={submitting && !uploading}
					/>
				</CardContent>
			</Card>
			<ReportUploadForm
				action={action}
				errors={actionData?.form === 'import' ? actionData.errors : undefined}
				busy={uploading}
				presentPercent={session.presentPercent}
			/>
		</>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
	pageTitle(`Attendance${loaderData ? ` · Week ${loaderData.session.weekNumber}` : ''}`)

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
