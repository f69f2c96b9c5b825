/**
 * A promotion code on a payment plan and the student's Payments section (issue 41 point 5,
 * docs/decisions/064), with JavaScript on and off: Settings starts empty; Apply on the purchase form
 * shows the plan's payments with the code spread over them; the test checkout and the receipt show
 * the plan's price, the code and the plan's total; Settings then lists the plan (paid 1 of 3, what is
 * left, the next payment) and the charge, whose receipt opens.
 */
import { randomUUID } from 'node:crypto'
import { addMonths } from '#app/models/payments/instalment-plans.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { insertPromotionCode } from '#tests/support/fixtures.ts'
import { insertPlanCourse } from '#tests/support/plan-course.ts'
import { expect, test } from '../support/e2e.ts'
import { agreeAndSubmit, payAtTestCheckout } from '../support/e2e-journeys.ts'

test('a code on a plan is spread over its payments, and Settings lists the charge, its receipt and what is left', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const title = `Coded Plan ${randomUUID().slice(0, 8)}`
	const { course, today } = await insertPlanCourse(db, { title })
	const code = `PLAN${randomUUID().slice(0, 8).toUpperCase()}`
	await insertPromotionCode(db, { code, percent_off: 10, course_id: course.id })
	const student = await createUser({ name: 'Paula Payments' })
	await signIn(student)

	await page.goto('/dashboard/settings')
	await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible()
	await expect(page.getByText('You have not made any payments yet.')).toBeVisible()

	await page.goto(`/courses/${course.id}/enroll`)
	const choice = page.getByRole('group', { name: 'How would you like to pay?' })
	await choice.getByRole('radio', { name: /Payment plan/ }).check()
	await page.getByLabel('Promotion code (optional)').fill(code.toLowerCase())
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByText('On the payment plan: $2,600.00 less $260.00 is $2,340.00, spread over its 3 payments.')).toBeVisible()
	await expect(choice.getByText(`Instalment 2 of 3 — due ${formatDateOnly(addMonths(today, 1))}`)).toBeVisible()
	await expect(choice.getByRole('listitem').filter({ hasText: 'Instalment 3 of 3' }).getByText('$780.00')).toBeVisible()
	await choice.getByRole('radio', { name: /Payment plan/ }).check()
	await agreeAndSubmit(page, 'Proceed to Payment')

	await expect(page).toHaveURL(/\/test-checkout\/cs_test_[0-9a-f]+$/)
	const plan = page.getByRole('region', { name: /Payment plan: \$2,340\.00 in 3 payments/ })
	await expect(plan.getByText(`Promotion code ${code}`)).toBeVisible()
	await expect(plan.getByText('−$260.00')).toBeVisible()
	const releaseDashboard = await payAtTestCheckout(page, { buyer: 'Paula Payments', button: 'Pay $780.00' })
	const receipt = page.getByRole('region', { name: /Your payment plan: \$2,340\.00 in 3 payments/ })
	await expect(receipt.getByText('Plan price')).toBeVisible()
	await expect(receipt.getByText(`Promotion code ${code}`)).toBeVisible()
	await expect(receipt.getByText(`Instalment 1 of 3 — due ${formatDateOnly(today)} (paid)`)).toBeVisible()
	releaseDashboard()
	await expect(page).toHaveURL(/\/dashboard$/)

	await page.goto('/dashboard/settings')
	const plans = page.getByRole('region', { name: 'Payment plans' })
	await expect(plans.getByText('Paid 1 of 3 payments: $780.00 of $2,340.00. Left to pay: $1,560.00.')).toBeVisible()
	await expect(plans.getByText(`Next payment: Instalment 2 of 3, $780.00, due ${formatDateOnly(addMonths(today, 1))}.`)).toBeVisible()
	await expect(plans.getByText(`Promotion code ${code}: $260.00 off the plan's $2,600.00, spread over its payments.`)).toBeVisible()
	const charges = page.getByRole('region', { name: 'Charges' })
	await expect(charges.getByText('Payment plan: Instalment 1 of 3.')).toBeVisible()
	await charges.getByRole('link', { name: `Receipt for ${title}, $780.00` }).click()

	await expect(page.getByRole('heading', { name: 'Receipt' })).toBeVisible()
	await expect(page.getByRole('definition').filter({ hasText: title })).toBeVisible()
	await expect(page.getByRole('definition').filter({ hasText: '$780.00' })).toBeVisible()
	await expect(page.getByRole('definition').filter({ hasText: student.email })).toBeVisible()
})
