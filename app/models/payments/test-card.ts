import { z } from 'zod'

/**
 * The built-in test checkout's card (docs/decisions/059, 064): one rule for the checkout page and
 * the plan's update-card page. Any 16 to 19 digits (spaces and hyphens allowed between them) are a
 * card; one number is always declined, to try the failure path.
 */
export const DECLINED_TEST_CARD = '4000000000000002'

/** The card fields' values are never sent back to the browser with a refused form. */
export const TEST_CARD_FIELDS = ['cardNumber', 'expiry', 'cvc']

const INVALID_CARD_MESSAGE = 'Please enter a valid card number.'

function cardDigits(cardNumber: string) {
	return cardNumber.replace(/[\s-]/g, '')
}

export const TestCardSchema = z.object({
	cardNumber: z
		.string({ error: INVALID_CARD_MESSAGE })
		.trim()
		.refine((number) => /^[\d -]+$/.test(number) && /^\d{16,19}$/.test(cardDigits(number)), INVALID_CARD_MESSAGE),
	expiry: z
		.string({ error: 'Please use format MM/YY' })
		.trim()
		.regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'Please use format MM/YY'),
	cvc: z
		.string({ error: 'Please enter a valid CVC.' })
		.trim()
		.regex(/^\d{3,4}$/, 'Please enter a valid CVC.'),
})

export function isDeclinedTestCard(cardNumber: string) {
	return cardDigits(cardNumber) === DECLINED_TEST_CARD
}
