import { randomBytes } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { RefundConfirmation, RefundForm, RefundSummary } from '#app/components/admin/refund-form.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { useHoldLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { getRefundablePayment, type RefundablePayment, refundPayment } from '#app/models/payments/refunds.server.ts'
import type { RefundPaymentSummary } from '#app/models/payments/refunds.ts'
import { paymentRefundState, REFUND_MESSAGES, RefundSchema, refundAmountCents } from '#app/models/payments/refunds.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { formatPrice } from '#app/utils/money.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { ENROLLMENTS_PATH, enrollmentsPath } from './+shared/enrollments.ts'
import type { Route } from './+types/payment-refund'

async function loadPayment(request: Request, paymentIdParam: string | undefined) {
	const admin = await requireAdmin(request)
	const id = parseRowId(paymentIdParam)
	const payment = id ? await getRefundablePayment(getDb(), id) : null
	if (!payment) throw data('Payment not found', { status: 404 })
	return { admin, payment, back: enrollmentsPath(searchText(new URL(request.url).searchParams)) }
}

function summaryOf(payment: RefundablePayment): RefundPaymentSummary {
	return {
		id: payment.id,
		customerEmail: payment.customerEmail,
		studentName: payment.studentName,
		courseTitle: payment.courseTitle,
		amountCents: payment.amountCents,
		refundedCents: payment.refundedCents,
		pendingCents: payment.pendingCents,
		leftCents: payment.refundable ? payment.leftCents : 0,
		state: paymentRefundState(payment),
		activeEnrollment: payment.enrollmentId !== null && payment.enrollmentStatus !== 'inactive',
		refunds: payment.refunds,
	}
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const { payment, back } = await loadPayment(request, params.paymentId)
	// One key per form shown: sending the same confirmation twice refunds once.
	return { payment: summaryOf(payment), back, requestKey: randomBytes(16).toString('hex') }
}

export async function action({ request, params }: Route.ActionArgs) {
	const { admin, payment, back } = await loadPayment(request, params.paymentId)
	const summary = summaryOf(payment)
	const submission = parseWithZod(await readFormData(request), { schema: RefundSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), review: null }, { status: 400 })
	const value = submission.value
	const amountCents = refundAmountCents(value.amount)!
	if (summary.leftCents === 0) {
		return data({ result: submission.reply({ formErrors: [REFUND_MESSAGES.nothingLeft] }), review: null }, { status: 400 })
	}
	if (amountCents > summary.leftCents) {
		const amountError = { amount: [REFUND_MESSAGES.amountTooLarge(formatPrice(summary.leftCents))] }
		return data({ result: submission.reply({ fieldErrors: amountError }), review: null }, { status: 400 })
	}
	const fullRefund = payment.refundedCents + payment.pendingCents + amountCents === payment.amountCents
	const unenroll = summary.activeEnrollment && value.afterRefund === 'unenroll'
	if (value.intent === 'edit') return { result: submission.reply(), review: null }
	if (value.intent === 'review') {
		return {
			result: null,
			review: { ...value, amountCents, fullRefund, endsEnrollment: summary.activeEnrollment && (fullRefund || unenroll) },
		}
	}

	let outcome: Awaited<ReturnType<typeof refundPayment>>
	try {
		outcome = await refundPayment(getDb(), getPayments(), {
			paymentId: payment.id,
			actorId: admin.id,
			amountCents,
			reason: value.reason,
			note: value.note,
			unenroll,
			requestKey: value.requestKey,
		})
	} catch (error) {
		console.error('[admin] refund failed', error instanceof Error ? error.message : error)
		return data(
			{ result: submission.reply({ formErrors: [`${REFUND_MESSAGES.failed}. Please try again.`] }), review: null },
			{ status: 503 },
		)
	}
	switch (outcome.kind) {
		case 'refunded':
			return redirectWithToast(back, {
				type: 'success',
				title: 'Refund issued',
				description: `${formatPrice(outcome.amountCents)} refunded to ${payment.customerEmail}.${outcome.enrollmentEnded ? ' The enrollment is now inactive.' : ''}`,
			})
		case 'pending':
			return redirectWithToast(back, { type: 'warning', title: 'Refund pending', description: REFUND_MESSAGES.pending })
		case 'too-much':
			return data(
				{
					result: submission.reply({ fieldErrors: { amount: [REFUND_MESSAGES.amountTooLarge(formatPrice(outcome.leftCents))] } }),
					review: null,
				},
				{ status: 400 },
			)
		case 'refused':
			return data(
				{ result: submission.reply({ formErrors: [`${REFUND_MESSAGES.failed}: ${outcome.message}`] }), review: null },
				{ status: 400 },
			)
		case 'not-refundable':
			return data({ result: submission.reply({ formErrors: [REFUND_MESSAGES.nothingLeft] }), review: null }, { status: 400 })
		case 'not-found':
			throw data('Payment not found', { status: 404 })
	}
}

export default function RefundPaymentDialog({ loaderData, actionData }: Route.ComponentProps) {
	const { payment, back, requestKey } = loaderData
	const action = `${ENROLLMENTS_PATH}/payments/${payment.id}/refund${back.includes('?') ? back.slice(back.indexOf('?')) : ''}`
	const review = actionData?.review ?? null
	useHoldLiveRevalidation(review !== null)
	return (
		<RouteDialog title={review ? 'Confirm Refund' : 'Refund Payment'} closeTo={back} size="lg">
			<div className="space-y-5">
				<RefundSummary payment={payment} />
				{review ? (
					<RefundConfirmation payment={payment} review={review} action={action} />
				) : payment.leftCents > 0 ? (
					<RefundForm payment={payment} action={action} closeTo={back} requestKey={requestKey} lastResult={actionData?.result} />
				) : (
					<p className="text-sm text-slate-700">{REFUND_MESSAGES.nothingLeft}</p>
				)}
			</div>
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Refund Payment | Real Estate Mentorship' }]

export function ErrorBoundary() {
	return <GeneralErrorBoundary />
}
