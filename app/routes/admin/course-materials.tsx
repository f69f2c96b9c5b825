import { parseWithZod } from '@conform-to/zod/v4'
import { data, href, Link, Outlet, useRevalidator } from 'react-router'
import { z } from 'zod'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { RefreshLink } from '#app/components/admin/refresh-link.tsx'
import { AssignmentsCard } from '#app/components/grading/assignments-card.tsx'
import { AdminSessionsCard } from '#app/components/sessions/admin-sessions-card.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { LastSqlDialog } from '#app/components/uploads/last-sql-dialog.tsx'
import { MaterialsTable } from '#app/components/uploads/materials-table.tsx'
import { UploadMaterialsForm } from '#app/components/uploads/upload-form.tsx'
import { CreateAssignmentSchema, GRADING_MESSAGES } from '#app/models/materials/assignments.ts'
import { createAssignment, listCourseAssignments } from '#app/models/materials/assignments-admin.server.ts'
import {
	countMaterials,
	deleteMaterialItem,
	deleteWeek,
	getWeekForEdit,
	lastDeleteRecord,
	listAdminWeeks,
} from '#app/models/materials/materials-admin.server.ts'
import { describeCourseSchedule, listAdminSessions } from '#app/models/sessions/live-sessions-admin.server.ts'
import { requireStaffCourse } from '#app/routes/admin/+shared/course-access.server.ts'
import { materialsPath } from '#app/routes/admin/+shared/paths.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId, rowIdSchema } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { receiveMaterialUpload, uploadSuccessToast } from './+shared/material-upload.server.ts'
import type { Route } from './+types/course-materials'

const rowId = rowIdSchema()
const DeleteItemSchema = z.object({ intent: z.literal('delete-item'), itemId: rowId })
const DeleteWeekSchema = z.object({ intent: z.literal('delete-week'), weekId: rowId })

const WEEK_NOT_IN_COURSE = "Choose one of this course's weeks"

