import { Form, href, useLocation, useNavigation } from 'react-router'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { getPublishSubject, publishCourse } from '#app/models/courses/course-copies-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parsePage, withPage } from '#app/utils/pagination.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { findCourse } from './+shared/course-access.server.ts'
import type { Route } from './+types/course-publish'

const COURSES_PATH = href('/dashboard/admin/courses')

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const course = await findCourse(params.courseId, (id) => getPublishSubject(getDb(), id))
	return { course }
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const published = await findCourse(params.courseId, (courseId) => publishCourse(getDb(), { adminId: admin.id, courseId }))
	const listPath = withPage(COURSES_PATH, parsePage(new URL(request.url).search))
	return redirectWithToast(listPath, {
		type: 'success',
		title: published.published ? `"${published.title}" is published` : `"${published.title}" was already published`,
	})
}

export default function PublishCourseDialog({ loaderData }: Route.ComponentProps) {
	const { course } = loaderData
	const navigation = useNavigation()
	const page = parsePage(useLocation().search)
	const listPath = withPage(COURSES_PATH, page)
	const action = withPage(`${COURSES_PATH}/${course.id}/publish`, page)
	const isPublishing = navigation.state === 'submitting' && navigation.formAction === action
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

export function ErrorBoundary() {
	return <GeneralErrorBoundary />
}
