import { z } from 'zod'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { APPLY_CODE_INTENT, ApplyCodeFieldSchema, PromotionCodeFieldSchema } from './promotion-codes.ts'
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
	}),
	z.object({
		intent: z.literal(APPLY_CODE_INTENT),
		promotionCode: ApplyCodeFieldSchema,
		agreeToTerms: z.boolean().optional(),
	}),
])