function errorMessage(error: unknown) {
	return error instanceof Error && error.message ? error.message : 'Unknown error'
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const { user, course } = await requireStaffCourse(request, params)
	const db = getDb()
	const search = new URL(request.url).searchParams
	const dialog = search.get('dialog')
	const [weeks, sessions, schedule, assignments, lastSql] = await Promise.all([
		listAdminWeeks(db, course.id),
		listAdminSessions(db, course.id),
		describeCourseSchedule(db, course.id),
		listCourseAssignments(db, course.id),
		// The SQL of the last delete is raw data: an admin's tool, not an instructor's.
		dialog === 'last-sql' && user.isAdmin ? lastDeleteRecord(db, user.id) : undefined,
	])
	const itemId = dialog === 'delete-item' ? parseRowId(search.get('item')) : null
	const weekId = dialog === 'delete-week' ? parseRowId(search.get('week')) : null
	const deletingItem = itemId ? (weeks.flatMap((week) => week.items).find((item) => item.id === itemId) ?? null) : null
	const deletingWeek = weekId ? (weeks.find((week) => week.id === weekId) ?? null) : null
	return {
		course,
		isAdmin: user.isAdmin,
		weeks,
		sessions,
		schedule,
		counts: countMaterials(weeks),
		assignments,
		lastSql,
		deletingItem: deletingItem ? { id: deletingItem.id, title: deletingItem.title } : null,
		deletingWeek: deletingWeek ? { id: deletingWeek.id, weekNumber: deletingWeek.weekNumber, topic: deletingWeek.topic } : null,
		maxUploadMb: getEnv().MAX_UPLOAD_MB,
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	const { user: admin, course } = await requireStaffCourse(request, params)
	const back = materialsPath(course.id)
	const db = getDb()

	if ((request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
		const outcome = await receiveMaterialUpload(request, {
			adminId: admin.id,
			maxUploadMb: getEnv().MAX_UPLOAD_MB,
			// This page uploads to its own course: a course id forged into the body is refused.
			courseAllowed: async (courseId) => courseId === course.id,
		})
		if (!outcome.ok) return data({ uploadResult: outcome.result, assignmentResult: undefined }, { status: outcome.status })
		return redirectWithToast(back, uploadSuccessToast(outcome))
	}

	const formData = await readFormData(request)
	const intent = formData.get('intent')

	if (intent === 'delete-item') {
		const submission = parseWithZod(formData, { schema: DeleteItemSchema })
		if (submission.status !== 'success')
			return redirectWithToast(back, { type: 'error', title: 'Failed to delete material: Unknown error' })
		try {
			const deleted = await deleteMaterialItem(db, getStorage(), {
				adminId: admin.id,
				courseId: course.id,
				itemId: submission.value.itemId,
			})
			if (!deleted) return redirectWithToast(back, { type: 'error', title: 'Failed to delete material: Material not found' })
		} catch (error) {
			console.error('[materials] item delete failed', error)
			return redirectWithToast(back, { type: 'error', title: `Failed to delete material: ${errorMessage(error)}` })
		}
		return redirectWithToast(back, { type: 'success', title: 'Material deleted successfully' })
	}

	if (intent === 'delete-week') {
		const submission = parseWithZod(formData, { schema: DeleteWeekSchema })
		if (submission.status !== 'success')
			return redirectWithToast(back, { type: 'error', title: 'Failed to delete course material: Unknown error' })
		try {
			const deleted = await deleteWeek(db, getStorage(), { adminId: admin.id, courseId: course.id, weekId: submission.value.weekId })
			if (!deleted) return redirectWithToast(back, { type: 'error', title: 'Failed to delete course material: Week not found' })
			return redirectWithToast(back, { type: 'success', title: `Week ${deleted.weekNumber}: ${deleted.topic} deleted successfully` })
		} catch (error) {
			console.error('[materials] week delete failed', error)
			return redirectWithToast(back, { type: 'error', title: `Failed to delete course material: ${errorMessage(error)}` })
		}
	}

	const submission = parseWithZod(formData, { schema: CreateAssignmentSchema })
	if (submission.status !== 'success') return data({ uploadResult: undefined, assignmentResult: submission.reply() }, { status: 400 })
	// The week is an id of the body: one of another course's weeks is refused, not quietly dropped.
	const { weekId } = submission.value
	if (weekId !== undefined && !(await getWeekForEdit(db, course.id, weekId))) {
		return data(
			{ uploadResult: undefined, assignmentResult: submission.reply({ fieldErrors: { weekId: [WEEK_NOT_IN_COURSE] } }) },
			{ status: 400 },
		)
	}
	const created = await createAssignment(db, { adminId: admin.id, courseId: course.id, ...submission.value })
	if (!created) throw data('Course not found', { status: 404 })
	return redirectWithToast(back, { type: 'success', title: GRADING_MESSAGES.assignmentCreated })
}

export default function ManageCourseMaterials({ loaderData, actionData }: Route.ComponentProps) {
	const { course, isAdmin, weeks, sessions, schedule, counts, assignments, lastSql, deletingItem, deletingWeek, maxUploadMb } = loaderData
	const path = materialsPath(course.id)
	const revalidator = useRevalidator()
	const loading = revalidator.state === 'loading'

	return (
		<>
			{deletingItem ? (
				<ConfirmDialog
					title="Delete Material?"
					description={`"${deletingItem.title}" and its file will be permanently deleted.`}
					closeTo={path}
					fields={{ intent: 'delete-item', itemId: String(deletingItem.id) }}
					confirmLabel="Delete"
					busyLabel="Deleting..."
				/>
			) : null}
			{deletingWeek ? (
				<ConfirmDialog
					title="Delete Week?"
					description={`Week ${deletingWeek.weekNumber}: ${deletingWeek.topic} and all its materials and files will be permanently deleted.`}
					closeTo={path}
					fields={{ intent: 'delete-week', weekId: String(deletingWeek.id) }}
					confirmLabel="Delete"
					busyLabel="Deleting..."
				/>
			) : null}
			{lastSql !== undefined ? <LastSqlDialog record={lastSql} closeTo={path} /> : null}
			<Outlet />
			<div className="space-y-1">
				<Link to={href('/dashboard/admin/courses')} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
					Back to Manage Courses
				</Link>
				<h1 className="text-2xl font-bold text-ink">Manage Course Materials</h1>
				<p className="text-slate-700">{course.title}</p>
			</div>

			<Card>
				<CardHeader className="flex flex-col gap-3 space-y-0 sm:flex-row sm:items-start sm:justify-between">
					<div className="space-y-1">
						<CardTitle>Current Materials</CardTitle>
						<CardDescription>
							Total materials: {counts.total} (Class materials: {counts.materials}, Recordings: {counts.recordings})
						</CardDescription>
					</div>
					<ActionList className="flex flex-wrap gap-2">
						<ButtonLink to={`${path}/weeks`} preventScrollReset size="sm">
							Week Topics
						</ButtonLink>
						<RefreshLink to={path} preventScrollReset />
						{isAdmin ? (
							<ButtonLink to={`${path}?dialog=last-sql`} preventScrollReset variant="outline" size="sm">
								Show Last SQL
							</ButtonLink>
						) : null}
					</ActionList>
				</CardHeader>
				<CardContent>
					{loading ? (
						<p className="flex items-center gap-2 py-6 text-sm text-slate-700">
							<Spinner label="Loading materials..." />
							<span aria-hidden="true">Loading materials...</span>
						</p>
					) : weeks.length === 0 ? (
						<p className="rounded-md bg-slate-50 px-3 py-6 text-center text-sm text-slate-700">
							No materials have been uploaded for this course yet.
						</p>
					) : (
						<MaterialsTable weeks={weeks} path={path} />
					)}
				</CardContent>
			</Card>

			<AdminSessionsCard courseId={course.id} sessions={sessions} schedule={schedule} />

			<Card>
				<CardHeader>
					<CardTitle>Upload New Materials</CardTitle>
					<CardDescription>Files added to a week number that already exists are added to that week.</CardDescription>
				</CardHeader>
				<CardContent>
					<UploadMaterialsForm course={course} action={path} lastResult={actionData?.uploadResult} maxUploadMb={maxUploadMb} />
				</CardContent>
			</Card>

			<AssignmentsCard
				assignments={assignments}
				weeks={weeks.map(({ id, weekNumber, topic }) => ({ id, weekNumber, topic }))}
				action={path}
				lastResult={actionData?.assignmentResult}
			/>
		</>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
	pageTitle(`Manage Course Materials${loaderData ? ` · ${loaderData.course.title}` : ''}`)

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
