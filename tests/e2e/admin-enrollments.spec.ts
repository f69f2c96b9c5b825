import { randomUUID } from 'node:crypto'
import { insertCourse, insertEnrollment } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e-journeys.ts'

test('an admin adds an enrollment, changes its status and removes it', async ({ page, db, signInAs, createUser, javaScriptEnabled }) => {
	test.slow()
	await signInAs({ role: 'admin' })
	const student = await createUser({ name: `Enrolee ${randomUUID().slice(0, 8)}` })
	const course = await insertCourse(db, { capacity: 3 })

	await page.goto('/dashboard/admin/enrollments')
	await expect(page.getByRole('heading', { level: 1, name: 'Manage Enrollments' })).toBeVisible()
	await page.getByRole('link', { name: 'Add Enrollment' }).click()
	const dialog = page.getByRole('dialog', { name: 'Add Enrollment' })
	await expect(dialog).toBeVisible()
	await dialog.getByRole('button', { name: 'Enroll' }).click()
	await expect(page.getByRole('dialog', { name: 'Add Enrollment' }).getByText('Select both a user and a course.')).toBeVisible()

	await page.getByRole('dialog', { name: 'Add Enrollment' }).getByLabel('User').selectOption(student.id)
	await page.getByRole('dialog', { name: 'Add Enrollment' }).getByLabel('Course').selectOption(String(course.id))
	await page.getByRole('dialog', { name: 'Add Enrollment' }).getByRole('button', { name: 'Enroll' }).click()
	await expect(page.getByText('Enrollment created!')).toBeVisible()
	await expect(page.getByRole('dialog')).toHaveCount(0)

	await page.getByLabel('Search enrollments').fill(student.name)
	await page.getByRole('button', { name: 'Search' }).click()
	// The row is on the unfiltered list too: wait for the search itself, or the next post would cancel it.
	await expect(page).toHaveURL(/\?q=Enrolee/)
	const row = page.getByRole('row').filter({ hasText: student.name })
	await expect(row).toHaveCount(1)
	await expect(row.getByRole('cell', { name: course.title, exact: true })).toBeVisible()
	const statusSelect = row.getByLabel(`Status of ${student.name} in ${course.title}`)
	await expect(statusSelect).toHaveValue('active')
	await expect(row.locator('span', { hasText: /^active$/ })).toHaveClass(/bg-green-100/)

	await statusSelect.selectOption('completed')
	if (!javaScriptEnabled) await row.getByRole('button', { name: 'Update' }).click()
	await expect(page.getByText('Enrollment status updated successfully')).toBeVisible()
	const updatedRow = page.getByRole('row').filter({ hasText: student.name })
	await expect(updatedRow.locator('span', { hasText: /^completed$/ })).toHaveClass(/bg-blue-100/)
	await expect(updatedRow.getByLabel(`Status of ${student.name} in ${course.title}`)).toHaveValue('completed')
	await expect
		.poll(async () => (await db.selectFrom('enrollments').select('status').where('user_id', '=', student.id).executeTakeFirst())?.status)
		.toBe('completed')

	await page
		.getByRole('row')
		.filter({ hasText: student.name })
		.getByRole('link', { name: /^Remove/ })
		.click()
	const confirm = page.getByRole('dialog', { name: 'Remove Enrollment' })
	await expect(confirm.getByText(`Remove ${student.name} from ${course.title}?`)).toBeVisible()
	await confirm.getByRole('button', { name: 'Remove' }).click()
	await expect(page.getByText('Enrollment removed successfully')).toBeVisible()
	await expect(page.getByText('No matching enrollments found')).toBeVisible()
	expect(await db.selectFrom('enrollments').select('id').where('user_id', '=', student.id).execute()).toEqual([])
})

