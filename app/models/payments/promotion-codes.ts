import { z } from 'zod'
import { checkoutDiscountCents, MINIMUM_CHARGE_CENTS } from '#app/services/payments/payments.ts'
import { hasControlCharacters } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import type { PlanOfferView } from './plan-purchases.ts'

/**
 * Promotion codes (docs/decisions/037): what the admin form, the wizard's payment step and the
 * server share. Codes are compared in upper case, so "spring25" and "SPRING25" are one code.
 */

const PROMOTION_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/

export function normalizePromotionCode(value: string) {
	return value.trim().toUpperCase()
}

export type Discount = { percentOff: number | null; amountOffCents: number | null }

/** What a code takes off a price, in cents: the checkout's own rule, so the page shows what Stripe charges. */
export const discountCents = checkoutDiscountCents

/**
 * The price with a code: what it takes off and what is left to pay. A total the provider would not
 * charge (above zero, below its minimum) is waived, the whole price taken off (docs/decisions/047).
 */
export function priceWithCode(priceCents: number, discount: Discount) {
	const off = discountCents(priceCents, discount)
	const left = priceCents - off
	if (left > 0 && left < MINIMUM_CHARGE_CENTS) return { discountCents: priceCents, totalCents: 0 }
	return { discountCents: off, totalCents: left }
}

export function describeDiscount(discount: Discount) {
	if (discount.percentOff !== null) return `${discount.percentOff}% off`
	return `${formatMoney(discount.amountOffCents ?? 0)} off`
}

/** The payment step's Apply button: prices a code without buying. */
export const APPLY_CODE_INTENT = 'apply-code'

/** A code the server accepted for this course, as the payment step shows it; with the course's plan too when one is on offer. */
export type PromotionCodePreview = {
	code: string
	description: string
	priceCents: number
	discountCents: number
	totalCents: number
	/** The plan on offer with the code spread over its payments (docs/decisions/064). */
	plan: PlanOfferView | null
	/** Why the plan cannot be bought with this code; then the buyer pays in full. */
	planRefusal: string | null
}

export type PromotionCodeRefusal = 'unknown' | 'inactive' | 'expired' | 'used-up' | 'wrong-course'

/** What the payment step says for each refusal: the person knows what to do next. */
export const PROMOTION_CODE_MESSAGES: Record<PromotionCodeRefusal, string> = {
	unknown: 'This promotion code does not exist. Check the spelling, or remove it to pay the full price.',
	inactive: 'This promotion code is no longer valid. Remove it to pay the full price.',
	expired: 'This promotion code has expired. Remove it to pay the full price.',
	'used-up': 'This promotion code has been used the maximum number of times. Remove it to pay the full price.',
	'wrong-course': 'This promotion code is not valid for this course. Remove it to pay the full price.',
}

export const PROMOTION_CODE_CHARACTERS_MESSAGE = 'Promotion codes use letters, digits, hyphens and underscores.'

/** The optional code field of the payment step: empty means none. A control character never reaches the lookup (PostgreSQL text cannot hold NUL). */
export const PromotionCodeFieldSchema = z
	.string()
	.trim()
	.max(32, 'Promotion codes have at most 32 characters.')
	.refine((code) => !hasControlCharacters(code), PROMOTION_CODE_CHARACTERS_MESSAGE)
	.transform(normalizePromotionCode)
	.optional()

/**
 * Apply pressed on a form that buys or claims a seat: it only prices the code, so a code is needed
 * and the terms box may be left unticked.
 */
export const ApplyCodeSchema = z.object({
	intent: z.literal(APPLY_CODE_INTENT),
	promotionCode: PromotionCodeFieldSchema.pipe(z.string({ error: 'Enter a promotion code to apply' })),
	agreeToTerms: z.boolean().optional(),
})

const AMOUNT_PATTERN = /^\d{1,7}(\.\d{1,2})?$/

export const PAST_END_DATE_MESSAGE = 'The end date cannot be in the past.'

/**
 * The admin's form to create a code. Dates are UTC days: the code is valid through the end of that
 * day, so the day of `now` (the action's clock, and the browser's for its courtesy check) is the
 * first end date allowed. A date is written YYYY-MM-DD, so comparing the strings compares the days.
 */
export function createPromotionCodeSchema(now: Date) {
	const today = now.toISOString().slice(0, 10)
	return z
		.object({
			intent: z.literal('create'),
			code: z
				.string({ error: 'Code is required' })
				.trim()
				.transform(normalizePromotionCode)
				.pipe(
					z.string().regex(PROMOTION_CODE_PATTERN, 'Use 3 to 32 letters, digits, hyphens or underscores, starting with a letter or digit.'),
				),
			kind: z.enum(['percent', 'amount'], { error: 'Choose a percentage or an amount off' }),
			value: z.string({ error: 'Enter how much the code takes off' }).trim(),
			courseId: rowIdSchema('Choose a course from the list').optional(),
			// Piped, so a malformed date gets its own message only, and the form's other checks still run.
			validThrough: z.iso
				.date({ error: 'Enter a date (YYYY-MM-DD)' })
				.pipe(z.string().refine((day) => day >= today, PAST_END_DATE_MESSAGE))
				.optional(),
			maxUses: z.coerce
				.number({ error: 'Enter a whole number of uses' })
				.int('Enter a whole number of uses')
				.min(1, 'At least 1 use')
				.max(1_000_000, 'At most 1,000,000 uses')
				.optional(),
		})
		.superRefine((value, context) => {
			if (value.kind === 'percent') {
				const percent = Number(value.value)
				if (!/^\d{1,3}$/.test(value.value) || percent < 1 || percent > 100) {
					context.addIssue({ code: 'custom', path: ['value'], message: 'Enter a whole percentage from 1 to 100' })
				}
			} else if (!AMOUNT_PATTERN.test(value.value) || Number(value.value) <= 0) {
				context.addIssue({ code: 'custom', path: ['value'], message: 'Enter an amount in dollars, such as 250 or 99.50' })
			}
		})
}

export type CreatePromotionCodeInput = z.infer<ReturnType<typeof createPromotionCodeSchema>>

/** The form's values as the table stores them. */
export function promotionCodeValues(input: CreatePromotionCodeInput) {
	return {
		code: input.code,
		percentOff: input.kind === 'percent' ? Number(input.value) : null,
		amountOffCents: input.kind === 'amount' ? Math.round(Number(input.value) * 100) : null,
		courseId: input.courseId ?? null,
		expiresAt: input.validThrough ? new Date(Date.parse(`${input.validThrough}T00:00:00Z`) + 86_400_000) : null,
		maxUses: input.maxUses ?? null,
	}
}

export const DeactivatePromotionCodeSchema = z.object({ intent: z.literal('deactivate'), promotionCodeId: rowIdSchema() })

export type PromotionCodeState = 'active' | 'expired' | 'used-up' | 'deactivated'

export function promotionCodeState(
	code: { deactivatedAt: string | null; expiresAt: string | null; maxUses: number | null; uses: number },
	now = Date.now(),
): PromotionCodeState {
	if (code.deactivatedAt) return 'deactivated'
	if (code.expiresAt && Date.parse(code.expiresAt) <= now) return 'expired'
	if (code.maxUses !== null && code.uses >= code.maxUses) return 'used-up'
	return 'active'
}
