import { parseWithZod } from '@conform-to/zod/v4'
import { data, Outlet, redirect } from 'react-router'
import { z } from 'zod'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { EnrollmentStatusBadge, EnrollmentStatusForm } from '#app/components/admin/enrollment-status.tsx'
import { ListErrorBoundary } from '#app/components/admin/list-error-boundary.tsx'
import { PaymentStateText, RefundLink, RefundsPanel } from '#app/components/admin/payment-state.tsx'
import { PersonCell } from '#app/components/admin/person-cell.tsx'
import { SearchForm } from '#app/components/admin/search-form.tsx'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { RowsTable } from '#app/components/ui/rows-table.tsx'
import { StackingTableCard } from '#app/components/ui/table.tsx'
import { ENROLLMENT_STATUS_OPTIONS, STATUS_CHANGE_CONFIRMED, statusChangeLoss } from '#app/models/enrollment/enrollments.ts'
import {
	ENROLLMENT_LIST_LIMIT,
	getEnrollment,
	listEnrollments,
	listPaymentsNeedingRefund,
	removeEnrollment,
	updateEnrollmentStatus,
} from '#app/models/enrollment/enrollments-admin.server.ts'
import { SeatUnavailableError } from '#app/models/enrollment/seats.server.ts'
import { isRefundable } from '#app/models/payments/refunds.ts'
import { requireAdmin, requireStaff } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { formatPrice } from '#app/utils/money.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId, rowIdSchema } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { ENROLLMENTS_PATH, enrollmentsPath, refusalMessages } from './+shared/enrollments.ts'
import type { Route } from './+types/enrollments'

const StatusSchema = z.object({
	intent: z.literal('status'),
	enrollmentId: rowIdSchema(),
	status: z.enum(ENROLLMENT_STATUS_OPTIONS),
	[STATUS_CHANGE_CONFIRMED]: z.literal('yes').optional(),
})

/** `?confirm=status-<id>-<status>`: the question before a change that ends access or frees a seat. */
function parseStatusConfirmation(confirm: string | null) {
	const match = confirm?.match(/^status-(\d+)-([a-z]+)$/)
	const id = parseRowId(match?.[1])
	const to = ENROLLMENT_STATUS_OPTIONS.find((status) => status === match?.[2])
	return id && to ? { id, to } : null
}

const RemoveSchema = z.object({
	intent: z.literal('remove'),
	enrollmentId: rowIdSchema(),
})

