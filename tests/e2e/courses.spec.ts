import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import { publishEvent } from '#app/services/events/publish.server.ts'
import type { Database } from '#db/types.ts'
import { insertCourse, insertEnrollment, insertUser } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'
import { agreeAndSubmit, enrollmentStatuses } from '../support/e2e-journeys.ts'

async function fillSeats(db: Kysely<Database>, courseId: number, count: number) {
	for (let i = 0; i < count; i++) {
		const userId = await insertUser(db)
		await insertEnrollment(db, { userId, courseId })
	}
}

/**
 * Opens the public course list once it shows what the test just wrote. The list is a shared page
 * the server keeps in memory; a write straight to the database drops that copy when the server
 * hears of it (NOTIFY), a moment after the commit. Until then a visitor still gets the copy another
 * test's visit stored (a request sent right after an insert got it in 15 of 60 tries on an idle
 * machine): look again, as a visitor reloading would.
 */
async function gotoCourseList(page: Page, showsChange: () => Promise<void>) {
	await expect(async () => {
		await page.goto('/courses')
		await showsChange()
	}).toPass({ timeout: 15_000 })
}

test('Our Programs lists a course with its price, start date and spots left', async ({ page, db }) => {
	const course = await insertCourse(db, { capacity: 3, registration_fee: 125000, start_date: '2031-03-10' })
	await fillSeats(db, course.id, 1)

	const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: course.title }) })
	await gotoCourseList(page, () => expect(card.getByText('2 spots left')).toBeVisible({ timeout: 1000 }))
	await expect(page).toHaveTitle(/Our Programs/)
	await expect(page.getByRole('heading', { level: 1, name: 'Our Programs' })).toBeVisible()
	await expect(card.getByText('$1,250.00')).toBeVisible()
	await expect(card.getByText('Mar 10, 2031')).toBeVisible()
	await expect(card.getByText('2 spots left')).toBeVisible()
	await expect(card.getByText('ALMOST FULL')).toBeVisible()

	await card.getByRole('link', { name: /View Details/ }).click()
	await expect(page).toHaveURL(new RegExp(`/courses/${course.id}$`))
	await expect(page.getByRole('heading', { level: 1, name: course.title })).toBeVisible()
})

test('a full free course shows FREE and FULL, and its detail page offers the waitlist', async ({ page, db }) => {
	const course = await insertCourse(db, { capacity: 1, registration_fee: 0 })
	await fillSeats(db, course.id, 1)

	const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: course.title }) })
	await gotoCourseList(page, () => expect(card.getByText('Course is full')).toBeVisible({ timeout: 1000 }))
	await expect(card.getByText('FREE')).toBeVisible()
	await expect(card.getByText('FULL', { exact: true })).toBeVisible()
	await expect(card.getByText('Course is full')).toBeVisible()

	await page.goto(`/courses/${course.id}`)
	await expect(page.getByRole('link', { name: 'Join Waitlist' })).toBeVisible()
})

/** Takes a seat the way the app does: the enrolment and its live event in one transaction. */
async function takeSeatAndTell(db: Kysely<Database>, courseId: number) {
	const userId = await insertUser(db)
	await db.transaction().execute(async (trx) => {
		await insertEnrollment(trx, { userId, courseId })
		await publishEvent(trx, { type: 'enrollment.changed', courseId })
	})
}

for (const viewer of ['visitor', 'student'] as const) {
	test(`a ${viewer}'s course list follows seats as they go, without a reload and keeping focus @js-only`, async ({
		page,
		db,
		createUser,
		signIn,
	}) => {
		if (viewer === 'student') await signIn(await createUser())
		const course = await insertCourse(db, { capacity: 2 })
		const card = page.locator(`#course-${course.id}`)
		await gotoCourseList(page, () => expect(card.getByText('2 spots left')).toBeVisible({ timeout: 1000 }))
		// A visitor gets the list without React (docs/decisions/039); a student the full app.
		if (viewer === 'visitor') await expect(page.locator('script[type="module"]')).toHaveCount(0)
		else await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
		const details = card.getByRole('link', { name: /View Details/ })
		await details.focus()
		await page.evaluate(() => {
			;(window as unknown as { notReloaded: boolean }).notReloaded = true
		})

		await takeSeatAndTell(db, course.id)
		await expect(card.getByText('1 spot left')).toBeVisible()
		await expect(card.getByText('ALMOST FULL')).toBeVisible()
		await expect(details).toBeFocused()

		await takeSeatAndTell(db, course.id)
		await expect(card.getByText('Course is full')).toBeVisible()
		await expect(card.getByRole('link', { name: `Join Waitlist for ${course.title}` })).toBeVisible()
		await expect(details).toBeFocused()
		expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
	})
}

