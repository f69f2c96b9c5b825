import { href } from 'react-router'
import { LocalDate } from '#app/components/local-date.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { isRefundable, PAYMENT_STATE_LABELS, type PaymentAmounts, paymentRefundState } from '#app/models/payments/refunds.ts'
import { formatPrice } from '#app/utils/money.ts'

/** 'Paid $2,500.00', 'Partly refunded: $500.00 of $2,500.00', 'Refunded $2,500.00'. */
export function PaymentStateText({ payment }: { payment: PaymentAmounts }) {
	const state = paymentRefundState(payment)
	const label = PAYMENT_STATE_LABELS[state]
	if (state === 'partly-refunded') {
		return (
			<span>
				{label}: {formatPrice(payment.refundedCents)} of {formatPrice(payment.amountCents)}
			</span>
		)
	}
	return (
		<span>
			{label} {formatPrice(state === 'refunded' ? payment.refundedCents : payment.amountCents)}
		</span>
	)
}

/**
 * The link to a payment's refund dialog, named for screen readers by its label (the row's text
 * stays the row's own); nothing once all of it went back.
 */
export function RefundLink({ payment, query, subject }: { payment: PaymentAmounts; query: string; subject: string }) {
	if (!isRefundable(payment)) return null
	const to = href('/dashboard/admin/enrollments/payments/:paymentId/refund', { paymentId: String(payment.id) })
	return (
		<ButtonLink
			to={query ? `${to}?q=${encodeURIComponent(query)}` : to}
			aria-label={`Refund ${subject}`}
			preventScrollReset
			size="sm"
			variant="outline"
		>
			Refund
		</ButtonLink>
	)
}

export type PaymentNeedingRefund = PaymentAmounts & {
	customerEmail: string
	courseTitle: string
	checkoutSessionId: string
	promotionCode: string | null
	createdAt: string
}

/** Payments taken for a seat that could not be given, each with its refund action. */
export function RefundsPanel({ refunds, query }: { refunds: PaymentNeedingRefund[]; query: string }) {
	return (
		<Card className="border-amber-300 bg-amber-50">
			<CardHeader>
				<CardTitle>Payments needing a refund</CardTitle>
				<CardDescription className="text-amber-900">
					These payments were taken but no seat could be given. Refund them here; the student is e-mailed.
				</CardDescription>
			</CardHeader>
			<CardContent>
				<ul className="divide-y divide-amber-200 text-sm">
					{refunds.map((payment) => (
						<li key={payment.id} className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between">
							<span>
								<span className="font-semibold break-words text-ink">{payment.customerEmail}</span>
								<span className="text-slate-700"> · {payment.courseTitle}</span>{' '}
								<span className="block text-slate-700">
									<PaymentStateText payment={payment} />
									{payment.promotionCode ? ` (code ${payment.promotionCode})` : ''} · <LocalDate value={payment.createdAt} /> ·{' '}
									<span className="font-mono text-xs break-all">{payment.checkoutSessionId}</span>
								</span>
							</span>{' '}
							<RefundLink payment={payment} query={query} subject={`the payment of ${payment.customerEmail} for ${payment.courseTitle}`} />
						</li>
					))}
				</ul>
			</CardContent>
		</Card>
	)
}
