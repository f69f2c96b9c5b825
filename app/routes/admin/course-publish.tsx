import { Form } from 'react-router'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { getPublishSubject, publishCourse } from '#app/models/courses/course-copies-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { findCourse } from './+shared/course-access.server.ts'
import { courseListPath, useCourseDialog } from './+shared/course-dialog.ts'
import type { Route } from './+types/course-publish'

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const course = await findCourse(params.courseId, (id) => getPublishSubject(getDb(), id))
	return { course }
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const published = await findCourse(params.courseId, (courseId) => publishCourse(getDb(), { adminId: admin.id, courseId }))
	const listPath = courseListPath(request)
	return redirectWithToast(listPath, {
		type: 'success',
		title: published.published ? `"${published.title}" is published` : `"${published.title}" was already published`,
	})
}

export default function PublishCourseDialog({ loaderData }: Route.ComponentProps) {
	const { course } = loaderData
	const { listPath, action, busy: isPublishing } = useCourseDialog(course.id, 'publish')
	return (
		<RouteDialog
			title="Publish Course"
			description={
				course.published
					? `"${course.title}" is already published.`
					: `Publish "${course.title}"? It will be listed on the public course pages and open for enrolment and the waitlist.`
			}
			closeTo={listPath}
		>
			<Form method="post" action={action} className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
				<ButtonLink to={listPath} preventScrollReset variant="outline">
					Cancel
				</ButtonLink>
				{course.published ? null : (
					<Button type="submit" disabled={isPublishing}>
						{isPublishing ? 'Publishing...' : 'Publish Course'}
					</Button>
				)}
			</Form>
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Publish Course')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
