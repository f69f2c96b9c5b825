import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { CourseFields, useCourseForm } from '#app/components/admin/course-form.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { DialogFormButtons } from '#app/components/ui/dialog-buttons.tsx'
import { getCourseWithAvailability } from '#app/models/courses/courses.server.ts'
import { CourseFormSchema, toCourseInput } from '#app/models/courses/courses.ts'
import { CapacityBelowTakenError, getCourseWords, updateCourse } from '#app/models/courses/courses-admin.server.ts'
import { timeZoneNames } from '#app/models/sessions/live-sessions.ts'
import { getCourseScheduleSettings } from '#app/models/sessions/live-sessions-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { centsToDollars } from '#app/utils/money.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { courseIdOf } from './+shared/course-access.server.ts'
import { courseListPath, useCourseDialog } from './+shared/course-dialog.ts'
import type { Route } from './+types/course-edit'

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const id = parseRowId(params.courseId)
	const [course, schedule, words] = id
		? await Promise.all([
				getCourseWithAvailability(getDb(), id, { drafts: true }),
				getCourseScheduleSettings(getDb(), id),
				getCourseWords(getDb(), id),
			])
		: [null, null, null]
	if (!course || !schedule || !words) throw data('Course Not Found', { status: 404 })
	return { course, schedule, words, timeZones: timeZoneNames() }
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const id = courseIdOf(params.courseId)
	const listPath = courseListPath(request)
	const submission = parseWithZod(await readFormData(request), { schema: CourseFormSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	let updated: Awaited<ReturnType<typeof updateCourse>>
	try {
		updated = await updateCourse(getDb(), admin.id, id, toCourseInput(submission.value))
	} catch (error) {
		if (error instanceof CapacityBelowTakenError) {
			return data({ result: submission.reply({ fieldErrors: { capacity: [error.message] } }) }, { status: 400 })
		}
		console.error('[admin] course could not be updated', error instanceof Error ? error.message : error)
		return redirectWithToast(listPath, { type: 'error', title: 'Failed to update course. Please try again.' })
	}
	if (!updated) throw data('Course Not Found', { status: 404 })
	return redirectWithToast(listPath, { type: 'success', title: 'Course updated successfully' })
}

export default function EditCourseDialog({ loaderData, actionData }: Route.ComponentProps) {
	const { course, schedule, words, timeZones } = loaderData
	const { listPath, action, busy: isSaving } = useCourseDialog(course.id, 'edit')
	const [form, fields] = useCourseForm({
		id: `edit-course-${course.id}`,
		lastResult: actionData?.result,
		defaultValue: {
			title: course.title,
			description: course.description,
			startDate: course.startDate ?? undefined,
			endDate: course.endDate ?? undefined,
			registrationFee: centsToDollars(course.registrationFee),
			capacity: String(course.capacity),
			...schedule,
			...words,
		},
	})
	return (
		<RouteDialog
			title="Edit Course"
			description={`${course.taken} of ${course.capacity} seats are taken; capacity cannot go below the seats taken.`}
			closeTo={listPath}
			size="lg"
		>
			<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="space-y-5">
				<CourseFields fields={fields} timeZones={timeZones} />
				<DialogFormButtons cancelTo={listPath} busy={isSaving} busyLabel="Saving..." label="Save Changes" />
			</Form>
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Edit Course')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