test('the waitlist dialog opened from a visitor’s course list takes focus and closes on Escape @js-only', async ({ page, db }) => {
	const course = await insertCourse(db, { capacity: 1 })
	await fillSeats(db, course.id, 1)
	const card = page.locator(`#course-${course.id}`)
	await gotoCourseList(page, () => expect(card.getByText('Course is full')).toBeVisible({ timeout: 1000 }))

	await card.getByRole('link', { name: `Join Waitlist for ${course.title}` }).click()
	const dialog = page.getByRole('dialog', { name: 'Join Our Waitlist' })
	await expect(dialog.getByLabel('Full Name')).toBeFocused()
	await page.keyboard.press('Escape')
	await expect(dialog).toBeHidden()
	await expect(page).toHaveURL(/\/courses$/)
})

test('the course page shows its blocks and asks a visitor to sign in', async ({ page, db }) => {
	const course = await insertCourse(db, { capacity: 8, registration_fee: 250000, description: 'Learn to buy and rent.' })

	await page.goto(`/courses/${course.id}`)
	await expect(page.getByRole('heading', { level: 1, name: course.title })).toBeVisible()
	await expect(page.getByText('Learn to buy and rent.')).toBeVisible()
	await expect(page.getByRole('heading', { name: "What You'll Learn" })).toBeVisible()
	await expect(page.getByText('3 months')).toBeVisible()
	await expect(page.getByText('Maximum 8 participants')).toBeVisible()
	await expect(page.getByText('Online (Zoom)')).toBeVisible()
	await expect(page.getByText('8 spots left')).toBeVisible()
	await expect(page.getByText('$2,500.00')).toBeVisible()

	await page.getByRole('link', { name: 'Secure Your Spot Now' }).click()
	const dialog = page.getByRole('dialog', { name: 'Authentication Required' })
	await expect(dialog).toBeVisible()
	await expect(dialog.getByText('Please register or log in to secure your spot')).toBeVisible()
	await expect(dialog.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register')
	await expect(dialog.getByRole('link', { name: 'Log in' })).toHaveAttribute(
		'href',
		`/login?redirectTo=${encodeURIComponent(`/courses/${course.id}`)}`,
	)
	await dialog.getByRole('link', { name: 'Close' }).click()
	await expect(dialog).toBeHidden()
})

test('a signed-in student enrols in a free course from the purchase dialog', async ({ page, db, createUser, signIn }) => {
	const course = await insertCourse(db)
	const student = await createUser()
	await signIn(student)
	await page.goto(`/courses/${course.id}`)
	await page.getByRole('link', { name: 'Secure Your Spot Now' }).click()
	await expect(page).toHaveURL(new RegExp(`/courses/${course.id}\\?dialog=purchase$`))
	const dialog = page.getByRole('dialog', { name: 'Secure Your Spot' })
	await expect(dialog.getByRole('checkbox', { name: /I have read and agree/ })).toBeVisible()
	await expect(dialog.getByRole('region', { name: 'Agreement terms' })).toBeVisible()
	await dialog.getByRole('link', { name: 'Cancel' }).click()
	await expect(page).toHaveURL(new RegExp(`/courses/${course.id}$`))
	await expect(page.getByRole('dialog')).toHaveCount(0)

	await page.getByRole('link', { name: 'Secure Your Spot Now' }).click()
	await agreeAndSubmit(dialog, 'Register Now')
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText('Enrollment Successful')).toBeVisible()
	expect(await enrollmentStatuses(db, student.id, course.id)).toEqual([{ status: 'active' }])
})

test('an unknown or invalid course id answers 404 with a way back', async ({ page }) => {
	for (const id of ['abc', '2000000000']) {
		const response = await page.goto(`/courses/${id}`)
		expect(response?.status()).toBe(404)
		await expect(page.getByRole('heading', { name: 'Course Not Found' })).toBeVisible()
	}
	await page.getByRole('link', { name: 'View all programs' }).click()
	await expect(page).toHaveURL(/\/courses$/)
})