/**
 * The enrolments of the courses the visitor works on. An instructor reads their courses' (no
 * payments, no changes: docs/decisions/056); everything that changes one stays the admin's.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const staff = await requireStaff(request)
	const url = new URL(request.url)
	const query = searchText(url.searchParams)
	const db = getDb()
	if (!staff.isAdmin) {
		const { enrollments, truncated } = await listEnrollments(db, staff, { query })
		return {
			query,
			enrollments,
			truncated,
			limit: ENROLLMENT_LIST_LIMIT,
			refunds: [],
			removing: null,
			changingStatus: null,
			readOnly: true,
			loadedAt: Date.now(),
		}
	}
	// Add Enrollment was once a `?dialog=add` of this page.
	if (url.searchParams.get('dialog') === 'add')
		throw redirect(query ? `${ENROLLMENTS_PATH}/new?q=${encodeURIComponent(query)}` : `${ENROLLMENTS_PATH}/new`)
	const removeId = parseRowId(url.searchParams.get('confirm')?.replace(/^remove-/, ''))
	const statusChange = parseStatusConfirmation(url.searchParams.get('confirm'))
	const [{ enrollments, truncated }, refunds, removing, changing] = await Promise.all([
		listEnrollments(db, staff, { query }),
		listPaymentsNeedingRefund(db),
		removeId && url.searchParams.get('confirm')?.startsWith('remove-') ? getEnrollment(db, removeId) : null,
		statusChange ? getEnrollment(db, statusChange.id) : null,
	])
	const loss = changing && statusChange ? statusChangeLoss(changing.status, statusChange.to) : null
	return {
		query,
		enrollments,
		truncated,
		limit: ENROLLMENT_LIST_LIMIT,
		refunds,
		removing: removing ?? null,
		changingStatus: changing && statusChange && loss ? { ...changing, to: statusChange.to, loss } : null,
		readOnly: false,
		loadedAt: Date.now(),
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
		const { enrollmentId, status } = submission.value
		// A change that ends access or frees a seat is asked about first, whoever sends it (issue 39 point 8).
		if (submission.value[STATUS_CHANGE_CONFIRMED] !== 'yes') {
			const current = await getEnrollment(db, enrollmentId)
			if (current && statusChangeLoss(current.status, status)) {
				return redirect(enrollmentsPath(searchText(new URL(request.url).searchParams), `confirm=status-${enrollmentId}-${status}`))
			}
		}
		try {
			const changed = await updateEnrollmentStatus(db, admin.id, enrollmentId, status)
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

	throw data('Unknown action', { status: 400 })
}

export default function ManageEnrollments({ loaderData }: Route.ComponentProps) {
	const { enrollments, query, truncated, limit, refunds, removing, changingStatus, readOnly, loadedAt } = loaderData
	const back = enrollmentsPath(query)
	useLiveRevalidation(['enrollment.changed', 'course.changed'])

	return (
		<>
			<Outlet />

			{removing ? (
				<ConfirmDialog
					title="Remove Enrollment"
					description={`Remove ${removing.name || removing.email} from ${removing.courseTitle}? Their seat becomes free.`}
					closeTo={back}
					fields={{ intent: 'remove', enrollmentId: String(removing.id) }}
					confirmLabel="Remove"
					busyLabel="Removing..."
				/>
			) : null}
			{changingStatus ? (
				<ConfirmDialog
					title="Change Enrollment Status"
					description={`Set ${changingStatus.name || changingStatus.email}'s enrollment in ${changingStatus.courseTitle} from ${changingStatus.status} to ${changingStatus.to}? ${changingStatus.loss}`}
					closeTo={back}
					fields={{
						intent: 'status',
						enrollmentId: String(changingStatus.id),
						status: changingStatus.to,
						[STATUS_CHANGE_CONFIRMED]: 'yes',
					}}
					confirmLabel={`Set to ${changingStatus.to}`}
					busyLabel="Saving..."
				/>
			) : null}
			<h1 className="text-2xl font-bold text-ink">Manage Enrollments</h1>
			<div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
				<SearchForm
					action={ENROLLMENTS_PATH}
					label="Search enrollments"
					placeholder="Search by student, email or course..."
					query={query}
				/>
				{readOnly ? null : (
					<ButtonLink to={query ? `${ENROLLMENTS_PATH}/new?q=${encodeURIComponent(query)}` : `${ENROLLMENTS_PATH}/new`} preventScrollReset>
						Add Enrollment
					</ButtonLink>
				)}
			</div>

			{refunds.length > 0 ? <RefundsPanel refunds={refunds} query={query} /> : null}

			{enrollments.length === 0 ? (
				<Card className="p-8 text-center text-slate-700">
					{query
						? 'No matching enrollments found'
						: readOnly
							? 'No enrollments in your courses yet.'
							: "No enrollments found. Let's create your first enrollment."}
				</Card>
			) : (
				<StackingTableCard>
					<RowsTable
						caption="Enrollments"
						columns={
							readOnly
								? ['Student', 'Course', 'Enrollment Date', 'Status']
								: ['Student', 'Course', 'Enrollment Date', 'Paid', 'Status', 'Actions']
						}
					>
						{enrollments.map((enrollment) => {
							const student = enrollment.studentName || 'Unknown User'
							return (
								<tr key={enrollment.id}>
									<PersonCell name={student} email={enrollment.studentEmail} />
									<td data-label="Course" className="px-4 py-3 text-slate-700">
										{enrollment.courseTitle}
									</td>
									<td data-label="Enrollment Date" className="px-4 py-3 whitespace-nowrap text-slate-700">
										<LocalDate value={enrollment.enrollmentDate} />
									</td>
									{readOnly ? null : (
										<td data-label="Paid" className="px-4 py-3 text-slate-700 sm:whitespace-nowrap">
											<EnrollmentPayment payment={enrollment.payment} paid={enrollment.paid} />
										</td>
									)}
									<td data-label="Status" className="px-4 py-3">
										<div className="flex flex-col items-start gap-2">
											<EnrollmentStatusBadge status={enrollment.status} />
											{readOnly ? null : (
												<EnrollmentStatusForm
													enrollmentId={enrollment.id}
													status={enrollment.status}
													label={`Status of ${student} in ${enrollment.courseTitle}`}
													action={back}
													loadedAt={loadedAt}
												/>
											)}
										</div>
									</td>
									{readOnly ? null : (
										<td className="px-4 py-3">
											<ActionList className="flex flex-wrap gap-2">
												{enrollment.payment && isRefundable(enrollment.payment) ? (
													<RefundLink payment={enrollment.payment} query={query} subject={`${student} for ${enrollment.courseTitle}`} />
												) : null}
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
											</ActionList>
										</td>
									)}
								</tr>
							)
						})}
					</RowsTable>
				</StackingTableCard>
			)}
			{truncated ? <p className="text-sm text-slate-600">Showing the newest {limit} enrollments. Search to find others.</p> : null}
		</>
	)
}

type Enrollment = Route.ComponentProps['loaderData']['enrollments'][number]

/** What the enrolment was paid and what went back; the promotion code it used, also when that made it free. */
function EnrollmentPayment({ payment, paid }: { payment: Enrollment['payment']; paid: Enrollment['paid'] }) {
	if (!paid && !payment) return <span className="text-slate-500">No payment</span>
	return (
		<>
			<span className="font-medium text-ink">{payment ? <PaymentStateText payment={payment} /> : '$0.00'}</span>
			{paid?.promotionCode ? (
				<span className="block text-xs text-slate-600">
					Code {paid.promotionCode} (−{formatPrice(paid.discountCents)})
				</span>
			) : null}
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Manage Enrollments')

export function ErrorBoundary() {
	return <ListErrorBoundary title="Failed to load enrollments. Please try again later." retryLabel="Try Again" />
}
