import { randomUUID } from 'node:crypto'
import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { DialogFormButtons } from '#app/components/ui/dialog-buttons.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { RunAgainSchema } from '#app/models/courses/course-copies.ts'
import { getRunAgainSource, runCourseAgain } from '#app/models/courses/course-copies-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { courseIdOf, findCourse } from './+shared/course-access.server.ts'
import { useCourseDialog } from './+shared/course-dialog.ts'
import { materialsPath } from './+shared/paths.ts'
import type { Route } from './+types/course-run-again'

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const course = await findCourse(params.courseId, (id) => getRunAgainSource(getDb(), id))
	// The form's own key: the same form sent twice (a double click) makes one course (docs/decisions/045).
	return { course, key: randomUUID() }
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const id = courseIdOf(params.courseId)
	const submission = parseWithZod(await readFormData(request), { schema: RunAgainSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const copy = await runCourseAgain(getDb(), { adminId: admin.id, courseId: id, values: submission.value })
	if (!copy) throw data('Course Not Found', { status: 404 })
	return redirectWithToast(materialsPath(copy.id), {
		type: 'success',
		title: `"${copy.title}" is a draft`,
		description: 'Review its weeks, materials and schedule, then publish it from Manage Courses. Until then only admins see it.',
	})
}

export default function RunAgainDialog({ loaderData, actionData }: Route.ComponentProps) {
	const { course, key } = loaderData
	const { listPath, action, busy: isCopying } = useCourseDialog(course.id, 'run-again')
	const [form, fields] = useForm({
		id: `run-again-${course.id}`,
		lastResult: actionData?.result,
		defaultValue: { title: course.suggestedTitle, startDate: course.suggestedStartDate ?? '' },
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: RunAgainSchema }),
	})
	return (
		<RouteDialog
			title="Run Again"
			description={`A new course from "${course.title}"${course.startDate ? ` (started ${formatDateOnly(course.startDate)})` : ''}: its settings, weeks, topics, materials, assignments and live sessions, moved to the new start date. No students, payments, messages or waitlist are copied. The new course is a draft until you publish it.`}
			closeTo={listPath}
		>
			<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="space-y-4">
				<input type="hidden" name="key" value={key} />
				<Field
					label="Title of the new course *"
					errors={fields.title.errors}
					inputProps={{ ...getInputProps(fields.title, { type: 'text' }), required: true, maxLength: 200 }}
				/>
				<Field
					label="New start date *"
					errors={fields.startDate.errors}
					help="The end date, sessions, openings and due dates move by the same number of days."
					inputProps={{ ...getInputProps(fields.startDate, { type: 'date' }), required: true }}
				/>
				<DialogFormButtons cancelTo={listPath} busy={isCopying} busyLabel="Creating..." label="Create Draft" />
			</Form>
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Run Again')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
