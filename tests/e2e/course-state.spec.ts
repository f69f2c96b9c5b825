import { insertCourse, insertEnrollment } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'

test('an enrolled student sees their enrolment on the course page, not the seat for sale', async ({ page, db, createUser, signIn }) => {
	const student = await createUser()
	const course = await insertCourse(db, { capacity: 5, registration_fee: 250000 })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await signIn(student)

	await page.goto(`/courses/${course.id}`)
	await expect(page.getByText("You're enrolled in this course")).toBeVisible()
	await expect(page.getByRole('link', { name: 'Secure Your Spot Now' })).toHaveCount(0)
	// The purchase dialog and page are not offered even when asked for by address.
	await page.goto(`/courses/${course.id}?dialog=purchase`)
	await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toHaveCount(0)
	await page.goto(`/courses/${course.id}/enroll`)
	await expect(page).toHaveURL(new RegExp(`/courses/${course.id}$`))

	await page.getByRole('link', { name: 'Go to Your Course' }).click()
	await expect(page).toHaveURL(new RegExp(`/dashboard\\?course=${course.id}$`))
})

test('a student whose checkout was left unpaid is offered to complete the payment', async ({ page, db, createUser, signIn }) => {
	const student = await createUser()
	const course = await insertCourse(db, { capacity: 5, registration_fee: 90000 })
	await db
		.insertInto('registration_payments')
		.values({
			checkout_session_id: `cs_test_${crypto.randomUUID().replaceAll('-', '')}`,
			provider: 'test',
			user_id: student.id,
			course_id: course.id,
			course_title: course.title,
			customer_email: student.email,
			amount_cents: 90000,
			status: 'expired',
		})
		.execute()
	await signIn(student)

	await page.goto('/dashboard')
	await expect(page.getByRole('heading', { name: 'Complete your registration' })).toBeVisible()
	await page.getByRole('link', { name: `Complete Payment for ${course.title}` }).click()
	await expect(page.getByText('Payment pending')).toBeVisible()
	await expect(page.getByText('Your payment was not completed, so you are not enrolled yet.')).toBeVisible()
	await page.getByRole('link', { name: 'Complete Payment' }).click()
	await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeVisible()
})

test('a student on the waitlist of a full course is told so instead of offered it again', async ({ page, db, createUser, signIn }) => {
	const student = await createUser()
	const course = await insertCourse(db, { capacity: 1, registration_fee: 0 })
	const other = await createUser()
	await insertEnrollment(db, { userId: other.id, courseId: course.id })
	await db
		.insertInto('contact_submissions')
		.values({
			kind: 'waitlist',
			name: student.name,
			email: student.email,
			message: `Waitlist request for: ${course.title}\n`,
			program: course.title,
		})
		.execute()
	await signIn(student)

	await page.goto(`/courses/${course.id}`)
	await expect(page.getByText("You're on the waitlist")).toBeVisible()
	await expect(page.getByRole('link', { name: 'Join Waitlist' })).toHaveCount(0)
})
