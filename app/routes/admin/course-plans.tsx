import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, useNavigation } from 'react-router'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { ChargeInstalmentSchema, PLAN_STATUS_LABELS } from '#app/models/payments/plan-purchases.ts'
import { chargeInstalmentNow, listCoursePlans } from '#app/models/payments/plan-purchases-admin.server.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/course-plans'

function courseIdOf(params: { courseId: string }) {
	const courseId = parseRowId(params.courseId)
	if (!courseId) throw data('Course not found', { status: 404 })
	return courseId
}

/** Every plan bought for the course (docs/decisions/054, 059): paid k of n, the next payment, failing since. */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const page = await listCoursePlans(getDb(), courseIdOf(params))
	if (!page) throw data('Course not found', { status: 404 })
	return { ...page, testMode: getPayments().name === 'test' }
}

/** Test mode only: charge the next instalment now, succeeding or failing, through the plan's own state machine. */
export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const courseId = courseIdOf(params)
	if (getPayments().name !== 'test') throw data('Charging by hand is for the test checkout only', { status: 404 })
	const submission = parseWithZod(await readFormData(request), { schema: ChargeInstalmentSchema })
	const back = href('/dashboard/admin/courses/:courseId/plans', { courseId: String(courseId) })
	if (submission.status !== 'success') {
		return redirectWithToast(back, { type: 'error', title: 'Choose an instalment and an outcome.' })
	}
	const outcome = await chargeInstalmentNow(getDb(), { adminId: admin.id, courseId, ...submission.value })
	if (outcome === 'not-found') throw data('Plan not found', { status: 404 })
	if (outcome === 'already') return redirectWithToast(back, { type: 'info', title: 'That instalment was already charged.' })
	return redirectWithToast(
		back,
		submission.value.outcome === 'succeed'
			? { type: 'success', title: 'Instalment paid' }
			: { type: 'info', title: 'Instalment failed', description: 'The student was e-mailed a link to update their card.' },
	)
}

export default function CoursePlans({ loaderData }: Route.ComponentProps) {
	const { course, plans, testMode } = loaderData
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	return (
		<div className="space-y-6">
			<div className="flex flex-wrap items-start justify-between gap-3">
				<div>
					<h1 className="text-2xl font-bold text-ink">Plans Bought</h1>
					<p className="text-slate-700">{course.title}: every student paying in instalments.</p>
				</div>
				<ButtonLink to={href('/dashboard/admin/courses/:courseId/payment-plan', { courseId: String(course.id) })} variant="outline">
					Payment Plan
				</ButtonLink>
			</div>
			{testMode ? (
				<Alert tone="warning" title="Test mode">
					The built-in test checkout collects these plans: charge the next instalment now to see a whole plan run, a failure included.
				</Alert>
			) : null}
			{plans.length === 0 ? (
				<p className="text-slate-700">Nobody has bought this course on its payment plan yet.</p>
			) : (
				<ul className="space-y-4">
					{plans.map((plan) => (
						<li key={plan.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
							<h2 className="font-semibold text-ink">{plan.studentName ?? plan.studentEmail ?? 'Deleted account'}</h2>
							<dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
								<div className="flex gap-2">
									<dt className="text-slate-600">Status</dt>
									<dd className="text-ink">{PLAN_STATUS_LABELS[plan.status] ?? plan.status}</dd>
								</div>
								<div className="flex gap-2">
									<dt className="text-slate-600">Paid</dt>
									<dd className="text-ink">
										{plan.paidCount} of {plan.paymentCount} ({formatMoney(plan.totalCents)} in all)
									</dd>
								</div>
								<div className="flex gap-2">
									<dt className="text-slate-600">Next due</dt>
									<dd className="text-ink">
										{plan.next
											? `${plan.next.label}, ${formatMoney(plan.next.amountCents)}, ${formatDateOnly(plan.next.dueOn)}${plan.next.status === 'failed' ? ' (failed)' : ''}`
											: 'Nothing left to pay'}
									</dd>
								</div>
								{plan.failingSince ? (
									<div className="flex gap-2">
										<dt className="text-slate-600">Failing since</dt>
										<dd className="text-ink">{formatDateOnly(plan.failingSince.toISOString().slice(0, 10))}</dd>
									</div>
								) : null}
							</dl>
							{testMode && plan.next && plan.provider === 'test' && ['active', 'past_due', 'paused'].includes(plan.status) ? (
								<Form method="post" className="mt-3 flex flex-wrap items-center gap-2">
									<input type="hidden" name="planId" value={plan.id} />
									<input type="hidden" name="instalmentId" value={plan.next.id} />
									<span className="text-sm text-slate-700">Charge {plan.next.label.toLowerCase()} now:</span>
									<Button type="submit" name="outcome" value="succeed" size="sm" disabled={busy}>
										Succeed
									</Button>
									<Button type="submit" name="outcome" value="fail" size="sm" variant="outline" disabled={busy}>
										Fail
									</Button>
								</Form>
							) : null}
						</li>
					))}
				</ul>
			)}
		</div>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Plans Bought | Admin' }]

export function ErrorBoundary() {
	return <GeneralErrorBoundary />
}
