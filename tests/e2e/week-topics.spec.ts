/**
 * Weeks set up in one go (issue 39 point 3, docs/decisions/046), with JavaScript on and off: the
 * admin lays out every week's topic on one form (a refused row writes nothing and keeps what was
 * typed), the session list names each week's topic, and a course's meeting link reaches the
 * student's Join Class Session for a week without a link of its own.
 */
import { randomUUID } from 'node:crypto'
import { insertCourse, insertEnrollment, insertLiveSession, insertWeek } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'

test('an admin sets every week’s topic in one save; the session list names them', async ({ page, db, createUser, signIn }) => {
	const course = await insertCourse(db, { title: `Weeks ${randomUUID().slice(0, 6)}`, start_date: '2031-01-06', end_date: '2031-02-02' })
	await insertWeek(db, { courseId: course.id, weekNumber: 2, topic: 'Offers' })
	await insertLiveSession(db, { courseId: course.id, weekNumber: 1 })
	await insertLiveSession(db, { courseId: course.id, weekNumber: 2, startsAt: '2020-01-14T00:00:00Z', endsAt: '2020-01-14T01:00:00Z' })
	await signIn(await createUser({ role: 'admin' }))

	await page.goto(`/dashboard/admin/courses/${course.id}/materials`)
	const sessions = page.getByRole('listitem').filter({ hasText: 'Week 1' }).filter({ hasText: 'Edit week 1 session' })
	await expect(sessions.getByText('No topic yet')).toBeVisible()
	await page.getByRole('link', { name: 'Week Topics' }).click()
	const dialog = page.getByRole('dialog', { name: 'Week Topics' })
	await expect(dialog.getByRole('textbox')).toHaveCount(4)
	await expect(dialog.getByLabel('Week 2')).toHaveValue('Offers')

	// Emptying a saved week is refused beside its row; nothing is written and what was typed stays.
	await dialog.getByLabel('Week 1').fill('Finding deals')
	await dialog.getByLabel('Week 2').fill('')
	await dialog.getByLabel('Week 3').fill('Rehab')
	await dialog.getByRole('button', { name: 'Save Week Topics' }).click()
	await expect(dialog.getByText('Topic is required: this week is saved.', { exact: false })).toBeVisible()
	await expect(dialog.getByLabel('Week 2')).toHaveAttribute('aria-invalid', 'true')
	await expect(dialog.getByLabel('Week 1')).toHaveValue('Finding deals')
	await expect(dialog.getByLabel('Week 3')).toHaveValue('Rehab')
	const topics = () =>
		db.selectFrom('course_materials').select(['week_number', 'topic']).where('course_id', '=', course.id).orderBy('week_number').execute()
	expect(await topics()).toEqual([{ week_number: 2, topic: 'Offers' }])

	await dialog.getByLabel('Week 2').fill('Making offers')
	await dialog.getByRole('button', { name: 'Save Week Topics' }).click()
	await expect(page.getByText('Week topics saved: 2 weeks added, 1 topic changed.')).toBeVisible()
	await expect(dialog).toHaveCount(0)
	expect(await topics()).toEqual([
		{ week_number: 1, topic: 'Finding deals' },
		{ week_number: 2, topic: 'Making offers' },
		{ week_number: 3, topic: 'Rehab' },
	])
	const liveSessions = page.getByRole('heading', { name: 'Live Sessions' }).locator('xpath=ancestor::*[.//ul][1]')
	await expect(liveSessions.getByRole('listitem').nth(0)).toContainText('Finding deals')
	await expect(liveSessions.getByRole('listitem').nth(1)).toContainText('Making offers')
	await expect(page.getByRole('cell', { name: 'Rehab' })).toBeVisible()
})

test('a course’s meeting link opens every week without a link of its own', async ({ page, db, createUser, signIn }) => {
	const course = await insertCourse(db, { title: `Link ${randomUUID().slice(0, 6)}`, description: 'Weekly calls' })
	await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Finding deals' })
	await insertWeek(db, { courseId: course.id, weekNumber: 2, topic: 'Offers', zoomLink: 'https://zoom.us/j/2000' })
	await signIn(await createUser({ role: 'admin' }))
	await page.goto(`/dashboard/admin/courses/${course.id}/edit`)
	const dialog = page.getByRole('dialog', { name: 'Edit Course' })
	await dialog.getByLabel('Meeting Link').fill('http://zoom.us/j/1000')
	await dialog.getByRole('button', { name: 'Save Changes' }).click()
	await expect(dialog.getByText('Please enter a valid URL (starting with https://)')).toBeVisible()
	await dialog.getByLabel('Meeting Link').fill('https://zoom.us/j/1000')
	await dialog.getByRole('button', { name: 'Save Changes' }).click()
	await expect(page.getByText('Course updated successfully')).toBeVisible()

	const student = await createUser({ name: 'Linked Student' })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await signIn(student)
	await page.goto(`/dashboard?course=${course.id}`)
	const join = (week: string) => page.getByRole('region', { name: week }).getByRole('link', { name: 'Join Class Session' })
	await expect(join('Week 1: Finding deals')).toHaveAttribute('href', 'https://zoom.us/j/1000')
	await expect(join('Week 2: Offers')).toHaveAttribute('href', 'https://zoom.us/j/2000')
})
