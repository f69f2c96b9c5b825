import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { insertCourse, insertEnrollment, insertUser } from '#tests/support/fixtures.ts'
import { expect, fillYourInformation, test } from '../support/e2e-journeys.ts'

async function takeSeat(db: Kysely<Database>, courseId: number) {
	const userId = await insertUser(db)
	await insertEnrollment(db, { userId, courseId })
}

/** A free course of one seat, taken. */
async function fullCourse(db: Kysely<Database>) {
	const course = await insertCourse(db, { capacity: 1, registration_fee: 0 })
	await takeSeat(db, course.id)
	return course
}

/** The full course's page, and its Join Waitlist dialog opened from its link. */
async function openWaitlistDialog(page: Page, courseId: number) {
	await page.goto(`/courses/${courseId}`)
	await page.getByRole('link', { name: 'Join Waitlist' }).click()
	return page.getByRole('dialog', { name: 'Join Our Waitlist' })
}

async function waitlistRows(db: Kysely<Database>, email: string) {
	return db
		.selectFrom('contact_submissions')
		.select(['program', 'message', 'phone'])
		.where('kind', '=', 'waitlist')
		.where('email', '=', email)
		.execute()
}

async function startRegistration(page: Page, email: string) {
	await page.goto('/register')
	await fillYourInformation(page, { name: 'Lena Late', email, password: 'too-late-password' })
	await page.getByRole('button', { name: 'Continue' }).click()
}

test('a course that fills up during registration leads to the waitlist', async ({ page, db, javaScriptEnabled }) => {
	const course = await insertCourse(db, { capacity: 1, registration_fee: 0 })
	const email = `late-${randomUUID().slice(0, 12)}@example.com`

	await startRegistration(page, email)
	// With JavaScript, choosing checks the seats: let that check see the seat still free.
	const checked = javaScriptEnabled ? page.waitForResponse((response) => new URL(response.url()).pathname === '/courses.data') : null
	await page.getByRole('radio', { name: new RegExp(course.title) }).check()
	await checked
	// Someone else takes the last seat before Continue.
	await takeSeat(db, course.id)
	await page.getByRole('button', { name: 'Continue' }).click()

	await expect(page.getByText('Course Full', { exact: true })).toBeVisible()
	const dialog = page.getByRole('dialog', { name: 'Join Our Waitlist' })
	await expect(dialog).toBeVisible()
	await expect(dialog.getByText(`Sign up to be notified when our ${course.title} becomes available`)).toBeVisible()
	await expect(
		page.getByText('This course is now full. Please join our waitlist to be notified when spots become available.').first(),
	).toBeVisible()

	// The name and e-mail given in step 1 are filled in.
	await expect(dialog.getByLabel('Full Name')).toHaveValue('Lena Late')
	await expect(dialog.getByLabel('Email')).toHaveValue(email)
	await dialog.getByLabel('Phone Number (Optional)').fill('555-0199')
	await dialog.getByLabel('Message (Optional)').fill('Any evening works for me.')
	await dialog.getByRole('button', { name: 'Join Waitlist' }).click()

	await expect(page.getByText('Waitlist Joined')).toBeVisible()
	await expect(page.getByRole('dialog')).toBeHidden()
	await expect(page).toHaveURL(/\/register\/course$/)
	await expect(page.getByRole('heading', { name: 'Full Courses - Join Waitlist' })).toBeVisible()
	expect(await waitlistRows(db, email)).toEqual([
		{ program: course.title, message: `Waitlist request for: ${course.title}\nAny evening works for me.`, phone: '555-0199' },
	])
})

