import { Form } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { CancelAndSubmit } from '#app/components/ui/dialog-buttons.tsx'
import { deleteCourse, getCourseDeletionSummary } from '#app/models/courses/courses-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { forgetSelectedCourse } from '#app/utils/selected-course.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { courseIdOf, findCourse } from './+shared/course-access.server.ts'
import { courseListPath, useCourseDialog } from './+shared/course-dialog.ts'
import type { Route } from './+types/course-delete'

function plural(count: number, singular: string, pluralForm = `${singular}s`) {
	return `${count} ${count === 1 ? singular : pluralForm}`
}

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	return findCourse(params.courseId, (id) => getCourseDeletionSummary(getDb(), id))
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const id = courseIdOf(params.courseId)
	const listPath = courseListPath(request)
	let deleted: Awaited<ReturnType<typeof deleteCourse>>
	try {
		deleted = await deleteCourse(getDb(), admin.id, id)
	} catch (error) {
		console.error('[admin] course could not be deleted', error instanceof Error ? error.message : error)
		return redirectWithToast(listPath, { type: 'error', title: 'Failed to delete course. Please try again.' })
	}
	if (!deleted) {
		return redirectWithToast(listPath, {
			type: 'error',
			title: 'Failed to delete course. Please try again.',
			description: 'The course no longer exists.',
		})
	}
	// The admin's own dashboard may have had the deleted course selected.
	const forget = await forgetSelectedCourse(request, admin.id, id)
	const headers = forget ? { 'Set-Cookie': forget } : undefined
	return redirectWithToast(
		listPath,
		deleted.filesRemoved
			? { type: 'success', title: 'Course and all associated data deleted successfully' }
			: {
					type: 'warning',
					title: 'Course and all associated data deleted successfully',
					description: 'Some files could not be removed from storage; use Cleanup Orphaned Materials to remove them.',
				},
		{ headers },
	)
}

export default function DeleteCourseDialog({ loaderData }: Route.ComponentProps) {
	const { course, contents } = loaderData
	const { listPath, action, busy: isDeleting } = useCourseDialog(course.id, 'delete')
	// Only what there is: '0 seat holds' tells an admin nothing.
	const removed = [
		contents.weeks > 0 ? `${plural(contents.weeks, 'week')} of course materials` : null,
		contents.files > 0 ? `${plural(contents.files, 'uploaded file')} (removed from storage)` : null,
		contents.links > 0 ? plural(contents.links, 'video link') : null,
		contents.enrollments > 0 ? plural(contents.enrollments, 'enrollment') : null,
		contents.seatHolds > 0 ? `${plural(contents.seatHolds, 'seat hold')} of checkouts in progress` : null,
		contents.assignments > 0 ? plural(contents.assignments, 'assignment') : null,
		contents.submissions > 0 ? plural(contents.submissions, 'assignment submission') : null,
		contents.announcements > 0 ? `${plural(contents.announcements, 'announcement')} to its students` : null,
	].filter((line): line is string => line !== null)

	return (
		<RouteDialog
			title="Delete Course"
			description={`Are you sure you want to delete "${course.title}"? This action cannot be undone.`}
			closeTo={listPath}
		>
			<div className="space-y-4 text-sm text-slate-700">
				{removed.length > 0 ? (
					<div>
						<p className="font-semibold text-ink">This will permanently remove the course and:</p>
						<ul className="mt-2 list-disc space-y-1 pl-5">
							{removed.map((line) => (
								<li key={line}>{line}</li>
							))}
						</ul>
					</div>
				) : (
					<p>The course has no materials, enrollments or assignments: only the course itself is removed.</p>
				)}
				{contents.payments > 0 ? (
					<Alert tone="info" title="Payments are kept">
						{plural(contents.payments, 'payment record')} of this course will be kept and detached from it, so money received stays on
						record for refunds and accounting.
					</Alert>
				) : null}
			</div>
			<Form method="post" action={action} className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
				<CancelAndSubmit cancelTo={listPath} busy={isDeleting} busyLabel="Deleting..." label="Delete Course" variant="destructive" />
			</Form>
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Delete Course')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
