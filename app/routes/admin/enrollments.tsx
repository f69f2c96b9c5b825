import { getFormProps, getSelectProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import {
	data,
	Form,
	isRouteErrorResponse,
	Link,
	type ShouldRevalidateFunctionArgs,
	useLocation,
	useNavigation,
	useRouteError,
} from 'react-router'
import { z } from 'zod'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { ENROLLMENT_STATUS_OPTIONS, EnrollmentStatusBadge, EnrollmentStatusForm } from '#app/components/admin/enrollment-status.tsx'
import { SearchForm } from '#app/components/admin/search-form.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink, buttonClasses } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { SelectField } from '#app/components/ui/field.tsx'
import { TableCard, TableHead } from '#app/components/ui/table.tsx'
import { parseRowId } from '#app/models/admin-courses.server.ts'
import {
	adminEnroll,
	ENROLLMENT_LIST_LIMIT,
	getEnrollment,
	listEnrollmentOptions,
	listEnrollments,
	listPaymentsNeedingRefund,
	removeEnrollment,
	updateEnrollmentStatus,
} from '#app/models/admin-enrollments.server.ts'
import { type SeatRefusal, SeatUnavailableError } from '#app/models/seats.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { formatCents, searchText } from '#app/utils/misc.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/enrollments'

const ENROLLMENTS_PATH = '/dashboard/admin/enrollments'
const SELECT_BOTH = 'Select both a user and a course.'

const CreateEnrollmentSchema = z
	.object({
		intent: z.literal('create'),
		userId: z.uuid(SELECT_BOTH).optional(),
		courseId: z.coerce.number(SELECT_BOTH).int(SELECT_BOTH).positive(SELECT_BOTH).max(2_147_483_647, SELECT_BOTH).optional(),
	})
	.refine((value) => value.userId && value.courseId, { message: SELECT_BOTH, path: [] })

const StatusSchema = z.object({
	intent: z.literal('status'),
	enrollmentId: z.coerce.number().int().positive().max(2_147_483_647),
	status: z.enum(ENROLLMENT_STATUS_OPTIONS),
})

const RemoveSchema = z.object({
	intent: z.literal('remove'),
	enrollmentId: z.coerce.number().int().positive().max(2_147_483_647),
})

const refusalMessages: Record<SeatRefusal, string> = {
	'already-enrolled': 'User is already enrolled in this course.',
	'course-full': 'Cannot enroll: Course has reached maximum capacity.',
	'course-not-found': 'Failed to create enrollment',
}

function enrollmentsPath(query: string, extra?: string) {
	const params = [query ? `q=${encodeURIComponent(query)}` : null, extra ?? null].filter(Boolean)
	return params.length > 0 ? `${ENROLLMENTS_PATH}?${params.join('&')}` : ENROLLMENTS_PATH
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const url = new URL(request.url)
	const query = searchText(url.searchParams)
	const db = getDb()
	const showAdd = url.searchParams.get('dialog') === 'add'
	const removeId = parseRowId(url.searchParams.get('confirm')?.replace(/^remove-/, ''))
	const [{ enrollments, truncated }, refunds, options, removing] = await Promise.all([
		listEnrollments(db, { query }),
		listPaymentsNeedingRefund(db),
		showAdd ? loadOptions() : null,
		removeId && url.searchParams.get('confirm')?.startsWith('remove-') ? getEnrollment(db, removeId) : null,
	])
	return { query, enrollments, truncated, limit: ENROLLMENT_LIST_LIMIT, refunds, options, removing: removing ?? null, loadedAt: Date.now() }
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
	const formData = await readFormData(request)
	const intent = formData.get('intent')
	const db = getDb()

	if (intent === 'status') {
		const submission = parseWithZod(formData, { schema: StatusSchema })
		if (submission.status !== 'success') return redirectWithToast(back, { type: 'error', title: 'Failed to update enrollment status' })
		try {
			const changed = await updateEnrollmentStatus(db, admin.id, submission.value.enrollmentId, submission.value.status)
			if (!changed) {
				return redirectWithToast(back, {
					type: 'error',
					title: 'Failed to update enrollment status',
					description: 'The enrollment no longer exists.',
				})
			}
		} catch (error) {
			if (error instanceof SeatUnavailableError) {
				return redirectWithToast(back, {
					type: 'error',
					title: 'Failed to update enrollment status',
					description: refusalMessages[error.reason],
				})
			}
			console.error('[admin] enrollment status could not be changed', error instanceof Error ? error.message : error)
			return redirectWithToast(back, { type: 'error', title: 'Failed to update enrollment status' })
		}
		return redirectWithToast(back, { type: 'success', title: 'Enrollment status updated successfully' })
	}

	if (intent === 'remove') {
		const submission = parseWithZod(formData, { schema: RemoveSchema })
		if (submission.status !== 'success') return redirectWithToast(back, { type: 'error', title: 'Failed to remove enrollment' })
		try {
			const removed = await removeEnrollment(db, admin.id, submission.value.enrollmentId)
			if (!removed) {
				return redirectWithToast(back, {
					type: 'error',
					title: 'Failed to remove enrollment',
					description: 'The enrollment no longer exists.',
				})
			}
		} catch (error) {
			console.error('[admin] enrollment could not be removed', error instanceof Error ? error.message : error)
			return redirectWithToast(back, { type: 'error', title: 'Failed to remove enrollment' })
		}
		return redirectWithToast(back, { type: 'success', title: 'Enrollment removed successfully' })
	}

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

export default function ManageEnrollments({ loaderData, actionData }: Route.ComponentProps) {
	const { enrollments, query, truncated, limit, refunds, options, removing, loadedAt } = loaderData
	const back = enrollmentsPath(query)
	useLiveRevalidation(['enrollment.changed', 'course.changed'])

	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Manage Enrollments</h1>
			<div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
				<SearchForm
					action={ENROLLMENTS_PATH}
					label="Search enrollments"
					placeholder="Search by student, email or course..."
					query={query}
				/>
				<ButtonLink to={enrollmentsPath(query, 'dialog=add')} preventScrollReset>
					Add Enrollment
				</ButtonLink>
			</div>

			{refunds.length > 0 ? <RefundsPanel refunds={refunds} /> : null}

			{enrollments.length === 0 ? (
				<Card className="p-8 text-center text-slate-700">
					{query ? 'No matching enrollments found' : "No enrollments found. Let's create your first enrollment."}
				</Card>
			) : (
				<TableCard>
					<table className="min-w-full text-left text-sm">
						<TableHead caption="Enrollments" columns={['Student', 'Course', 'Enrollment Date', 'Status', 'Actions']} />
						<tbody className="divide-y divide-slate-100">
							{enrollments.map((enrollment) => {
								const student = enrollment.studentName || 'Unknown User'
								return (
									<tr key={enrollment.id}>
										<td className="px-4 py-3">
											<p className="font-medium text-ink">{student}</p>
											<p className="break-all text-slate-600">{enrollment.studentEmail}</p>
										</td>
										<td className="px-4 py-3 text-slate-700">{enrollment.courseTitle}</td>
										<td className="px-4 py-3 whitespace-nowrap text-slate-700">
											<LocalDate value={enrollment.enrollmentDate} />
										</td>
										<td className="px-4 py-3">
											<div className="flex flex-col items-start gap-2">
												<EnrollmentStatusBadge status={enrollment.status} />
												<EnrollmentStatusForm
													enrollmentId={enrollment.id}
													status={enrollment.status}
													label={`Status of ${student} in ${enrollment.courseTitle}`}
													action={back}
													loadedAt={loadedAt}
												/>
											</div>
										</td>
										<td className="px-4 py-3">
											<ButtonLink
												to={enrollmentsPath(query, `confirm=remove-${enrollment.id}`)}
												preventScrollReset
												size="sm"
												variant="destructive"
											>
												Remove
												<span className="sr-only">
													{' '}
													{student} from {enrollment.courseTitle}
												</span>
											</ButtonLink>
										</td>
									</tr>
								)
							})}
						</tbody>
					</table>
				</TableCard>
			)}
			{truncated ? <p className="text-sm text-slate-600">Showing the newest {limit} enrollments. Search to find others.</p> : null}

			{options ? <AddEnrollmentDialog options={options} query={query} lastResult={actionData?.result} /> : null}

			{removing ? (
				<ConfirmDialog
					title="Remove Enrollment"
					description={`Remove ${removing.name || removing.email} from ${removing.courseTitle}? Their seat becomes free.`}
					closeTo={back}
					action={back}
					fields={{ intent: 'remove', enrollmentId: String(removing.id) }}
					confirmLabel="Remove"
					busyLabel="Removing..."
				/>
			) : null}
		</>
	)
}

function AddEnrollmentDialog({
	options,
	query,
	lastResult,
}: {
	options: NonNullable<Route.ComponentProps['loaderData']['options']>
	query: string
	lastResult: SubmissionResult<string[]> | undefined
}) {
	const navigation = useNavigation()
	const action = enrollmentsPath(query, 'dialog=add')
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
					{form.errors?.length ? (
						<Alert tone="error" id={form.errorId}>
							{form.errors[0]}
						</Alert>
					) : null}
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
					<div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
						<ButtonLink to={enrollmentsPath(query)} preventScrollReset variant="outline">
							Cancel
						</ButtonLink>
						<Button type="submit" disabled={isEnrolling}>
							{isEnrolling ? 'Enrolling...' : 'Enroll'}
						</Button>
					</div>
				</Form>
			)}
		</RouteDialog>
	)
}

