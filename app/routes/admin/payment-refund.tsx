import { randomBytes } from 'node:crypto'
import { data } from 'react-router'
import { RefundDialog } from '#app/components/admin/refund-form.tsx'
import { getRefundablePayment, type RefundablePayment, refundPayment } from '#app/models/payments/refunds.server.ts'
import type { RefundPaymentSummary } from '#app/models/payments/refunds.ts'
import { paymentRefundState, REFUND_MESSAGES } from '#app/models/payments/refunds.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { formatPrice } from '#app/utils/money.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { ENROLLMENTS_PATH, enrollmentsPath } from './+shared/enrollments.ts'
import { readRefundStep, refundUnavailable, refuseRefund } from './+shared/refund.server.ts'
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
	const step = await readRefundStep(request, summary, { checkConfirmation: true })
	if ('answer' in step) return step.answer
	const { submission, refund } = step
	let outcome: Awaited<ReturnType<typeof refundPayment>>
	try {
		outcome = await refundPayment(getDb(), getPayments(), {
			paymentId: payment.id,
			actorId: admin.id,
			...refund,
		})
	} catch (error) {
		return refundUnavailable(submission, 'refund', error)
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
			return refuseRefund(submission, { fieldErrors: { amount: [REFUND_MESSAGES.amountTooLarge(formatPrice(outcome.leftCents))] } })
		case 'refused':
			return refuseRefund(submission, { formErrors: [`${REFUND_MESSAGES.failed}: ${outcome.message}`] })
		case 'not-refundable':
			return refuseRefund(submission, { formErrors: [REFUND_MESSAGES.nothingLeft] })
		case 'not-found':
			throw data('Payment not found', { status: 404 })
	}
}

export default function RefundPaymentDialog({ loaderData, actionData }: Route.ComponentProps) {
	const { payment, back, requestKey } = loaderData
	const action = `${ENROLLMENTS_PATH}/payments/${payment.id}/refund${back.includes('?') ? back.slice(back.indexOf('?')) : ''}`
	const review = actionData?.review ?? null
	return (
		<RefundDialog
			title={review ? 'Confirm Refund' : 'Refund Payment'}
			payment={payment}
			review={review}
			action={action}
			closeTo={back}
			requestKey={requestKey}
			lastResult={actionData?.result}
		/>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Refund Payment')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
