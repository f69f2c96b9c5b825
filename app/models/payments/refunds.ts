import { z } from 'zod'
import { dollarsToCents } from '#app/utils/money.ts'
import type { RefundReason } from '#db/types.ts'

/** The reasons Stripe takes, in the words the admin reads. */
export const REFUND_REASONS: ReadonlyArray<{ value: RefundReason; label: string }> = [
	{ value: 'requested_by_customer', label: 'Requested by the student' },
	{ value: 'duplicate', label: 'Duplicate payment' },
	{ value: 'fraudulent', label: 'Fraudulent payment' },
]

/** Where a payment stands with refunds, from what was paid and what has gone back. */
export type PaymentRefundState = 'paid' | 'partly-refunded' | 'refunded'

export function paymentRefundState({ amountCents, refundedCents }: { amountCents: number; refundedCents: number }): PaymentRefundState {
	if (refundedCents <= 0) return 'paid'
	return refundedCents >= amountCents ? 'refunded' : 'partly-refunded'
}

export const PAYMENT_STATE_LABELS: Record<PaymentRefundState, string> = {
	paid: 'Paid',
	'partly-refunded': 'Partly refunded',
	refunded: 'Refunded',
}

export const REFUND_MESSAGES = {
	amountFormat: 'Enter an amount in dollars, for example 250 or 250.00.',
	amountPositive: 'Enter an amount greater than zero.',
	amountTooLarge: (left: string) => `You can refund at most ${left}, what is left of this payment.`,
	noteRequired: 'Say why you are refunding (the student reads it).',
	noteTooLong: 'Keep the reason under 500 characters.',
	nothingLeft: 'This payment has been refunded in full.',
	pending: 'The payment provider did not confirm this refund yet. It is recorded as pending and settles when the provider reports it.',
	failed: 'The refund failed',
} as const

/** What a refund amount looks like: dollars, '250' or '1,250.50', no sign, at most two decimals, under ten million. */
const REFUND_AMOUNT_PATTERN = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d{1,7})(?:\.\d{1,2})?$/

/** The amount typed in the refund form, in cents; null when it is not a refund amount. */
export function refundAmountCents(text: string): number | null {
	return REFUND_AMOUNT_PATTERN.test(text.trim()) ? dollarsToCents(text) : null
}

/**
 * The refund form, checked twice: 'review' shows the confirmation, 'confirm' refunds, 'edit' goes
 * back to the form with what was typed. The amount's upper bound needs the database (the action).
 */
export const RefundSchema = z.object({
	intent: z.enum(['review', 'confirm', 'edit']),
	/** One per form shown: a resent or doubled confirmation is the same refund. */
	requestKey: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
	amount: z
		.string({ error: REFUND_MESSAGES.amountFormat })
		.refine((value) => refundAmountCents(value) !== null, REFUND_MESSAGES.amountFormat)
		.refine((value) => (refundAmountCents(value) ?? 1) > 0, REFUND_MESSAGES.amountPositive),
	reason: z.enum(['requested_by_customer', 'duplicate', 'fraudulent']),
	note: z.string({ error: REFUND_MESSAGES.noteRequired }).trim().min(3, REFUND_MESSAGES.noteRequired).max(500, REFUND_MESSAGES.noteTooLong),
	/** After a partial refund: keep the student enrolled or end the enrolment. A full refund always ends it. */
	afterRefund: z.enum(['keep', 'unenroll']).default('keep'),
})

export type RefundFormValue = z.infer<typeof RefundSchema>

/** A payment's amounts, as the admin's lists show its state. */
export type PaymentAmounts = { id: number; amountCents: number; refundedCents: number }

/** Whether some of the payment can still go back: the refund link shows while it can. */
export function isRefundable(payment: PaymentAmounts) {
	return payment.refundedCents < payment.amountCents
}

/** What the refund dialog shows of a payment. */
export type RefundPaymentSummary = {
	id: number
	customerEmail: string
	studentName: string | null
	courseTitle: string
	amountCents: number
	refundedCents: number
	pendingCents: number
	leftCents: number
	state: PaymentRefundState
	/** The enrolment a refund may end; null when there is none (a payment that got no seat) or it has ended. */
	activeEnrollment: boolean
	refunds: Array<{ id: number; amountCents: number; status: string; source: string; note: string; actorName: string | null }>
}
