import { randomUUID } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { insertCourse, insertEnrollment, insertLiveSession, insertMaterialItem, insertWeek } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e-journeys.ts'

async function chooseCourse(page: Page, title: string, javaScriptEnabled: boolean) {
	await page.getByLabel('Select a course').selectOption({ label: title })
	// With JavaScript the change submits the form; without it the Show button does.
	if (!javaScriptEnabled) await page.getByRole('button', { name: 'Show' }).click()
}

function weekSection(page: Page, name: string) {
	return page.getByRole('region', { name })
}

/** Weeks 1 to `count` of the course, week n on 'Topic n' with no call link, holding the material 'Handout n'. */
async function insertWeeksWithHandouts(db: Kysely<Database>, courseId: number, count: number) {
	for (let week = 1; week <= count; week++) {
		const weekId = await insertWeek(db, { courseId, weekNumber: week, topic: `Topic ${week}`, zoomLink: null })
		await insertMaterialItem(db, { courseId, weekId, title: `Handout ${week}`, fileName: `handout-${week}.pdf`, sizeBytes: 2048 })
	}
}

test('a student chooses a course, which is remembered, and switches week tabs', async ({ page, db, signInAs, javaScriptEnabled }) => {
	const student = await signInAs({ name: 'Riley Renter' })
	const older = await insertCourse(db)
	const newer = await insertCourse(db)
	await insertEnrollment(db, { userId: student.id, courseId: older.id, status: 'active', daysAgo: 20 })
	await insertEnrollment(db, { userId: student.id, courseId: newer.id, status: 'active', daysAgo: 1 })
	const first = await insertWeek(db, { courseId: newer.id, weekNumber: 1, topic: 'Finding Deals', zoomLink: 'https://zoom.us/j/111222333' })
	const second = await insertWeek(db, { courseId: newer.id, weekNumber: 2, topic: 'Rehab Budgets', zoomLink: null })
	await insertMaterialItem(db, {
		courseId: newer.id,
		weekId: second,
		title: 'Rehab Budget Guide',
		fileName: 'rehab-budget.pdf',
		category: 'material',
		sizeBytes: 2048,
	})
	await insertMaterialItem(db, {
		courseId: newer.id,
		weekId: second,
		title: 'Week 2 Recording',
		fileName: 'week-2.mp4',
		category: 'recording',
		sizeBytes: 2048,
	})
	await insertMaterialItem(db, {
		courseId: newer.id,
		weekId: first,
		title: 'Week 1 Recording',
		fileName: 'week-1.mp4',
		category: 'recording',
		sizeBytes: 2048,
	})

	await page.goto('/dashboard')
	await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Riley Renter!' })).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Course Materials' })).toBeVisible()
	// The most recent active enrollment is the default.
	await expect(page.getByLabel('Select a course')).toHaveValue(String(newer.id))

	const weekHeadings = page.getByRole('heading', { level: 3, name: /^Week \d+:/ })
	await expect(weekHeadings).toHaveText(['Week 2: Rehab Budgets', 'Week 1: Finding Deals'])
	const weekTwo = weekSection(page, 'Week 2: Rehab Budgets')
	const weekOne = weekSection(page, 'Week 1: Finding Deals')
	await expect(weekTwo.getByText('No Zoom link available for this week')).toBeVisible()
	const join = weekOne.getByRole('link', { name: 'Join Class Session' })
	await expect(join).toHaveAttribute('href', 'https://zoom.us/j/111222333')
	await expect(join).toHaveAttribute('target', '_blank')
	await expect(join).toHaveAttribute('rel', /noopener/)

	await expect(weekTwo.getByRole('link', { name: /Rehab Budget Guide/ })).toBeVisible()
	await expect(weekOne.getByText('No class materials available for this week.')).toBeVisible()

	await weekTwo.getByRole('link', { name: 'Class Recordings' }).click()
	await expect(page).toHaveURL(new RegExp(`week${second}=recordings`))
	await expect(weekTwo.getByRole('link', { name: /Week 2 Recording/ })).toBeVisible()
	await expect(weekTwo.getByRole('link', { name: 'Class Recordings' })).toHaveAttribute('aria-current', 'page')
	// The other week keeps its own tab.
	await expect(weekOne.getByText('No class materials available for this week.')).toBeVisible()
	await weekOne.getByRole('link', { name: 'Class Recordings' }).click()
	await expect(weekOne.getByRole('link', { name: /Week 1 Recording/ })).toBeVisible()
	await expect(weekTwo.getByRole('link', { name: /Week 2 Recording/ })).toBeVisible()
	await weekTwo.getByRole('link', { name: 'Class Materials' }).click()
	await expect(weekTwo.getByRole('link', { name: /Rehab Budget Guide/ })).toBeVisible()

	await chooseCourse(page, older.title, javaScriptEnabled)
	await expect(page).toHaveURL(new RegExp(`course=${older.id}`))
	await expect(page.getByText('No materials available yet.')).toBeVisible()

	// The choice is remembered.
	await page.goto('/dashboard')
	await expect(page.getByLabel('Select a course')).toHaveValue(String(older.id))
	await page.getByRole('link', { name: 'Refresh Materials' }).click()
	await expect(page.getByText('No materials available yet.')).toBeVisible()

	await expect(page.getByText('Have questions? Message your instructor directly.')).toBeVisible()
	await expect(page.getByRole('link', { name: 'Open Messages' })).toHaveAttribute('href', '/dashboard/messages')
})

