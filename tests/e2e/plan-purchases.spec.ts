/**
 * Pay in instalments, the purchase (issue 41, docs/decisions/054 and 059), with JavaScript on and
 * off: the course page shows the plan beside the fee; the purchase form offers paying in full or
 * the plan with every amount and date; the test checkout charges the first payment and shows the
 * rest; the receipt lists the schedule with the first payment paid.
 */
import { randomUUID } from 'node:crypto'
import { addMonths, dayInZone } from '#app/models/payments/instalment-plans.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { insertCourse, insertPaymentPlan } from '#tests/support/fixtures.ts'
import { holdRequestsTo } from '#tests/support/hold-requests.ts'
import { expect, test } from '../support/e2e.ts'

const ZONE = 'America/New_York'

test('a student buys a course on a 3-instalment plan through the test checkout', async ({ page, db, createUser, signIn }) => {
	const today = dayInZone(new Date(), ZONE)
	const title = `Instalments ${randomUUID().slice(0, 8)}`
	const course = await insertCourse(db, {
		title,
		registration_fee: 250_000,
		time_zone: ZONE,
		start_date: today,
		end_date: addMonths(today, 4),
	})
	await insertPaymentPlan(db, { courseId: course.id, surcharge_cents: 10_000 })
	const student = await createUser({ name: 'Ines Instalment' })
	await signIn(student)

	await page.goto(`/courses/${course.id}`)
	await expect(
		page.getByText(`Or pay $2,600.00 in 3 payments: $866.68 today, paid in full by ${formatDateOnly(addMonths(today, 2))}.`),
	).toBeVisible()

	await page.goto(`/courses/${course.id}/enroll`)
	await expect(page.getByText(`paid in full by ${formatDateOnly(addMonths(today, 2))}`, { exact: false }).first()).toBeVisible()
	const choice = page.getByRole('group', { name: 'How would you like to pay?' })
	await expect(choice.getByText(`Instalment 2 of 3 — due ${formatDateOnly(addMonths(today, 1))}`)).toBeVisible()
	await choice.getByRole('radio', { name: /Payment plan/ }).check()
	await page.getByRole('checkbox', { name: /I have read and agree/ }).check()
	await page.getByRole('button', { name: 'Proceed to Payment' }).click()

	await expect(page).toHaveURL(/\/test-checkout\/cs_test_[0-9a-f]+$/)
	const plan = page.getByRole('region', { name: /Payment plan: \$2,600\.00 in 3 payments/ })
	await expect(plan.getByText(`Instalment 3 of 3 — due ${formatDateOnly(addMonths(today, 2))}`)).toBeVisible()
	await page.getByLabel('Cardholder Name').fill('Ines Instalment')
	await page.getByLabel('Card Number').fill('4242 4242 4242 4242')
	await page.getByLabel('Expiry (MM/YY)').fill('12/34')
	await page.getByLabel('CVC').fill('123')
	const releaseDashboard = await holdRequestsTo(page, '/dashboard')
	await page.getByRole('button', { name: 'Pay $866.68' }).click()

	await expect(page.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible()
	await expect(page.getByRole('definition').filter({ hasText: '$866.68' })).toBeVisible()
	const receipt = page.getByRole('region', { name: /Your payment plan/ })
	await expect(receipt.getByText(`Instalment 1 of 3 — due ${formatDateOnly(today)} (paid)`)).toBeVisible()
	await expect(receipt.getByText(`Instalment 2 of 3 — due ${formatDateOnly(addMonths(today, 1))}`)).toBeVisible()
	releaseDashboard()
	await expect(page).toHaveURL(/\/dashboard$/)

	const purchase = await db
		.selectFrom('plan_purchases')
		.innerJoin('enrollments', 'enrollments.id', 'plan_purchases.enrollment_id')
		.select(['plan_purchases.status', 'enrollments.status as enrollmentStatus'])
		.where('plan_purchases.course_id', '=', course.id)
		.executeTakeFirstOrThrow()
	expect(purchase).toEqual({ status: 'active', enrollmentStatus: 'active' })
})
