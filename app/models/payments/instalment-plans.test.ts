import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import {
	addMonths,
	dayInZone,
	discountedSchedule,
	instalmentSchedule,
	lastPurchaseDay,
	PaymentPlanFormSchema,
	type PaymentPlanTerms,
	planProblems,
	planValues,
	splitEvenly,
} from './instalment-plans.ts'

const equal = (instalmentCount: number, surchargeCents = 0): PaymentPlanTerms => ({
	kind: 'equal',
	depositCents: null,
	instalmentCount,
	surchargeCents,
})
const deposit = (depositCents: number, instalmentCount: number, surchargeCents = 0): PaymentPlanTerms => ({
	kind: 'deposit',
	depositCents,
	instalmentCount,
	surchargeCents,
})

function formData(fields: Record<string, string>) {
	const data = new FormData()
	for (const [name, value] of Object.entries(fields)) data.set(name, value)
	return data
}

describe('month arithmetic on days', () => {
	test.each([
		['2027-01-15', 1, '2027-02-15'],
		['2027-01-31', 1, '2027-02-28'],
		['2028-01-31', 1, '2028-02-29'],
		['2027-01-31', 2, '2027-03-31'],
		['2027-03-31', 1, '2027-04-30'],
		['2027-11-30', 3, '2028-02-29'],
		['2027-12-31', 1, '2028-01-31'],
		['2027-03-31', -1, '2027-02-28'],
		['2027-01-10', -2, '2026-11-10'],
	])('%s + %i months is %s', (day, months, expected) => {
		expect(addMonths(day, months)).toBe(expected)
	})

	test('each due date counts from the purchase day, so the 31st comes back after February', () => {
		const { payments } = instalmentSchedule(equal(4), { priceCents: 100_000, purchaseDay: '2027-01-31' })
		expect(payments.map((payment) => payment.dueOn)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30'])
	})

	test('the purchase day is the day in the course’s zone; a change of clocks moves no date', () => {
		// 03:30 UTC on 1 March is still 28 February in New York.
		expect(dayInZone(new Date('2027-03-01T03:30:00Z'), 'America/New_York')).toBe('2027-02-28')
		expect(dayInZone(new Date('2027-03-01T03:30:00Z'), 'Europe/Berlin')).toBe('2027-03-01')
		// Bought the evening before the clocks change (14 March 2027 in New York): monthly dates stay on the 13th.
		const purchaseDay = dayInZone(new Date('2027-03-14T03:00:00Z'), 'America/New_York')
		const { payments } = instalmentSchedule(equal(3), { priceCents: 90_000, purchaseDay })
		expect(payments.map((payment) => payment.dueOn)).toEqual(['2027-03-13', '2027-04-13', '2027-05-13'])
	})
})

describe('the schedule', () => {
	test('splits into whole cents that add up exactly, the leftover cents on the first part', () => {
		expect(splitEvenly(100_000, 3)).toEqual([33_334, 33_333, 33_333])
		expect(splitEvenly(250_000, 6)).toEqual([41_670, 41_666, 41_666, 41_666, 41_666, 41_666])
		expect(splitEvenly(90_000, 3)).toEqual([30_000, 30_000, 30_000])
		for (const total of [1, 99, 101, 249_999, 250_001]) {
			for (let count = 2; count <= 6; count++) {
				const parts = splitEvenly(total, count)
				expect(parts.reduce((sum, part) => sum + part, 0)).toBe(total)
				expect(Math.max(...parts) - Math.min(...parts)).toBeLessThan(count)
			}
		}
	})

	test('equal instalments of the price and surcharge: the first at purchase, then monthly', () => {
		expect(instalmentSchedule(equal(3, 10_000), { priceCents: 250_000, purchaseDay: '2027-01-10' })).toEqual({
			totalCents: 260_000,
			payments: [
				{ sequence: 1, isDeposit: false, label: 'Instalment 1 of 3', dueOn: '2027-01-10', amountCents: 86_668 },
				{ sequence: 2, isDeposit: false, label: 'Instalment 2 of 3', dueOn: '2027-02-10', amountCents: 86_666 },
				{ sequence: 3, isDeposit: false, label: 'Instalment 3 of 3', dueOn: '2027-03-10', amountCents: 86_666 },
			],
		})
	})

	test('a deposit at purchase, then N instalments of the rest from a month later', () => {
		expect(instalmentSchedule(deposit(50_000, 2), { priceCents: 250_001, purchaseDay: '2027-01-31' })).toEqual({
			totalCents: 250_001,
			payments: [
				{ sequence: 1, isDeposit: true, label: 'Deposit', dueOn: '2027-01-31', amountCents: 50_000 },
				{ sequence: 2, isDeposit: false, label: 'Instalment 1 of 2', dueOn: '2027-02-28', amountCents: 100_001 },
				{ sequence: 3, isDeposit: false, label: 'Instalment 2 of 2', dueOn: '2027-03-31', amountCents: 100_000 },
			],
		})
	})
})

describe('a promotion code on a plan', () => {
	const purchaseDay = '2027-01-31'
	const amounts = (schedule: { payments: { amountCents: number }[] } | null) => schedule?.payments.map((payment) => payment.amountCents)

	test('comes off the total, spread over equal payments that still add up, the leftover cents first', () => {
		const schedule = instalmentSchedule(equal(3, 10_000), { priceCents: 250_000, purchaseDay })
		const discounted = discountedSchedule(schedule, 26_000)
		expect(discounted?.totalCents).toBe(234_000)
		expect(amounts(discounted)).toEqual([78_000, 78_000, 78_000])
		expect(amounts(discountedSchedule(schedule, 1))).toEqual([86_667, 86_666, 86_666])
		expect(discounted?.payments.map((payment) => payment.dueOn)).toEqual(schedule.payments.map((payment) => payment.dueOn))
	})

	test('leaves a deposit as it is and takes the discount off the instalments', () => {
		const schedule = instalmentSchedule(deposit(50_000, 2), { priceCents: 250_000, purchaseDay })
		expect(amounts(discountedSchedule(schedule, 25_001))).toEqual([50_000, 87_500, 87_499])
	})

	test('is refused when a payment would fall below the minimum charge', () => {
		const schedule = instalmentSchedule(deposit(50_000, 2), { priceCents: 250_000, purchaseDay })
		expect(discountedSchedule(schedule, 199_901)).toBeNull()
		expect(amounts(discountedSchedule(schedule, 199_900))).toEqual([50_000, 50, 50])
		expect(discountedSchedule(instalmentSchedule(equal(2), { priceCents: 250_000, purchaseDay }), 250_000)).toBeNull()
	})
})

describe('what stops a plan', () => {
	const course = { priceCents: 250_000, purchaseDay: '2027-01-10', lastDay: '2027-03-20' }

	test('a plan that fits has no problems', () => {
		expect(planProblems(equal(3), course)).toEqual({})
		expect(planProblems(deposit(50_000, 2), course)).toEqual({})
	})

	test('the last instalment on the course’s last day or after is refused; the day before is fine', () => {
		expect(planProblems(equal(3), { ...course, lastDay: '2027-03-11' })).toEqual({})
		expect(planProblems(equal(3), { ...course, lastDay: '2027-03-10' })).toEqual({
			instalmentCount:
				"The last instalment would be due on Mar 10, 2027, not before the course's last day (Mar 10, 2027): choose fewer instalments",
		})
		expect(planProblems(deposit(50_000, 3), course).instalmentCount).toMatch(/^The last instalment would be due on Apr 10, 2027/)
	})

	test('a deposit of the total or more, too many instalments, parts below the minimum charge, a free or undated course', () => {
		expect(planProblems(deposit(250_000, 2), course)).toEqual({
			depositDollars: "The deposit must be less than the plan's total of $2,500.00",
		})
		expect(planProblems(deposit(250_000, 2, 100), course)).toEqual({})
		expect(planProblems(deposit(250_000, 2, 99), course).instalmentCount).toBe(
			'Each instalment must be at least $0.50: choose fewer instalments',
		)
		expect(planProblems(equal(7), course)).toEqual({ instalmentCount: 'Choose from 2 to 6 instalments' })
		expect(planProblems(equal(1), course)).toEqual({ instalmentCount: 'Choose from 2 to 6 instalments' })
		expect(planProblems(equal(3), { ...course, priceCents: 149 })).toEqual({
			instalmentCount: 'Each instalment must be at least $0.50: choose fewer instalments',
		})
		expect(planProblems(equal(3), { ...course, priceCents: 150 })).toEqual({})
		expect(planProblems(equal(3), { ...course, priceCents: 0 })).toEqual({
			form: 'This course is free: there is nothing to pay in instalments.',
		})
		expect(planProblems(equal(3), { ...course, lastDay: null })).toEqual({
			form: "Set the course's end date first: the last instalment must fall before the course ends.",
		})
	})

	test('the last day a buyer can still start the plan', () => {
		expect(lastPurchaseDay(equal(3), { firstDay: '2027-01-01', lastDay: '2027-03-20' })).toBe('2027-01-19')
		// Clamped month ends: bought 31 December, the second instalment is due 28 February, before 1 March.
		expect(lastPurchaseDay(equal(3), { firstDay: '2026-12-01', lastDay: '2027-03-01' })).toBe('2026-12-31')
		expect(lastPurchaseDay(deposit(50_000, 2), { firstDay: '2027-01-01', lastDay: '2027-03-20' })).toBe('2027-01-19')
		expect(lastPurchaseDay(equal(6), { firstDay: '2027-01-01', lastDay: '2027-03-20' })).toBeNull()
		for (const lastDay of ['2027-03-01', '2027-03-31', '2028-03-01', '2027-07-31']) {
			const day = lastPurchaseDay(equal(4), { firstDay: '2026-01-01', lastDay })!
			expect(planProblems(equal(4), { priceCents: 100_000, purchaseDay: day, lastDay })).toEqual({})
			const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
			expect(planProblems(equal(4), { priceCents: 100_000, purchaseDay: next, lastDay }).instalmentCount).toBeDefined()
		}
	})
})

describe('the admin form', () => {
	test('reads dollars as cents, the grace days’ default, and a switched-off plan with nothing else', () => {
		const submission = parseWithZod(
			formData({
				intent: 'preview',
				offered: 'yes',
				kind: 'deposit',
				depositDollars: '$500',
				instalmentCount: '3',
				surchargeDollars: '99.99',
			}),
			{ schema: PaymentPlanFormSchema },
		)
		expect(submission.status).toBe('success')
		if (submission.status !== 'success' || submission.value.offered !== 'yes') throw new Error('expected an offered plan')
		expect(submission.value.intent).toBe('preview')
		expect(planValues(submission.value)).toEqual({
			terms: { kind: 'deposit', depositCents: 50_000, instalmentCount: 3, surchargeCents: 9_999 },
			graceDays: 7,
		})
		const off = parseWithZod(formData({ offered: 'no', kind: 'nonsense', instalmentCount: '99' }), { schema: PaymentPlanFormSchema })
		expect(off.status === 'success' && off.value).toEqual({ intent: 'save', offered: 'no' })
	})

	test.each([
		[{ kind: 'deposit', instalmentCount: '3' }, 'depositDollars', 'Enter the deposit that holds the seat'],
		[{ kind: 'deposit', depositDollars: '0.20', instalmentCount: '3' }, 'depositDollars', 'The deposit must be at least $0.50'],
		[
			{ kind: 'deposit', depositDollars: 'lots', instalmentCount: '3' },
			'depositDollars',
			'Enter the deposit in dollars, such as 500 or 499.50',
		],
		[{ kind: 'equal', instalmentCount: '7' }, 'instalmentCount', 'At most 6 instalments'],
		[{ kind: 'equal', instalmentCount: '1' }, 'instalmentCount', 'At least 2 instalments'],
		[{ kind: 'equal', instalmentCount: '2.5' }, 'instalmentCount', 'Enter a whole number of instalments'],
		[
			{ kind: 'equal', instalmentCount: '3', surchargeDollars: '-5' },
			'surchargeDollars',
			'Enter the surcharge in dollars, such as 100, or leave it empty for none',
		],
		[{ kind: 'equal', instalmentCount: '3', graceDays: '31' }, 'graceDays', 'At most 30 days'],
		[{ kind: 'weekly', instalmentCount: '3' }, 'kind', 'Choose a deposit and instalments, or equal instalments'],
	])('%o: %s says “%s”', (fields, field, message) => {
		const submission = parseWithZod(formData({ offered: 'yes', ...fields }), { schema: PaymentPlanFormSchema })
		if (submission.status !== 'error') throw new Error('expected a refusal')
		expect(submission.error?.[field]).toEqual([message])
	})
})
