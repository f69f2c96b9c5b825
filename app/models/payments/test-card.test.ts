import { describe, expect, test } from 'vitest'
import { isDeclinedTestCard, TestCardSchema } from './test-card.ts'

describe('the test checkout card rule', () => {
	const card = { expiry: '12/34', cvc: '123' }

	test.each(['4242424242424242', '4242 4242 4242 4242', '4242-4242-4242-4242', '4242 4242 4242 4242 424'])('%s is a card', (cardNumber) => {
		expect(TestCardSchema.safeParse({ ...card, cardNumber }).success).toBe(true)
	})

	test.each(['4242', '4242 4242 4242 424x', '4242 4242 4242 4242 4242', '                '])('%s is not', (cardNumber) => {
		const parsed = TestCardSchema.safeParse({ ...card, cardNumber })
		expect(parsed.error?.issues.map((issue) => issue.message)).toContain('Please enter a valid card number.')
	})

	test('the declined number is declined however it is written', () => {
		expect(isDeclinedTestCard('4000 0000 0000 0002')).toBe(true)
		expect(isDeclinedTestCard('4000-0000-0000-0002')).toBe(true)
		expect(isDeclinedTestCard('4242 4242 4242 4242')).toBe(false)
	})
})
