import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import { publishEvent } from '#app/services/events/publish.server.ts'
import type { Database } from '#db/types.ts'
import { holdRequestsTo } from '#tests/support/hold-requests.ts'
import { agreeAndSubmit, enrollmentStatuses, expect, fillTestCard, registerToAgreement, test } from '../support/e2e-journeys.ts'

async function createPaidCourse(db: Kysely<Database>) {
	return db
		.insertInto('courses')
		.values({
			title: `Checkout E2E ${randomUUID().slice(0, 8)}`,
			description: 'A paid course made by a test.',
			capacity: 5,
			registration_fee: 250000,
		})
		.returning(['id', 'title'])
		.executeTakeFirstOrThrow()
}

async function registerToCheckout(page: Page, courseTitle: string, email: string) {
	await registerToAgreement(page, { name: 'Paula Payer', email, password: 'paid-course-password' }, courseTitle)
	await agreeAndSubmit(page, 'Proceed to Payment')
	await expect(page).toHaveURL(/\/test-checkout\/cs_test_[0-9a-f]+$/)
	await expect(page.getByText('Test mode — no real charge')).toBeVisible()
}

async function fillCard(page: Page, cardNumber: string) {
	await page.getByLabel('Name', { exact: true }).fill('Paula Payer')
	await fillTestCard(page, 'Paula Payer', cardNumber)
	await page.getByRole('button', { name: 'Pay $2,500.00' }).click()
}

/**
 * Pays with a card that goes through and reads the completed registration, which moves on to the
 * dashboard by itself after 2 s (a timer with JavaScript, a meta refresh without): the dashboard is
 * held until the page has been read.
 */
