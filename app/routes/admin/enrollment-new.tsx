import { getFormProps, getSelectProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, type ShouldRevalidateFunctionArgs, useNavigation } from 'react-router'
import { z } from 'zod'
import { Alert, FormErrors } from '#app/components/ui/alert.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { DialogFormButtons } from '#app/components/ui/dialog-buttons.tsx'
import { SelectField } from '#app/components/ui/field.tsx'
import { adminEnroll, listEnrollmentOptions } from '#app/models/enrollment/enrollments-admin.server.ts'
import { SeatUnavailableError } from '#app/models/enrollment/seats.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { ENROLLMENTS_PATH, enrollmentsPath, refusalMessages } from './+shared/enrollments.ts'
import type { Route } from './+types/enrollment-new'

const NEW_ENROLLMENT_PATH = `${ENROLLMENTS_PATH}/new`
const SELECT_BOTH = 'Select both a user and a course.'

const CreateEnrollmentSchema = z
	.object({
		intent: z.literal('create'),
		userId: z.uuid(SELECT_BOTH).optional(),
		courseId: rowIdSchema(SELECT_BOTH).optional(),
	})
	.refine((value) => value.userId && value.courseId, { message: SELECT_BOTH, path: [] })

/** The Add Enrollment dialog over the enrollments list: every user and course to choose from. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	return { options: await loadOptions(), query: searchText(new URL(request.url).searchParams) }
}

async function loadOptions() {
	try {
		return { ...(await listEnrollmentOptions(getDb())), failed: false }
	} catch (error) {
		console.error('[admin] enrollment options could not be loaded', error instanceof Error ? error.message : error)
		return { users: [], courses: [], failed: true }
	}
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const back = enrollmentsPath(searchText(new URL(request.url).searchParams))
	const db = getDb()
	const formData = await readFormData(request)
	const submission = parseWithZod(formData, { schema: CreateEnrollmentSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const { userId, courseId } = submission.value as { userId: string; courseId: number }
	try {
		const created = await adminEnroll(db, admin.id, { userId, courseId })
		if (!created) return data({ result: submission.reply({ formErrors: ['Failed to create enrollment'] }) }, { status: 400 })
	} catch (error) {
		if (error instanceof SeatUnavailableError) {
			return data({ result: submission.reply({ formErrors: [refusalMessages[error.reason]] }) }, { status: 400 })
		}
		console.error('[admin] enrollment could not be created', error instanceof Error ? error.message : error)
		return redirectWithToast(back, { type: 'error', title: 'Failed to create enrollment' })
	}
	return redirectWithToast(back, { type: 'success', title: 'Enrollment created!' })
}

/** A refused enrollment (400) must still refresh the pickers: the seat counts may be what changed. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
	if (formData?.get('intent') === 'create') return true
	return defaultShouldRevalidate
}

export default function AddEnrollmentDialog({ loaderData, actionData }: Route.ComponentProps) {
	const { options, query } = loaderData
	const lastResult = actionData?.result
	const navigation = useNavigation()
	const action = query ? `${NEW_ENROLLMENT_PATH}?q=${encodeURIComponent(query)}` : NEW_ENROLLMENT_PATH
	const isEnrolling = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create'
	const [form, fields] = useForm({
		id: 'add-enrollment',
		lastResult,
		shouldValidate: 'onSubmit',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateEnrollmentSchema }),
	})
	return (
		<RouteDialog title="Add Enrollment" description="Choose a user and a course, then Enroll." closeTo={enrollmentsPath(query)}>
			{options.failed ? (
				<Alert tone="error">Error loading user or course options</Alert>
			) : (
				<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="space-y-4">
					<input type="hidden" name="intent" value="create" />
					<FormErrors id={form.errorId} errors={form.errors} />
					<SelectField label="User" errors={fields.userId.errors} selectProps={getSelectProps(fields.userId)}>
						<option value="">Select a user</option>
						{options.users.map((user) => (
							<option key={user.id} value={user.id}>
								{user.name} ({user.email})
							</option>
						))}
					</SelectField>
					<SelectField label="Course" errors={fields.courseId.errors} selectProps={getSelectProps(fields.courseId)}>
						<option value="">Select a course</option>
						{options.courses.map((course) => (
							<option key={course.id} value={course.id} disabled={course.isFull}>
								{course.isFull
									? `${course.title} (FULL - ${course.taken}/${course.capacity})`
									: `${course.title} (${course.taken}/${course.capacity})`}
							</option>
						))}
					</SelectField>
					<DialogFormButtons cancelTo={enrollmentsPath(query)} busy={isEnrolling} busyLabel="Enrolling..." label="Enroll" />
				</Form>
			)}
		</RouteDialog>
	)
}

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
