import { randomUUID } from 'node:crypto'
import { insertCourse } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'
import { agreeAndSubmit, enrollmentStatuses, fillYourInformation, registerToAgreement } from '../support/e2e-journeys.ts'

function uniqueEmail() {
	return `register-${randomUUID().slice(0, 12)}@example.com`
}

test('step 1 shows the spec validation messages', async ({ page, javaScriptEnabled }) => {
	await page.goto('/register')
	await expect(page.getByRole('heading', { level: 1, name: 'Start Your Journey' })).toBeVisible()
	await expect(page.getByText('Create an account to join our real estate investment program.')).toBeVisible()
	await page.getByLabel('Full Name').fill('A')
	await page.getByLabel('Email').fill('not-an-email')
	await page.getByLabel('Password', { exact: true }).fill('short')
	await page.getByLabel('Confirm Password').fill('different')
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByText('Name must be at least 2 characters')).toBeVisible()
	await expect(page.getByText('Please enter a valid email address')).toBeVisible()
	await expect(page.getByText('Password must be at least 8 characters')).toBeVisible()
	await expect(page.getByText('Passwords do not match')).toBeVisible()
	// The server's answer never carries the password back (with JavaScript nothing was sent).
	if (!javaScriptEnabled) await expect(page.getByLabel('Password', { exact: true })).toHaveValue('')
})

test('free registration goes to the dashboard, signed in', async ({ page, db, javaScriptEnabled }) => {
	const course = await insertCourse(db, { capacity: 5, registration_fee: 0 })
	const email = uniqueEmail()

	await page.goto('/register')
	await expect(page.getByRole('heading', { name: 'Your Information' })).toBeVisible()
	await fillYourInformation(page, { name: 'Frida Free', email, password: 'free-course-password' })
	await page.getByRole('button', { name: 'Continue' }).click()

	await expect(page.getByRole('heading', { name: 'Select a Course' })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Available Courses' })).toBeVisible()
	await page.getByRole('radio', { name: new RegExp(course.title) }).check()
	await page.getByRole('button', { name: 'Continue' }).click()

	await expect(page.getByRole('heading', { name: 'Real Estate Mentorship Program Agreement' })).toBeVisible()
	await expect(page.getByText('governed by the laws of the State of Georgia')).toBeVisible()
	const register = page.getByRole('button', { name: 'Register Now' })
	if (javaScriptEnabled) {
		await expect(register).toBeDisabled()
	} else {
		await register.click()
		await expect(page.getByText('You must agree to the terms before proceeding to payment')).toBeVisible()
	}
	await page.getByRole('checkbox', { name: /I have read and agree/ }).check()
	await register.click()

	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByRole('heading', { name: 'Welcome, Frida Free!' })).toBeVisible()
	await expect(page.getByText('Registration Successful')).toBeVisible()

	const user = await db.selectFrom('users').select(['id', 'email_confirmed_at']).where('email', '=', email).executeTakeFirstOrThrow()
	expect(user.email_confirmed_at).toBeNull()
	expect(await enrollmentStatuses(db, user.id, course.id)).toEqual([{ status: 'active' }])
})

test('Back at every step keeps what was entered, except the passwords', async ({ page, db }) => {
	const course = await insertCourse(db, { capacity: 5, registration_fee: 250000 })
	const email = uniqueEmail()

	await registerToAgreement(page, { name: 'Bert Back', email, password: 'back-and-forth-1' }, course.title)
	await expect(page.getByRole('heading', { name: 'Real Estate Mentorship Program Agreement' })).toBeVisible()
	await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeVisible()

	await page.getByRole('link', { name: 'Back' }).click()
	await expect(page.getByRole('heading', { name: 'Select a Course' })).toBeVisible()
	await expect(page.getByRole('radio', { name: new RegExp(course.title) })).toBeChecked()

	await page.getByRole('link', { name: 'Back' }).click()
	await expect(page.getByRole('heading', { name: 'Your Information' })).toBeVisible()
	await expect(page.getByLabel('Full Name')).toHaveValue('Bert Back')
	await expect(page.getByLabel('Email')).toHaveValue(email)
	await expect(page.getByLabel('Password', { exact: true })).toHaveValue('')

	// The browser's own Back button works the same way: every step has its own address. A course
	// published meanwhile moves the list, and the browser must not restore a stale choice by position.
	await insertCourse(db, { capacity: 5 })
	await page.goBack()
	await expect(page.getByRole('heading', { name: 'Select a Course' })).toBeVisible()
	await expect(page.getByRole('radio', { name: new RegExp(course.title) })).toBeChecked()

	await page.getByRole('link', { name: 'Back' }).click()
	await page.getByLabel('Full Name').fill('Bert Changed')
	await page.getByLabel('Password', { exact: true }).fill('back-and-forth-2')
	await page.getByLabel('Confirm Password').fill('back-and-forth-2')
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByRole('heading', { name: 'Select a Course' })).toBeVisible()
	await expect(page.getByRole('radio', { name: new RegExp(course.title) })).toBeChecked()
	const drafts = await db.selectFrom('registration_drafts').select(['name', 'password_hash']).where('email', '=', email).execute()
	expect(drafts).toHaveLength(1)
	expect(drafts[0]!.name).toBe('Bert Changed')
	expect(drafts[0]!.password_hash).toMatch(/^\$argon2id\$/)
})

