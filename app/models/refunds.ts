import { z } from 'zod'
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

/** A dollar amount typed by the admin, '250' or '1,250.50', in cents; null when it is not one. */
export function dollarsToCents(text: string): number | null {
	const match = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim())
	if (!match) return null
	const whole = Number(match[1]!.replaceAll(',', ''))
	const fraction = Number((match[2] ?? '0').padEnd(2, '0'))
	return whole * 100 + fraction
}

/** Cents as the form shows them: '2500.00'. */
export function centsToDollars(cents: number) {
	return (cents / 100).toFixed(2)
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
		.refine((value) => dollarsToCents(value) !== null, REFUND_MESSAGES.amountFormat)
		.refine((value) => (dollarsToCents(value) ?? 1) > 0, REFUND_MESSAGES.amountPositive),
	reason: z.enum(['requested_by_customer', 'duplicate', 'fraudulent']),
	note: z.string({ error: REFUND_MESSAGES.noteRequired }).trim().min(3, REFUND_MESSAGES.noteRequired).max(500, REFUND_MESSAGES.noteTooLong),
	/** After a partial refund: keep the student enrolled or end the enrolment. A full refund always ends it. */
	afterRefund: z.enum(['keep', 'unenroll']).default('keep'),
})

export type RefundFormValue = z.infer<typeof RefundSchema>
