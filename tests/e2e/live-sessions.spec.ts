/**
 * Live sessions end to end, with JavaScript on and off (docs/decisions/031): an admin gives a course
 * a weekly schedule and moves and cancels one session; a student sees times in their zone, a week
 * that is not open yet (its assignment listed with the opening, unlinked), the Next live session
 * card, and sets their zone and calendar feed.
 */
import { randomUUID } from 'node:crypto'
import { syncCourseSessions } from '#app/models/sessions/session-schedule.server.ts'
import { insertCourse, insertEnrollment, insertMaterialItem, insertWeek } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e-journeys.ts'

test.use({ timezoneId: 'Europe/Berlin' })

test('an admin sets a weekly schedule, then moves and cancels one session', async ({ page, db, signInAs }) => {
	await signInAs({ role: 'admin', name: 'Ada Admin' })
	const course = await insertCourse(db, {
		title: `Schedule ${randomUUID().slice(0, 6)}`,
		description: 'Weekly classes',
		start_date: '2031-01-10',
		end_date: '2031-02-06',
	})

	await page.goto(`/dashboard/admin/courses/${course.id}/edit`)
	const dialog = page.getByRole('dialog', { name: 'Edit Course' })
	await dialog.getByLabel('Time Zone').selectOption('America/New_York')
	await dialog.getByLabel('Weekly Session Day').selectOption({ label: 'Tuesday' })
	await dialog.getByLabel('Session Start Time').fill('19:00')
	await dialog.getByLabel('Session Length (minutes)').fill('90')
	await dialog.getByRole('button', { name: 'Save Changes' }).click()
	await expect(page.getByText('Course updated successfully')).toBeVisible()

	await page.goto(`/dashboard/admin/courses/${course.id}/materials`)
	await expect(page.getByText('Tuesdays 7 pm ET, 4 sessions from 14 Jan')).toBeVisible()
	await expect(page.getByText('Tue 14 Jan, 7:00–8:30 pm EST')).toBeVisible()

	await page.getByRole('link', { name: 'Edit week 1 session' }).click()
	const editor = page.getByRole('dialog', { name: 'Week 1 Live Session' })
	await editor.getByLabel('Date').fill('2031-01-16')
	await editor.getByLabel('Note to students (optional)').first().fill('Thursday this week')
	await editor.getByRole('button', { name: 'Save and notify students' }).click()
	await expect(page.getByText('Session saved; students were emailed the new time')).toBeVisible()
	await expect(page.getByText('Thu 16 Jan, 7:00–8:30 pm EST')).toBeVisible()

	await page.getByRole('link', { name: 'Edit week 2 session' }).click()
	const second = page.getByRole('dialog', { name: 'Week 2 Live Session' })
	await second.getByRole('button', { name: 'Cancel Session' }).click()
	// Unconfirmed: refused (by the browser's required check, or by the server without it), nothing changed.
	await expect(second).toBeVisible()
	await second.getByLabel(/Yes, cancel the week 2 session/).check()
	await second.getByRole('button', { name: 'Cancel Session' }).click()
	await expect(page.getByText('Session cancelled; students were emailed')).toBeVisible()
	await expect(page.getByText('Cancelled', { exact: true })).toBeVisible()
	const stored = await db
		.selectFrom('live_sessions')
		.select(['week_number', 'status', 'sequence'])
		.where('course_id', '=', course.id)
		.orderBy('week_number')
		.execute()
	expect(stored.slice(0, 2)).toEqual([
		{ week_number: 1, status: 'scheduled', sequence: 1 },
		{ week_number: 2, status: 'cancelled', sequence: 1 },
	])
})

