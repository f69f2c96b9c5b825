/**
 * Pay in instalments, the purchase (issue 41, docs/decisions/054 and 059), with JavaScript on and
 * off: the course page shows the plan beside the fee; the purchase form offers paying in full or
 * the plan with every amount and date; the test checkout charges the first payment and shows the
 * rest; the receipt lists the schedule with the first payment paid. Then the admin charges the
 * next instalment as failed (test mode), the grace period passes (the pause job run with its clock
 * moved on), the student's dashboard says why access paused and the course's files are refused;
 * the student updates the card and pays, and access is back at once.
 */
import { randomUUID } from 'node:crypto'
import { addMonths } from '#app/models/payments/instalment-plans.ts'
import { pauseOverduePlans } from '#app/models/payments/plan-purchases.server.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { insertMaterialItem, insertWeek } from '#tests/support/fixtures.ts'
import { insertPlanCourse } from '#tests/support/plan-course.ts'
import { expect, test } from '../support/e2e.ts'
import { agreeAndSubmit, payAtTestCheckout } from '../support/e2e-journeys.ts'

test('a student buys a course on a 3-instalment plan, a failed instalment pauses access after the grace days, paying restores it', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const title = `Instalments ${randomUUID().slice(0, 8)}`
	const { course, today } = await insertPlanCourse(db, { title })
	const week = await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Financing Deals' })
	const checklist = await insertMaterialItem(db, { courseId: course.id, weekId: week, title: 'Lender Checklist', fileName: 'lenders.pdf' })
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
	await agreeAndSubmit(page, 'Proceed to Payment')

	await expect(page).toHaveURL(/\/test-checkout\/cs_test_[0-9a-f]+$/)
	const plan = page.getByRole('region', { name: /Payment plan: \$2,600\.00 in 3 payments/ })
	await expect(plan.getByText(`Instalment 3 of 3 — due ${formatDateOnly(addMonths(today, 2))}`)).toBeVisible()
	const releaseDashboard = await payAtTestCheckout(page, { buyer: 'Ines Instalment', button: 'Pay $866.68' })
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
	const materials = page.getByRole('region', { name: 'Week 1: Financing Deals' })
	await expect(materials.getByText('Lender Checklist')).toBeVisible()

	// The admin, in test mode, charges the next instalment and it fails.
	await signIn(await createUser({ role: 'admin' }))
	await page.goto(`/dashboard/admin/courses/${course.id}/plans`)
	const bought = page.getByRole('listitem').filter({ hasText: 'Ines Instalment' })
	await expect(bought.getByText('1 of 3 ($2,600.00 in all)')).toBeVisible()
	await bought.getByRole('button', { name: 'Fail' }).click()
	await expect(page.getByText('Instalment failed', { exact: true })).toBeVisible()
	await expect(bought.getByText('Past due')).toBeVisible()
	await expect(bought.getByText('Failing since')).toBeVisible()
	const mails = await db
		.selectFrom('email_outbox')
		.select('subject')
		.where('to_address', '=', student.email)
		.where('subject', 'like', 'Payment failed: %')
		.execute()
	expect(mails).toHaveLength(1)

	// Within the grace period the student is warned and keeps access.
	await signIn(student)
	await page.goto('/dashboard')
	await expect(page.getByText(`A payment for ${title} failed`)).toBeVisible()
	await expect(materials.getByText('Lender Checklist')).toBeVisible()

	// The clock moves past the grace days: the pause job's run pauses the plan.
	await pauseOverduePlans(db, new Date(Date.now() + 8 * 86_400_000))
	await page.goto('/dashboard')
	await expect(page.getByText(`Access to ${title} is paused`)).toBeVisible()
	await expect(materials).toHaveCount(0)
	const refused = await page.goto(`/dashboard/materials/${checklist}`)
	expect(refused?.status()).toBe(403)

	// The student updates the card and pays what failed: access is back at once.
	await page.goto('/dashboard')
	await page.getByRole('link', { name: `Update card and pay for ${title}` }).click()
	await expect(page.getByRole('heading', { name: 'Update Card and Pay' })).toBeVisible()
	await page.getByLabel('Card Number').fill('4242 4242 4242 4242')
	await page.getByLabel('Expiry (MM/YY)').fill('12/34')
	await page.getByLabel('CVC').fill('123')
	await page.getByRole('button', { name: 'Pay $866.66' }).click()
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText('Payment received')).toBeVisible()
	await expect(page.getByText(`Access to ${title} is paused`)).toHaveCount(0)
	await expect(materials.getByText('Lender Checklist')).toBeVisible()
})
