import { randomBytes } from 'node:crypto'
import { data, href } from 'react-router'
import { RefundDialog } from '#app/components/admin/refund-form.tsx'
import { planRefundSummary, refundPlan } from '#app/models/payments/plan-purchases-admin.server.ts'
import { paymentRefundState, REFUND_MESSAGES } from '#app/models/payments/refunds.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { formatPrice } from '#app/utils/money.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readRefundStep, refundUnavailable, refuseRefund, tooMuch } from './+shared/refund.server.ts'
import type { Route } from './+types/course-plan-refund'

/** The plan of the URL, within its course, as the refund dialog shows it (decision 036's summary, over every payment of the plan). */
async function loadPlan(request: Request, params: { courseId: string; planId: string }) {
	const admin = await requireAdmin(request)
	const courseId = parseRowId(params.courseId)
	const planId = parseRowId(params.planId)
	const plan = courseId && planId ? await planRefundSummary(getDb(), { courseId, planId }) : null
	if (!courseId || !plan) throw data('Plan not found', { status: 404 })
	const back = href('/dashboard/admin/courses/:courseId/plans', { courseId: String(courseId) })
	return { admin, courseId, plan: { ...plan, state: paymentRefundState(plan) }, back }
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const { courseId, plan, back } = await loadPlan(request, params)
	// One key per form shown: sending the same confirmation twice refunds once.
	return { courseId, plan, back, requestKey: randomBytes(16).toString('hex') }
}

/**
 * Refund a plan (docs/decisions/063): review, then confirm; what is left to pay is cancelled and the
 * amount goes back through decision 036's refund path, one payment after another.
 */
export async function action({ request, params }: Route.ActionArgs) {
	const { admin, courseId, plan, back } = await loadPlan(request, params)
	// A confirmation is checked by `refundPlan`, which counts this form's own refunds as not made: the same
	// confirmation sent again, once another copy has refunded, must find the same amount left, not less.
	const step = await readRefundStep(request, plan, { checkConfirmation: false })
	if ('answer' in step) return step.answer
	const { submission, refund } = step
	let outcome: Awaited<ReturnType<typeof refundPlan>>
	try {
		outcome = await refundPlan(getDb(), getPayments(), {
			courseId,
			planId: plan.id,
			actorId: admin.id,
			...refund,
		})
	} catch (error) {
		return refundUnavailable(submission, 'plan refund', error)
	}
	switch (outcome.kind) {
		case 'refunded':
			return redirectWithToast(back, {
				type: outcome.pending || outcome.providerRetrying ? 'warning' : 'success',
				title: outcome.pending ? 'Refund pending' : 'Plan refunded',
				description: `${formatPrice(outcome.amountCents)} to ${plan.customerEmail}; ${outcome.providerRetrying ? 'the rest is cancelled here, but Stripe could not be reached to stop its subscription: the app keeps asking it until it does.' : 'nothing more will be charged.'}${outcome.enrollmentEnded ? ' The enrollment is now inactive.' : ''}${outcome.pending ? ` ${REFUND_MESSAGES.pending}` : ''}`,
			})
		case 'too-much':
			return refuseRefund(submission, tooMuch(outcome.leftCents, refund.amountCents) ?? {})
		case 'refused':
			return refuseRefund(submission, {
				formErrors: [
					`${REFUND_MESSAGES.failed}: ${outcome.message}${outcome.refundedCents > 0 ? ` (${formatPrice(outcome.refundedCents)} was refunded before it.)` : ''}`,
				],
			})
		case 'not-found':
			throw data('Plan not found', { status: 404 })
	}
}

export default function RefundPlanDialog({ loaderData, actionData }: Route.ComponentProps) {
	const { courseId, plan, back, requestKey } = loaderData
	const action = href('/dashboard/admin/courses/:courseId/plans/:planId/refund', { courseId: String(courseId), planId: String(plan.id) })
	const review = actionData?.review ?? null
	return (
		<RefundDialog
			title={review ? 'Confirm Plan Refund' : 'Refund the Plan'}
			payment={plan}
			review={review}
			action={action}
			closeTo={back}
			requestKey={requestKey}
			lastResult={actionData?.result}
		>
			<p className="text-sm text-slate-700">
				{plan.openInstalments > 0
					? `Refunding also cancels the ${plan.openInstalments} payment${plan.openInstalments === 1 ? '' : 's'} still to come (${formatPrice(plan.openCents)}): nothing more is charged.`
					: 'Nothing more is due on this plan.'}
			</p>
		</RefundDialog>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Refund the Plan | Admin' }]

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