test('a long course lists its 8 most recent weeks first and all of them on request', async ({ page, db, signInAs }) => {
	const student = await signInAs({ name: 'Lena Longcourse' })
	const course = await insertCourse(db)
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await insertWeeksWithHandouts(db, course.id, 10)

	await page.goto('/dashboard')
	const weekHeadings = page.getByRole('heading', { level: 3, name: /^Week \d+:/ })
	await expect(weekHeadings).toHaveText(Array.from({ length: 8 }, (_, index) => `Week ${10 - index}: Topic ${10 - index}`))
	await expect(page.getByText('Showing the 8 most recent of 10 weeks.')).toBeVisible()

	await page.getByRole('link', { name: 'Show all 10 weeks' }).click()
	await expect(page).toHaveURL(/weeks=all/)
	await expect(weekHeadings).toHaveCount(10)
	await expect(weekSection(page, 'Week 1: Topic 1').getByRole('link', { name: /Handout 1/ })).toBeVisible()
	// A tab switch keeps every week listed.
	await weekSection(page, 'Week 1: Topic 1').getByRole('link', { name: 'Class Recordings' }).click()
	await expect(weekSection(page, 'Week 1: Topic 1').getByText('No recordings available for this week.')).toBeVisible()
	await expect(weekHeadings).toHaveCount(10)

	await page.getByRole('link', { name: 'Show the 8 most recent weeks' }).click()
	await expect(weekHeadings).toHaveCount(8)
	await expect(page.getByText('Showing the 8 most recent of 10 weeks.')).toBeVisible()
})