test('choosing a course that filled up meanwhile shows Course Full and the waitlist at once @js-only', async ({ page, db }) => {
	const course = await insertCourse(db, { capacity: 1, registration_fee: 0 })
	await startRegistration(page, `late-${randomUUID().slice(0, 12)}@example.com`)
	await expect(page.getByRole('radio', { name: new RegExp(course.title) })).toBeVisible()
	// The seat goes while the list is on screen (written straight to the database: no live update tells the page).
	await takeSeat(db, course.id)
	await page.getByRole('radio', { name: new RegExp(course.title) }).check()

	await expect(page.getByText('Course Full', { exact: true })).toBeVisible()
	await expect(page.getByRole('dialog', { name: 'Join Our Waitlist' })).toBeVisible()
	await expect(page.getByRole('alert').filter({ hasText: course.title })).toContainText(
		'This course is now full. Please join our waitlist to be notified when spots become available.',
	)
	await expect(page).toHaveURL(new RegExp(`/register/course\\?full=${course.id}&dialog=waitlist$`))
})

test('a full course page offers the waitlist and checks the form', async ({ page, db, javaScriptEnabled }) => {
	const course = await fullCourse(db)
	const email = `full-${randomUUID().slice(0, 12)}@example.com`

	const dialog = await openWaitlistDialog(page, course.id)
	await expect(dialog).toBeVisible()
	await dialog.getByLabel('Full Name').fill('W')
	await dialog.getByLabel('Email').fill('not-an-email')
	await dialog.getByRole('button', { name: 'Join Waitlist' }).click()

	// Without JavaScript the refused post shows the waitlist as a page of its own.
	const form = javaScriptEnabled ? dialog : page.getByRole('main')
	await expect(form.getByText('Name must be at least 2 characters.')).toBeVisible()
	await expect(form.getByText('Please enter a valid email address.')).toBeVisible()
	await form.getByLabel('Full Name').fill('Walter Waiting')
	await form.getByLabel('Email').fill(email)
	await form.getByRole('button', { name: 'Join Waitlist' }).click()
	await expect(page.getByText('Waitlist Joined')).toBeVisible()
	await expect(page).toHaveURL(new RegExp(`/courses/${course.id}$`))
	expect(await waitlistRows(db, email)).toEqual([
		{ program: course.title, message: `Waitlist request for: ${course.title}\n`, phone: null },
	])
})

test('a filled spam trap on the waitlist is refused visibly and keeps what was typed', async ({ page, db, javaScriptEnabled }) => {
	const course = await fullCourse(db)
	const email = `trap-${randomUUID().slice(0, 12)}@example.com`

	const dialog = await openWaitlistDialog(page, course.id)
	await dialog.getByLabel('Full Name').fill('Tara Trapped')
	await dialog.getByLabel('Email').fill(email)
	await dialog.locator('input[name="website"]').fill('https://example.com', { force: true })
	await dialog.getByRole('button', { name: 'Join Waitlist' }).click()

	const form = javaScriptEnabled ? dialog : page.getByRole('main')
	await expect(form.getByText('Your form was not sent: the field “Leave this field empty” must stay empty.')).toBeVisible()
	await expect(form.getByLabel('Full Name')).toHaveValue('Tara Trapped')
	await expect(form.getByLabel('Email')).toHaveValue(email)
	expect(await waitlistRows(db, email)).toEqual([])
})

test('a signed-in student who joins the waitlist lands on the dashboard', async ({ page, db, signInAs }) => {
	const course = await fullCourse(db)
	const student = await signInAs({ name: 'Wanda Waitlisted' })

	await page.goto(`/courses/${course.id}?dialog=waitlist`)
	const dialog = page.getByRole('dialog', { name: 'Join Our Waitlist' })
	await expect(dialog.getByLabel('Full Name')).toHaveValue('Wanda Waitlisted')
	await expect(dialog.getByLabel('Email')).toHaveValue(student.email)
	await dialog.getByRole('button', { name: 'Join Waitlist' }).click()
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText('Waitlist Joined')).toBeVisible()
	expect(await waitlistRows(db, student.email)).toEqual([
		{ program: course.title, message: `Waitlist request for: ${course.title}\n`, phone: null },
	])
})
