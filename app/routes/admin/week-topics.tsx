import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { WeekTopicsForm } from '#app/components/uploads/week-topics-form.tsx'
import { WEEK_TOPIC_MESSAGES, WeekTopicsSchema, weekTopicsSavedMessage } from '#app/models/materials/week-topics.ts'
import { listWeekTopics, saveWeekTopics } from '#app/models/materials/week-topics-admin.server.ts'
import { requireStaffCourse } from '#app/routes/admin/+shared/course-access.server.ts'
import { materialsPath } from '#app/routes/admin/+shared/paths.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/week-topics'

export async function loader({ request, params }: Route.LoaderArgs) {
	const { course } = await requireStaffCourse(request, params)
	const lines = await listWeekTopics(getDb(), course.id)
	if (!lines) throw data('Course not found', { status: 404 })
	return { course, lines }
}

export async function action({ request, params }: Route.ActionArgs) {
	const { user: admin, course } = await requireStaffCourse(request, params)
	const submission = parseWithZod(await readFormData(request), { schema: WeekTopicsSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ formErrors: [WEEK_TOPIC_MESSAGES.fixRows] }) }, { status: 400 })
	}
	const outcome = await saveWeekTopics(getDb(), { adminId: admin.id, courseId: course.id, rows: submission.value.weeks })
	if (!outcome) throw data('Course not found', { status: 404 })
	if (!outcome.ok) {
		const fieldErrors = Object.fromEntries([...outcome.rowErrors].map(([index, message]) => [`weeks[${index}].topic`, [message]]))
		return data({ result: submission.reply({ formErrors: [WEEK_TOPIC_MESSAGES.fixRows], fieldErrors }) }, { status: 400 })
	}
	const back = materialsPath(course.id)
	if (outcome.created + outcome.updated === 0) return redirectWithToast(back, { type: 'info', title: WEEK_TOPIC_MESSAGES.unchanged })
	return redirectWithToast(back, { type: 'success', title: weekTopicsSavedMessage(outcome) })
}

export default function WeekTopics({ loaderData, actionData }: Route.ComponentProps) {
	const { course, lines } = loaderData
	const closeTo = materialsPath(course.id)
	return (
		<RouteDialog
			title="Week Topics"
			description="Each week's topic, saved together. A week needs only its topic: files, recordings and links can follow."
			closeTo={closeTo}
			size="lg"
		>
			<WeekTopicsForm lines={lines} action={`${closeTo}/weeks`} closeTo={closeTo} lastResult={actionData?.result} />
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Week Topics')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