test('a student without an active enrollment is invited to browse courses', async ({ page, db, signInAs }) => {
	const student = await signInAs({ name: 'Nora Newcomer' })
	const course = await insertCourse(db)
	await insertEnrollment(db, { userId: student.id, courseId: course.id, status: 'pending' })

	await page.goto('/dashboard')
	await expect(page.getByRole('heading', { name: 'You have not yet enrolled' })).toBeVisible()
	await expect(page.getByText('Hold tight! Browse our available courses to get started.')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Course Materials' })).toHaveCount(0)
	await page.getByRole('link', { name: 'Browse Courses' }).click()
	await expect(page).toHaveURL(/\/courses$/)
})

test('an admin sees the management cards and may pick any course', async ({ page, db, signInAs, javaScriptEnabled }) => {
	await signInAs({ name: 'Ada Admin', role: 'admin' })
	const course = await insertCourse(db)
	await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Admin Week', zoomLink: null })

	await page.goto('/dashboard')
	await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada Admin! (Administrator)' })).toBeVisible()
	for (const card of ['Manage Courses', 'Upload Materials', 'Manage Enrollments', 'Manage Users', 'Send Messages']) {
		await expect(page.getByRole('main').getByRole('heading', { name: card })).toBeVisible()
	}
	await expect(page.getByText('Please select a course to view materials.')).toBeVisible()
	await chooseCourse(page, course.title, javaScriptEnabled)
	await expect(page.getByRole('heading', { name: 'Week 1: Admin Week' })).toBeVisible()
})

test('My Courses lists enrollments with their status and links to their materials', async ({ page, db, signInAs }) => {
	const student = await signInAs()
	const active = await insertCourse(db)
	const pending = await insertCourse(db)
	await insertEnrollment(db, { userId: student.id, courseId: active.id, status: 'active', daysAgo: 3 })
	await insertEnrollment(db, { userId: student.id, courseId: pending.id, status: 'pending', daysAgo: 1 })

	await page.goto('/dashboard/courses')
	await expect(page.getByRole('heading', { level: 1, name: 'My Courses' })).toBeVisible()
	const activeCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: active.title }) })
	const pendingCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: pending.title }) })
	await expect(activeCard.getByText('active', { exact: true })).toHaveClass(/bg-green-100/)
	await expect(pendingCard.getByText('pending', { exact: true })).toHaveClass(/bg-yellow-100/)
	await activeCard.getByRole('link', { name: 'View Materials' }).click()
	await expect(page).toHaveURL(new RegExp(`/dashboard\\?course=${active.id}$`))
	await expect(page.getByLabel('Select a course')).toHaveValue(String(active.id))
})

test.describe('in a time zone a day ahead of the server', () => {
	// UTC+14: noon UTC is already the next day here.
	test.use({ timezoneId: 'Pacific/Kiritimati' })

	test("My Courses shows the enrollment date in the reader's time zone", async ({ page, db, signInAs, javaScriptEnabled }) => {
		const student = await signInAs()
		const course = await insertCourse(db)
		await db
			.insertInto('enrollments')
			.values({ user_id: student.id, course_id: course.id, status: 'active', enrollment_date: new Date('2026-03-10T12:00:00Z') })
			.execute()

		await page.goto('/dashboard/courses')
		const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: course.title }) })
		// The server cannot know the reader's zone, so it says which one it used; the browser then shows its own
		// (and hydrating over the server's text raises no mismatch: the page fixture fails on console errors).
		await expect(card.getByText(/^Enrolled on /)).toHaveText(
			javaScriptEnabled ? 'Enrolled on Mar 11, 2026' : 'Enrolled on Mar 10, 2026 (UTC)',
		)
	})
})

test('My Courses shows waitlist requests, or else invites to browse programs', async ({ page, db, signInAs }) => {
	const waiting = await signInAs()
	await db
		.insertInto('contact_submissions')
		.values({
			kind: 'waitlist',
			name: waiting.name,
			email: waiting.email,
			program: `Cohort ${randomUUID().slice(0, 6)}`,
			message: 'Waitlist request for: the next cohort\nI would love a spot.',
		})
		.execute()
	await page.goto('/dashboard/courses')
	await expect(page.getByRole('heading', { name: 'Your Waitlist Requests' })).toBeVisible()
	await expect(page.getByText('I would love a spot.')).toBeVisible()

	await signInAs()
	await page.goto('/dashboard/courses')
	await expect(page.getByRole('link', { name: 'Browse Available Programs' })).toHaveAttribute('href', '/courses')
})

test('without a course the dashboard community says so and links the investor community (docs/decisions/060)', async ({
	page,
	signInAs,
}) => {
	await signInAs()
	const response = await page.goto('/dashboard/community')
	expect(response?.status()).toBe(200)
	await expect(page.getByRole('heading', { level: 1, name: 'Community' })).toBeVisible()
	await expect(page.getByText('No community yet')).toBeVisible()
	await expect(page.getByRole('link', { name: 'Visit the Investor Community' })).toHaveAttribute('href', '/community')
})