test('a full course is marked and disabled in the picker, and a seat taken meanwhile is refused with the spec message', async ({
	page,
	db,
	signInAs,
	createUser,
}) => {
	test.slow()
	await signInAs({ role: 'admin' })
	const student = await createUser({ name: `Late ${randomUUID().slice(0, 8)}` })
	const course = await insertCourse(db, { capacity: 1 })
	// This test is about the server's check. With live updates the page would learn of the
	// seat taken below and disable the option before the click, so its stream carries none
	// and is not retried while the test runs.
	// (A signed-in page asks for `/events?since=…`, so the match is on the path, not the whole address.)
	await page.route(
		(url) => url.pathname === '/events',
		(route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 600000\n\n' }),
	)

	await page.goto('/dashboard/admin/enrollments?dialog=add')
	const dialog = page.getByRole('dialog', { name: 'Add Enrollment' })
	await dialog.getByLabel('User').selectOption(student.id)
	await dialog.getByLabel('Course').selectOption(String(course.id))

	// Someone takes the last seat while the dialog is open.
	const other = await createUser()
	await db.insertInto('enrollments').values({ user_id: other.id, course_id: course.id, enrollment_date: new Date() }).execute()
	await dialog.getByRole('button', { name: 'Enroll' }).click()
	const refreshed = page.getByRole('dialog', { name: 'Add Enrollment' })
	await expect(refreshed.getByText('Cannot enroll: Course has reached maximum capacity.')).toBeVisible()
	const option = refreshed.getByRole('option', { name: `${course.title} (FULL - 1/1)` })
	await expect(option).toBeDisabled()
	expect(await db.selectFrom('enrollments').select('id').where('user_id', '=', student.id).execute()).toEqual([])
})

test('a payment needing a refund is flagged, and an empty search says so', async ({ page, db, signInAs }) => {
	await signInAs({ role: 'admin' })
	const payer = `refund-${randomUUID().slice(0, 8)}@example.com`
	await db
		.insertInto('registration_payments')
		.values({
			checkout_session_id: `cs_${randomUUID()}`,
			provider: 'test',
			course_title: 'A full cohort',
			customer_email: payer,
			amount_cents: 250000,
			status: 'needs_refund',
		})
		.execute()
	await page.goto('/dashboard/admin/enrollments')
	await expect(page.getByRole('heading', { name: 'Payments needing a refund' })).toBeVisible()
	await expect(page.getByText(payer)).toBeVisible()

	await page.getByLabel('Search enrollments').fill(`nobody-${randomUUID()}`)
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page.getByText('No matching enrollments found')).toBeVisible()
})

test('a status change that ends access asks first; Cancel changes nothing (issue 39 point 8)', async ({
	page,
	db,
	signInAs,
	createUser,
	javaScriptEnabled,
}) => {
	await signInAs({ role: 'admin' })
	const student = await createUser({ name: `Careful ${randomUUID().slice(0, 8)}` })
	const course = await insertCourse(db, { capacity: 3 })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	const statusOf = async () =>
		(await db.selectFrom('enrollments').select('status').where('user_id', '=', student.id).executeTakeFirst())?.status

	await page.goto(`/dashboard/admin/enrollments?q=${encodeURIComponent(student.name)}`)
	const select = () => page.getByRole('row').filter({ hasText: student.name }).getByLabel(`Status of ${student.name} in ${course.title}`)
	const choose = async (status: string) => {
		await select().selectOption(status)
		if (!javaScriptEnabled) await page.getByRole('row').filter({ hasText: student.name }).getByRole('button', { name: 'Update' }).click()
	}

	await choose('inactive')
	const dialog = page.getByRole('dialog', { name: 'Change Enrollment Status' })
	await expect(dialog).toContainText(`Set ${student.name}'s enrollment in ${course.title} from active to inactive?`)
	await expect(dialog).toContainText('They lose access to the course, and their seat is offered to the waitlist')
	await expect(select()).toHaveValue('active')
	await dialog.getByRole('link', { name: 'Cancel' }).click()
	await expect(dialog).toBeHidden()
	expect(await statusOf()).toBe('active')

	await choose('inactive')
	await page.getByRole('dialog', { name: 'Change Enrollment Status' }).getByRole('button', { name: 'Set to inactive' }).click()
	await expect(page.getByText('Enrollment status updated successfully')).toBeVisible()
	await expect(select()).toHaveValue('inactive')
	await expect.poll(statusOf).toBe('inactive')
})
