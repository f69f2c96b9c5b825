import type { Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import type { z } from 'zod'
import { REFUND_MESSAGES, type RefundFormValue, RefundSchema, refundAmountCents } from '#app/models/payments/refunds.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { formatPrice } from '#app/utils/money.ts'

type RefundSubmission = Pick<Submission<z.input<typeof RefundSchema>, string[], RefundFormValue>, 'reply'>
type RefundErrors = Parameters<RefundSubmission['reply']>[0]

/** The refund form again, with the errors that stop it, as both refund dialogs answer it. */
export function refuseRefund(submission: RefundSubmission, errors: RefundErrors, status = 400) {
	return data({ result: submission.reply(errors), review: null }, { status })
}

/** The answer when the refund itself failed (the provider or the database), so the admin may try again. */
export function refundUnavailable(submission: RefundSubmission, what: string, error: unknown) {
	console.error(`[admin] ${what} failed`, error instanceof Error ? error.message : error)
	return refuseRefund(submission, { formErrors: [`${REFUND_MESSAGES.failed}. Please try again.`] }, 503)
}

/** Why an amount cannot be refunded from what is left, or null when it can. */
export function tooMuch(leftCents: number, amountCents: number) {
	if (leftCents === 0) return { formErrors: [REFUND_MESSAGES.nothingLeft] }
	if (amountCents > leftCents) return { fieldErrors: { amount: [REFUND_MESSAGES.amountTooLarge(formatPrice(leftCents))] } }
	return null
}

/**
 * The steps of a refund dialog before the refund (docs/decisions/036, 063): read the form, check the
 * amount against what the payment or plan has left, and answer Edit (the form again) and Review (the
 * confirmation). A confirmation comes back as what to refund. `checkConfirmation: false` leaves the
 * amount of a confirmation to the model, which counts the form's own earlier refunds as not made.
 */
export async function readRefundStep(
	request: Request,
	{ leftCents, activeEnrollment }: { leftCents: number; activeEnrollment: boolean },
	{ checkConfirmation }: { checkConfirmation: boolean },
) {
	const submission = parseWithZod(await readFormData(request), { schema: RefundSchema })
	if (submission.status !== 'success') return { answer: refuseRefund(submission, undefined) }
	const value = submission.value
	const amountCents = refundAmountCents(value.amount)!
	if (checkConfirmation || value.intent !== 'confirm') {
		const refusal = tooMuch(leftCents, amountCents)
		if (refusal) return { answer: refuseRefund(submission, refusal) }
	}
	const fullRefund = amountCents === leftCents
	const unenroll = activeEnrollment && value.afterRefund === 'unenroll'
	if (value.intent === 'edit') return { answer: { result: submission.reply(), review: null } }
	if (value.intent === 'review') {
		const review = { ...value, amountCents, fullRefund, endsEnrollment: activeEnrollment && (fullRefund || unenroll) }
		return { answer: { result: null, review } }
	}
	// What the model's refund takes from the form, beside the payment or plan and who refunds.
	return { submission, refund: { amountCents, reason: value.reason, note: value.note, unenroll, requestKey: value.requestKey } }
}