test('one dashboard menu: the sidebar on a wide screen, opened by its button on a phone', async ({ page, signInAs }) => {
	await signInAs({ role: 'admin' })
	await page.goto('/dashboard')
	const menu = page.getByRole('navigation', { name: 'Dashboard' })
	await expect(menu.getByRole('link', { name: 'Manage Courses' })).toBeVisible()
	await expect(page.getByLabel('Dashboard menu')).toBeHidden()

	await page.setViewportSize({ width: 390, height: 844 })
	await expect(menu).toBeHidden()
	// The button comes first after the skip link, before the logo, as it stands on screen.
	await page.keyboard.press('Tab')
	await page.keyboard.press('Tab')
	await expect(page.getByLabel('Dashboard menu')).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(menu.getByRole('link', { name: 'My Courses' })).toBeVisible()
	await menu.getByRole('link', { name: 'Manage Courses' }).click()
	await expect(page).toHaveURL(/\/dashboard\/admin\/courses$/)
	await expect(page.getByRole('heading', { level: 1, name: 'Manage Courses' })).toBeVisible()
	// A new page comes with the menu closed.
	await expect(menu).toBeHidden()
})

test('a signed-out visitor is sent to log in', async ({ page }) => {
	await page.goto('/dashboard/courses')
	await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard%2Fcourses$/)
	await page.goto('/dashboard')
	await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/)
	await expect(page.getByText('Please login to access the dashboard')).toBeVisible()
})

test('on a phone the current week leads: open weeks newest first, then one line for each week not open yet', async ({
	page,
	db,
	signInAs,
}) => {
	const student = await signInAs({ name: 'Casey Cohort' })
	const course = await insertCourse(db, { time_zone: 'America/New_York', weeks_open_days_before: 7 })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await insertWeeksWithHandouts(db, course.id, 8)
	const DAY = 86_400_000
	for (let week = 1; week <= 8; week++) {
		// Weekly sessions with week 3 two days ahead: weeks 1 to 3 are open.
		const startsAt = new Date(Date.now() + (week - 3) * 7 * DAY + 2 * DAY)
		await insertLiveSession(db, { courseId: course.id, weekNumber: week, startsAt, endsAt: new Date(startsAt.getTime() + 3_600_000) })
	}
	await page.setViewportSize({ width: 390, height: 844 })

	await page.goto('/dashboard')
	const weekHeadings = page.getByRole('heading', { level: 3, name: /^Week \d+:/ })
	await expect(weekHeadings).toHaveText([3, 2, 1, 4, 5, 6, 7, 8].map((week) => `Week ${week}: Topic ${week}`))
	await expect(weekSection(page, 'Week 3: Topic 3').getByRole('link', { name: /Handout 3/ })).toBeVisible()
	const locked = weekSection(page, 'Week 4: Topic 4')
	await expect(locked.getByText(/^Opens [A-Z][a-z]{2} \d+ [A-Z][a-z]{2}$/)).toBeVisible()
	await expect(locked.getByRole('link')).toHaveCount(0)
	// One line each: no taller than a line of text and its padding.
	for (const week of [4, 5, 6, 7, 8]) {
		const box = await weekSection(page, `Week ${week}: Topic ${week}`).boundingBox()
		expect(box?.height ?? 0).toBeLessThan(80)
	}
})

test('a student’s first visit to the dashboard loads at most 130 KB of scripts, gzipped (issue 30’s budget) @js-only', async ({
	page,
	db,
	signInAs,
}) => {
	const student = await signInAs()
	const course = await insertCourse(db)
	await insertEnrollment(db, { userId: student.id, courseId: course.id, status: 'active' })
	await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Finding Deals', zoomLink: 'https://zoom.us/j/111222333' })
	// The bench's count (scripts/bench/first-visit-js.ts): every script file the page makes the browser load, each gzipped.
	const scripts = new Map<string, Promise<Buffer>>()
	page.on('response', (response) => {
		const { pathname } = new URL(response.url())
		if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.set(pathname, response.body())
	})
	await page.goto('/dashboard')
	await expect(page.getByRole('heading', { name: 'Week 1: Finding Deals' })).toBeVisible()
	await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1)
	let gzipBytes = 0
	for (const body of scripts.values()) gzipBytes += gzipSync(await body).length
	expect(scripts.size).toBeGreaterThan(0)
	expect(gzipBytes).toBeLessThanOrEqual(130 * 1024)
})
