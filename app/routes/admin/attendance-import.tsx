import { data, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import { ImportPreviewView } from '#app/components/sessions/attendance-import.tsx'
import { ATTENDANCE_MESSAGES } from '#app/models/sessions/attendance.ts'
import { applyImport, getAttendanceSession, getImportPreview } from '#app/models/sessions/attendance-admin.server.ts'
import { requireCourseStaff } from '#app/routes/admin/+shared/course-access.server.ts'
import { attendancePath } from '#app/routes/admin/+shared/paths.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/attendance-import'

const ImportIdSchema = z.uuid()

/**
 * The session and the import of the address, the import being one of that session's and the session
 * one of the course's, for an admin or one of the course's instructors; 404 otherwise (docs/decisions/056).
 */
async function requireImport(request: Request, params: { courseId?: string; liveSessionId?: string; importId?: string }) {
	const { user, courseId } = await requireCourseStaff(request, params.courseId)
	const sessionId = parseRowId(params.liveSessionId)
	const importId = ImportIdSchema.safeParse(params.importId)
	const session = sessionId && importId.success ? await getAttendanceSession(getDb(), courseId, sessionId) : null
	if (!session || !importId.success) throw data('Import not found', { status: 404 })
	return { user, session, importId: importId.data }
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const { session, importId } = await requireImport(request, params)
	const preview = await getImportPreview(getDb(), { session, importId })
	if (!preview) throw data(ATTENDANCE_MESSAGES.expired, { status: 404 })
	return { session, preview }
}

export async function action({ request, params }: Route.ActionArgs) {
	const { user: admin, session, importId } = await requireImport(request, params)
	const form = await readFormData(request)
	const roster = attendancePath(session.courseId, session.id)
	if (form.get('intent') !== 'confirm') return data({ error: 'Use the Confirm Import button' }, { status: 400 })
	const applied = await applyImport(getDb(), { adminId: admin.id, session, importId })
	if (!applied) throw data(ATTENDANCE_MESSAGES.expired, { status: 404 })
	if (applied === 'already') return redirectWithToast(roster, { type: 'info', title: ATTENDANCE_MESSAGES.alreadyApplied })
	const title =
		applied.changed === 0
			? 'Report imported: nothing changed'
			: `Report imported: ${applied.changed} ${applied.changed === 1 ? 'student' : 'students'} updated`
	return redirectWithToast(roster, { type: 'success', title })
}

export default function AttendanceImport({ loaderData }: Route.ComponentProps) {
	const { session, preview } = loaderData
	const backTo = attendancePath(session.courseId, session.id)
	const action = `${backTo}/imports/${preview.id}`
	const navigation = useNavigation()
	return (
		<>
			<div className="space-y-1">
				<Link to={backTo} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
					Back to the roster
				</Link>
				<h1 className="text-2xl font-bold text-ink">Import Preview: Week {session.weekNumber}</h1>
				<p className="text-slate-700">
					{session.courseTitle} · {session.when}
				</p>
			</div>
			<ImportPreviewView
				preview={preview}
				action={action}
				backTo={backTo}
				busy={navigation.state === 'submitting' && navigation.formAction === action}
			/>
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Import Preview')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
