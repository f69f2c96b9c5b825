import { z } from 'zod'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { ApplyCodeSchema, PromotionCodeFieldSchema } from './promotion-codes.ts'
/**
 * What the purchase forms and their actions share about a buyer's open checkout
 * (docs/decisions/040): a buyer has at most one per course, and may cancel it to start again.
 */
export const CANCEL_CHECKOUT_INTENT = 'cancel-checkout'

const TERMS_REQUIRED_MESSAGE = 'You must agree to the terms before proceeding to payment'

/** The acknowledgment every enrolment needs, free or paid; checked on the server. */
const AgreeToTermsSchema = z.object({
	agreeToTerms: z.boolean({ error: TERMS_REQUIRED_MESSAGE }).refine((agreed) => agreed, TERMS_REQUIRED_MESSAGE),
})

export const AGREE_INTENT = 'agree'

/** Paying in full, or on the course's payment plan (docs/decisions/054, 059); in full when not sent. */
export const PAYMENT_OPTIONS = ['full', 'plan'] as const
export type PaymentOption = (typeof PAYMENT_OPTIONS)[number]
const PaymentOptionSchema = z.enum(PAYMENT_OPTIONS, { error: 'Choose to pay in full or on the payment plan' }).default('full')

/** Why a plan could not be bought, as the purchase forms say it. */
export const PLAN_UNAVAILABLE_MESSAGES = {
	'not-offered': 'The payment plan is no longer offered for this course. Please choose to pay in full.',
	'code-too-large':
		'With this promotion code the payments of the plan would fall below the smallest amount we can charge. Choose to pay in full.',
} as const
export type PlanRefusal = keyof typeof PLAN_UNAVAILABLE_MESSAGES

/**
 * The paid agreement's form, in the wizard's payment step and on a course's purchase form:
 * 'agree' buys the seat (with the promotion code typed, if any); Apply only prices the code,
 * so it needs no ticked box.
 */
export const PurchaseSchema = z.discriminatedUnion('intent', [
	AgreeToTermsSchema.extend({
		intent: z.literal(AGREE_INTENT),
		promotionCode: PromotionCodeFieldSchema,
		// The agreement version the form showed (docs/decisions/043); the one in force when not sent.
		agreementVersion: rowIdSchema().optional(),
		paymentOption: PaymentOptionSchema,
	}),
	ApplyCodeSchema,
])
