/**
 * The admin's side of plans bought (issue 41, docs/decisions/063), with JavaScript on and off: on a
 * course's Plans Bought page the admin marks an instalment paid outside, pauses and resumes a plan,
 * cancels the rest after a confirmation (the student stays enrolled); and for another student
 * charges the next instalment (test mode, a receipt e-mailed), then refunds the plan in one action:
 * everything paid goes back, the rest is cancelled and the enrolment ends.
 */
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { insertCourse, insertEnrollment, insertPayment, insertPlanPurchase } from '#tests/support/fixtures.ts'
import { expect, mailsTo, test } from '../support/e2e-journeys.ts'

/** A plan bought through the test checkout: its first payment ($866.68) paid at a real test session, the enrolment active. */
async function planBought(db: Kysely<Database>, student: { id: string; email: string }, course: { id: number; title: string }) {
	const enrollment = await insertEnrollment(db, { userId: student.id, courseId: course.id })
	const { planId } = await insertPlanPurchase(db, { userId: student.id, courseId: course.id, enrollmentId: enrollment.id })
	const { checkout_session_id: sessionId } = await db
		.selectFrom('plan_purchases')
		.select('checkout_session_id')
		.where('id', '=', planId)
		.executeTakeFirstOrThrow()
	await db
		.insertInto('test_checkout_sessions')
		.values({
			id: sessionId,
			amount_cents: 86_668,
			description: course.title,
			customer_email: student.email,
			status: 'complete',
			payment_status: 'paid',
			success_url: 'http://localhost/registration-complete',
			cancel_url: 'http://localhost/register',
			expires_at: new Date(),
			completed_at: new Date(),
		})
		.execute()
	await insertPayment(db, {
		checkout_session_id: sessionId,
		user_id: student.id,
		course_id: course.id,
		course_title: course.title,
		customer_email: student.email,
		amount_cents: 86_668,
		status: 'paid',
		enrollment_id: enrollment.id,
		payment_intent_id: sessionId,
		fulfilled_at: new Date(),
	})
	return { planId, enrollmentId: enrollment.id }
}

test('the admin marks paid outside, pauses, resumes and cancels the rest of one plan, and refunds another in one action', async ({
	page,
	db,
	signInAs,
	createUser,
}) => {
	const course = await insertCourse(db, { title: `Plans Admin ${randomBytes(4).toString('hex')}`, capacity: 5, registration_fee: 250_000 })
	const kept = await createUser({ name: 'Kim Kept' })
	const refunded = await createUser({ name: 'Rae Refunded' })
	const keptPlan = await planBought(db, kept, course)
	const refundedPlan = await planBought(db, refunded, course)
	await signInAs({ role: 'admin' })
	const plansPage = `/dashboard/admin/courses/${course.id}/plans`
	await page.goto(plansPage)
	const keptCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Kim Kept' }) })
	await expect(keptCard.getByText('1 of 3 ($2,600.00 in all)')).toBeVisible()

	await keptCard.getByRole('button', { name: /Mark paid outside\W+instalment 2 of 3/ }).click()
	await expect(page.getByText('Instalment marked paid outside')).toBeVisible()
	await expect(keptCard.getByText('2 of 3 ($2,600.00 in all)')).toBeVisible()
	await expect(keptCard.getByText('Paid outside', { exact: true })).toBeVisible()

	await keptCard.getByRole('button', { name: 'Pause' }).click()
	await expect(keptCard.getByText('Paused by an admin')).toBeVisible()
	await keptCard.getByRole('button', { name: 'Resume' }).click()
	await expect(keptCard.getByText('In good standing')).toBeVisible()

	await keptCard.getByRole('link', { name: 'Cancel the rest' }).click()
	const confirm = page.getByRole('dialog', { name: 'Cancel the Rest of the Plan' })
	await expect(confirm.getByText('Cancel what Kim Kept still has to pay ($866.66)?', { exact: false })).toBeVisible()
	await confirm.getByRole('button', { name: 'Cancel the Rest' }).click()
	await expect(page.getByText('The rest of the plan is cancelled. The student stays enrolled.')).toBeVisible()
	await expect(keptCard.getByText('Cancelled', { exact: true }).first()).toBeVisible()
	await expect(keptCard.getByRole('button', { name: 'Pause' })).toHaveCount(0)
	const keptEnrollment = await db
		.selectFrom('enrollments')
		.select('status')
		.where('id', '=', keptPlan.enrollmentId)
		.executeTakeFirstOrThrow()
	expect(keptEnrollment.status).toBe('active')

	// Test mode: the next instalment is charged now, and its receipt e-mailed.
	const refundedCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Rae Refunded' }) })
	await refundedCard.getByRole('button', { name: 'Succeed' }).click()
	await expect(page.getByText('Instalment paid', { exact: true })).toBeVisible()
	await expect(refundedCard.getByText('2 of 3 ($2,600.00 in all)')).toBeVisible()
	const receipts = await mailsTo(db, refunded.email, `Payment received: ${course.title}`)
	expect(receipts).toHaveLength(1)

	await refundedCard.getByRole('link', { name: 'Refund the plan' }).click()
	const dialog = page.getByRole('dialog', { name: 'Refund the Plan' })
	await expect(dialog.getByText('Refunding also cancels the 1 payment still to come ($866.66)', { exact: false })).toBeVisible()
	await expect(dialog.getByLabel('Amount to refund (USD)')).toHaveValue('1733.34')
	await dialog.getByLabel('Note to the student').fill('You asked to leave the program.')
	await dialog.getByRole('button', { name: 'Review Refund' }).click()
	const review = page.getByRole('dialog', { name: 'Confirm Plan Refund' })
	await expect(review.getByText('The enrollment becomes inactive and its seat frees.', { exact: false })).toBeVisible()
	await review.getByRole('button', { name: 'Refund $1,733.34' }).click()
	await expect(page.getByText('Plan refunded')).toBeVisible()
	await expect(refundedCard.getByRole('link', { name: 'Refund the plan' })).toHaveCount(0)

	const after = await db
		.selectFrom('plan_purchases')
		.innerJoin('enrollments', 'enrollments.id', 'plan_purchases.enrollment_id')
		.select(['plan_purchases.status', 'enrollments.status as enrollmentStatus'])
		.where('plan_purchases.id', '=', refundedPlan.planId)
		.executeTakeFirstOrThrow()
	expect(after).toEqual({ status: 'cancelled', enrollmentStatus: 'inactive' })
	const refunds = await mailsTo(db, refunded.email, `Refund issued: ${course.title}`)
	expect(refunds).toHaveLength(2)
})