test('Back from step 2 keeps the password: step 1 continues with both password fields left blank', async ({ page, db }) => {
	const course = await insertCourse(db, { capacity: 5, registration_fee: 0 })
	const email = uniqueEmail()

	await page.goto('/register')
	await fillYourInformation(page, { name: 'Kim Kept', email, password: 'kept-password-1' })
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByRole('heading', { name: 'Select a Course' })).toBeVisible()
	const hash = await db.selectFrom('registration_drafts').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()

	await page.getByRole('link', { name: 'Back' }).click()
	await expect(page.getByText('Your password is saved. Leave both password fields blank to keep it, or type a new one.')).toBeVisible()
	await page.getByLabel('Full Name').fill('Kim Kept-Again')
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByRole('heading', { name: 'Select a Course' })).toBeVisible()
	await page.getByRole('radio', { name: new RegExp(course.title) }).check()
	await page.getByRole('button', { name: 'Continue' }).click()
	await agreeAndSubmit(page, 'Register Now')
	await expect(page.getByRole('heading', { name: 'Welcome, Kim Kept-Again!' })).toBeVisible()

	// The account has the password typed on the first visit to step 1.
	const user = await db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()
	expect(user.password_hash).toBe(hash.password_hash)
})

test('a filled spam trap on step 1 is refused visibly and keeps the name and e-mail', async ({ page, db, javaScriptEnabled }) => {
	const email = uniqueEmail()
	await page.goto('/register')
	await fillYourInformation(page, { name: 'Tess Trapped', email, password: 'trapped-password' })
	// What a browser without styles shows as a field labelled "Leave this field empty".
	await page.locator('input[name="website"]').fill('https://example.com', { force: true })
	await page.getByRole('button', { name: 'Continue' }).click()

	await expect(page.getByText('Your form was not sent: the field “Leave this field empty” must stay empty.')).toBeVisible()
	await expect(page.getByLabel('Full Name')).toHaveValue('Tess Trapped')
	await expect(page.getByLabel('Email')).toHaveValue(email)
	// The page sent back has the trap empty again (with JavaScript the form stays as it was; the trap is out of reach there).
	if (!javaScriptEnabled) await expect(page.locator('input[name="website"]')).toHaveValue('')
	expect(await db.selectFrom('registration_drafts').select('id').where('email', '=', email).execute()).toEqual([])
})

test('an e-mail that already has an account is refused on step 1', async ({ page, createUser }) => {
	const existing = await createUser()
	await page.goto('/register')
	await fillYourInformation(page, { name: 'Double Account', email: existing.email, password: 'some-long-password' })
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page.getByText('An account with this email already exists. Please log in instead.')).toBeVisible()
	await expect(page.getByRole('link', { name: 'Login here' })).toHaveAttribute('href', '/login')
})

test('the agreement takes its price and length from the course: a free 4-week course is neither $2,500 nor non-refundable', async ({
	page,
	db,
}) => {
	const course = await insertCourse(db, { capacity: 5, registration_fee: 0, start_date: '2031-05-05', end_date: '2031-06-01' })
	await registerToAgreement(page, { name: 'Agnes Agreement', email: uniqueEmail(), password: 'agreement-password' }, course.title)

	const terms = page.getByRole('region', { name: 'Agreement terms' })
	await expect(terms).toContainText('The program runs for 4 weeks')
	await expect(terms).toContainText('This course is free')
	await expect(terms).not.toContainText('$2,500')
	await expect(terms).not.toContainText('non-refundable')
	await expect(terms).toContainText('governed by the laws of the State of Georgia')
})