async function payAndFinishOnDashboard(page: Page, cardNumber: string) {
	const releaseDashboard = await holdRequestsTo(page, '/dashboard')
	await fillCard(page, cardNumber)
	await expect(page).toHaveURL(/\/registration-complete\?session_id=cs_test_/)
	await expect(page.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Go to Dashboard Now' })).toHaveAttribute('href', '/dashboard')
	// The header knows the browser is signed in now.
	const header = page.getByRole('banner')
	await expect(header.getByRole('button', { name: 'Logout' })).toBeAttached()
	await expect(header.getByRole('link', { name: 'Log in' })).toHaveCount(0)
	releaseDashboard()
	await expect(page).toHaveURL(/\/dashboard$/)
}

test('paid registration goes through the test checkout to the completion page and the dashboard', async ({ page, db }) => {
	const course = await createPaidCourse(db)
	const email = `payer-${randomUUID().slice(0, 12)}@example.com`
	await registerToCheckout(page, course.title, email)
	await expect(page.getByText(course.title)).toBeVisible()
	await expect(page.getByLabel('Email')).toHaveValue(email)
	// The name given at registration fills the form too.
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Paula Payer')

	await payAndFinishOnDashboard(page, '4242 4242 4242 4242')
	await expect(page.getByRole('heading', { name: 'Welcome, Paula Payer!' })).toBeVisible()

	const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
	expect(await enrollmentStatuses(db, user.id, course.id)).toEqual([{ status: 'active' }])
	const payment = await db
		.selectFrom('registration_payments')
		.select(['status', 'amount_cents'])
		.where('user_id', '=', user.id)
		.executeTakeFirstOrThrow()
	expect(payment).toEqual({ status: 'paid', amount_cents: 250000 })
})

test('the declined test card fails with the spec message and can be retried', async ({ page, db }) => {
	const course = await createPaidCourse(db)
	const email = `declined-${randomUUID().slice(0, 12)}@example.com`
	await registerToCheckout(page, course.title, email)

	await page.getByRole('button', { name: 'Pay $2,500.00' }).click()
	await expect(page.getByText('Please enter a valid card number.')).toBeVisible()
	await expect(page.getByText('Please use format MM/YY')).toBeVisible()

	await fillCard(page, '4000 0000 0000 0002')
	await expect(page.getByText('Payment failed. Please try again.')).toBeVisible()
	await expect(page).toHaveURL(/\/test-checkout\//)
	const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
	expect(await db.selectFrom('enrollments').select('id').where('user_id', '=', user.id).execute()).toEqual([])

	await payAndFinishOnDashboard(page, '4242 4242 4242 4242')
})

test('a signed-in student secures a paid spot from the course page', async ({ page, db, signInAs }) => {
	const course = await createPaidCourse(db)
	const student = await signInAs({ name: 'Stan Student' })

	await page.goto(`/courses/${course.id}`)
	await page.getByRole('link', { name: 'Secure Your Spot Now' }).click()
	await expect(page).toHaveURL(new RegExp(`/courses/${course.id}\\?dialog=purchase$`))
	const dialog = page.getByRole('dialog', { name: 'Secure Your Spot' })
	await agreeAndSubmit(dialog, 'Proceed to Payment')
	await expect(page).toHaveURL(/\/test-checkout\//)
	await expect(page.getByLabel('Email')).toHaveValue(student.email)
	await payAndFinishOnDashboard(page, '4242424242424242')
	expect(await enrollmentStatuses(db, student.id, course.id)).toEqual([{ status: 'active' }])
})

test('a seat event while the purchase form posts does not lose its way to the checkout (the live seat counts wait) @js-only', async ({
	page,
	db,
	signInAs,
}) => {
	const course = await createPaidCourse(db)
	await signInAs({ name: 'Sam Slowphone' })
	await page.goto(`/courses/${course.id}?dialog=purchase`)
	// The answer to the purchase is held back, as on a slow phone, while a seat changes elsewhere and its
	// event reaches the page: revalidating then used to make React Router drop the answer's redirect.
	await page.route(`**/courses/${course.id}/enroll.data`, async (route) => {
		const answer = await route.fetch()
		const revalidation = page.waitForRequest((request) => new URL(request.url()).pathname === `/courses/${course.id}.data`)
		await publishEvent(db, { type: 'enrollment.changed', courseId: course.id })
		// The page would revalidate a moment after the event (its debounce); it must not while the form posts.
		await Promise.race([revalidation, page.waitForTimeout(2000)])
		await route.fulfill({ response: answer })
	})
	const dialog = page.getByRole('dialog', { name: 'Secure Your Spot' })
	await agreeAndSubmit(dialog, 'Proceed to Payment')
	await expect(page).toHaveURL(/\/test-checkout\//)
})

test('a student who left an open checkout goes back to the same one, or cancels it to start again (docs/decisions/040)', async ({
	page,
	db,
	signInAs,
}) => {
	const course = await createPaidCourse(db)
	const student = await signInAs({ name: 'Olive Open' })

	await page.goto(`/courses/${course.id}?dialog=purchase`)
	const dialog = page.getByRole('dialog', { name: 'Secure Your Spot' })
	await agreeAndSubmit(dialog, 'Proceed to Payment')
	await expect(page).toHaveURL(/\/test-checkout\//)
	const checkoutUrl = page.url()

	// Back on the course page without paying: the spot is held, the purchase goes back to the same checkout.
	await page.goto(`/courses/${course.id}`)
	await expect(page.getByText('Payment pending')).toBeVisible()
	await expect(page.getByText(/Your spot is held until/).first()).toBeVisible()
	await page.getByRole('link', { name: 'Complete Payment' }).click()
	const again = page.getByRole('dialog', { name: 'Secure Your Spot' })
	await expect(again.getByText('Your checkout is open')).toBeVisible()
	await expect(again.getByLabel('Promotion code (optional)')).toHaveCount(0)
	await agreeAndSubmit(again, 'Continue to Payment')
	await expect(page).toHaveURL(checkoutUrl)

	await page.goto(`/courses/${course.id}`)
	await page.getByRole('button', { name: 'Cancel Checkout and Release My Spot' }).click()
	await expect(page.getByText('Checkout cancelled')).toBeVisible()
	await expect(page.getByRole('link', { name: 'Complete Payment' })).toBeVisible()
	await expect(page.getByText('Your payment was not completed, so you are not enrolled yet.')).toBeVisible()
	const holds = await db.selectFrom('seat_holds').select('id').where('user_id', '=', student.id).execute()
	expect(holds).toEqual([])
})

test('a payment that cannot be verified shows the spec error and toast', async ({ page }) => {
	await page.goto(`/registration-complete?session_id=cs_test_${'0'.repeat(32)}`)
	await expect(page.getByRole('heading', { name: 'Registration Problem' })).toBeVisible()
	await expect(page.getByRole('main').getByText('Failed to verify your registration payment.')).toBeVisible()
	const toast = page.getByRole('status').filter({ hasText: 'Payment Verification Error' })
	await expect(toast).toContainText('Failed to verify payment')
})

test('a cancelled checkout says the account exists, and the same e-mail can start over', async ({ page, db }) => {
	const course = await createPaidCourse(db)
	const email = `cancel-${randomUUID().slice(0, 12)}@example.com`
	await registerToCheckout(page, course.title, email)
	await page.getByRole('button', { name: 'Cancel and go back' }).click()

	await expect(page).toHaveURL(/\/register\/agreement$/)
	const notice = page.getByRole('status').filter({ hasText: 'Your payment was not completed' })
	await expect(notice).toContainText(`Your account for ${email} has been created, but you are not enrolled yet.`)
	await expect(notice).toContainText('log in, and complete the payment from your dashboard')
	// Paying now is one step away.
	await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeAttached()

	await notice.getByRole('button', { name: 'Start Over' }).click()
	await expect(page.getByRole('heading', { name: 'Your Information' })).toBeVisible()
	await expect(page.getByLabel('Email')).toHaveValue('')
	await registerToCheckout(page, course.title, email)
	const users = await db.selectFrom('users').select('id').where('email', '=', email).execute()
	expect(users).toHaveLength(1)
})