function RefundsPanel({ refunds }: { refunds: Route.ComponentProps['loaderData']['refunds'] }) {
	return (
		<Card className="border-amber-300 bg-amber-50">
			<CardHeader>
				<CardTitle>Payments needing a refund</CardTitle>
				<CardDescription className="text-amber-900">
					These payments were taken but no seat could be given. Refund them with the payment provider.
				</CardDescription>
			</CardHeader>
			<CardContent>
				<ul className="divide-y divide-amber-200 text-sm">
					{refunds.map((payment) => (
						<li key={payment.id} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between">
							<span>
								<span className="font-semibold text-ink">{payment.customerEmail}</span>
								<span className="text-slate-700"> · {payment.courseTitle}</span>
							</span>
							<span className="text-slate-700">
								{formatCents(payment.amountCents)} · <LocalDate value={payment.createdAt} /> ·{' '}
								<span className="font-mono text-xs">{payment.checkoutSessionId}</span>
							</span>
						</li>
					))}
				</ul>
			</CardContent>
		</Card>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Manage Enrollments | Real Estate Mentorship' }]

export function ErrorBoundary() {
	const error = useRouteError()
	const location = useLocation()
	if (isRouteErrorResponse(error)) return <GeneralErrorBoundary />
	return (
		<Alert tone="error" title="Failed to load enrollments. Please try again later.">
			<Link to={`${location.pathname}${location.search}`} className={buttonClasses({ variant: 'outline', size: 'sm', className: 'mt-2' })}>
				Try Again
			</Link>
		</Alert>
	)
}