test('a student sees session times, a locked week and the next session, and sets their zone and calendar', async ({
	page,
	db,
	signInAs,
	javaScriptEnabled,
}) => {
	const student = await signInAs({ name: 'Sam Student' })
	const course = await insertCourse(db, {
		title: `Cohort ${randomUUID().slice(0, 6)}`,
		time_zone: 'America/New_York',
		weeks_open_days_before: 3,
	})
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	const open = await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Finding Deals', zoomLink: 'https://zoom.us/j/1' })
	const locked = await insertWeek(db, { courseId: course.id, weekNumber: 2, topic: 'Refinancing', zoomLink: 'https://zoom.us/j/2' })
	await insertMaterialItem(db, { courseId: course.id, weekId: open, title: 'Deal Checklist', fileName: 'deals.pdf' })
	await insertMaterialItem(db, { courseId: course.id, weekId: locked, title: 'Refinance Guide', fileName: 'refi.pdf' })
	await db
		.insertInto('assignments')
		.values([
			{ course_id: course.id, week_id: open, title: 'Deal Memo' },
			{ course_id: course.id, week_id: locked, title: 'Refinance Memo' },
		])
		.execute()
	const soon = new Date(Date.now() + 2 * 86_400_000)
	const later = new Date(Date.now() + 9 * 86_400_000)
	await db
		.insertInto('live_sessions')
		.values([
			{
				course_id: course.id,
				week_number: 1,
				starts_at: soon,
				ends_at: new Date(soon.getTime() + 3_600_000),
				time_zone: 'America/New_York',
			},
			{
				course_id: course.id,
				week_number: 2,
				starts_at: later,
				ends_at: new Date(later.getTime() + 3_600_000),
				time_zone: 'America/New_York',
			},
		])
		.execute()

	await page.goto(`/dashboard?course=${course.id}`)
	await expect(page.getByRole('heading', { name: 'Next Live Session' })).toBeVisible()
	await expect(page.getByText('The join link appears here 15 minutes before the start.')).toBeVisible()
	const week1 = page.getByRole('region', { name: 'Week 1: Finding Deals' })
	await expect(week1.getByText(/^Live session: [A-Z][a-z]{2} \d+ [A-Z][a-z]{2}, .+ E[SD]T$/)).toBeVisible()
	await expect(week1.getByRole('link', { name: /Deal Checklist/ })).toBeVisible()
	const week2 = page.getByRole('region', { name: 'Week 2: Refinancing' })
	await expect(week2.getByText(/^Opens [A-Z][a-z]{2} \d+ [A-Z][a-z]{2}$/)).toBeVisible()
	await expect(week2.getByText('Refinance Guide')).toHaveCount(0)
	// The locked week's assignment is listed with its opening, the week card's words, and no link to a page it would be refused.
	const opening = await week2.getByText(/^Opens /).textContent()
	await expect(page.getByRole('link', { name: 'Deal Memo' })).toBeVisible()
	const lockedAssignment = page.getByRole('listitem').filter({ hasText: 'Refinance Memo' })
	await expect(lockedAssignment.getByText(opening!, { exact: true })).toBeVisible()
	await expect(lockedAssignment.getByRole('link')).toHaveCount(0)
	await expect(page.getByRole('link', { name: 'Refinance Memo' })).toHaveCount(0)

	await page.goto('/dashboard/settings')
	const zone = page.getByLabel('Your time zone')
	// With JavaScript the browser's zone is offered; without it, the course's own until chosen.
	await expect(zone).toHaveValue(javaScriptEnabled ? 'Europe/Berlin' : '')
	await zone.selectOption('Europe/London')
	await page.getByRole('button', { name: 'Save Time Zone' }).click()
	await expect(page.getByText('Time zone saved')).toBeVisible()
	await expect(page.getByLabel('Your time zone')).toHaveValue('Europe/London')

	const address = page.getByLabel('Your calendar address')
	const first = await address.inputValue()
	expect(first).toMatch(/\/calendar\/[0-9a-f]{64}\.ics$/)
	await expect(page.getByRole('link', { name: 'Subscribe in your calendar app' })).toHaveAttribute(
		'href',
		first.replace(/^https?:/, 'webcal:'),
	)
	const feed = await page.request.get(new URL(first).pathname)
	expect(feed.status()).toBe(200)
	expect(await feed.text()).toContain('BEGIN:VEVENT')
	await page.getByLabel(/Yes, stop the current address/).check()
	await page.getByRole('button', { name: 'Reset Calendar Address' }).click()
	await expect(page.getByText('New calendar address made')).toBeVisible()
	await expect(page.getByLabel('Your calendar address')).not.toHaveValue(first)
	expect((await page.request.get(new URL(first).pathname)).status()).toBe(404)

	await page.goto(`/dashboard?course=${course.id}`)
	await expect(week1.getByText(/^Live session: .+ (GMT|BST)$/)).toBeVisible()
})

test('the schedule shows on the course page and in the wizard', async ({ page, db }) => {
	const course = await insertCourse(db, {
		title: `Public ${randomUUID().slice(0, 6)}`,
		start_date: '2031-01-10',
		end_date: '2031-03-06',
		time_zone: 'America/New_York',
		schedule_weekday: 2,
		schedule_start_time: '19:00',
		schedule_minutes: 60,
	})
	await syncCourseSessions(db, course.id)
	await page.goto(`/courses/${course.id}`)
	await expect(page.getByText('Tuesdays 7 pm ET, 8 sessions from 14 Jan')).toBeVisible()
})
