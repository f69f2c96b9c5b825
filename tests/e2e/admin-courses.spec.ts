import { randomUUID } from 'node:crypto'
import { findAdminCourseCard } from '#tests/support/admin-course-grid.ts'
import { insertCourse, insertEnrollment, insertWeek, storeMaterialItem } from '#tests/support/fixtures.ts'
import { e2eServerStorage } from '../support/e2e-env.ts'
import { expect, test } from '../support/e2e-journeys.ts'

const serverStorage = e2eServerStorage()

test('an admin adds, edits and deletes a course; its enrollments and stored files go with it', async ({
	page,
	db,
	signInAs,
	createUser,
}) => {
	test.slow()
	await signInAs({ role: 'admin', name: 'Course Admin' })
	const title = `E2E Managed ${randomUUID().slice(0, 8)}`

	await page.goto('/dashboard/admin/courses')
	await expect(page.getByRole('heading', { level: 1, name: 'Manage Courses' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Cleanup Orphaned Materials' })).toHaveAttribute(
		'href',
		'/dashboard/admin/orphaned-materials',
	)

	const addForm = page.locator('#add-course')
	await addForm.getByLabel('Title *').fill(title)
	await addForm.getByLabel('Description *').fill('Rehab and rent, step by step.')
	await addForm.getByLabel('Start Date').fill('2031-03-01')
	await addForm.getByLabel('End Date').fill('2031-06-01')
	await addForm.getByLabel('Registration Fee ($)').fill('1,250.005')
	await addForm.getByLabel('Capacity').fill('5')
	await addForm.getByRole('button', { name: 'Add Course' }).click()
	await expect(page.getByText('Course added successfully')).toBeVisible()

	let card = await findAdminCourseCard(page, title)
	await expect(card.getByText('$1,250.01')).toBeVisible()
	await expect(card.getByText('0/5')).toBeVisible()
	await expect(card.getByText('5 spots remaining')).toBeVisible()
	await expect(card.getByText('Mar 1, 2031')).toBeVisible()
	const course = await db.selectFrom('courses').select(['id', 'registration_fee']).where('title', '=', title).executeTakeFirstOrThrow()
	expect(course.registration_fee).toBe(125001)
	await expect(card.getByRole('link', { name: /^Manage Materials/ })).toHaveAttribute(
		'href',
		`/dashboard/admin/courses/${course.id}/materials`,
	)

	// Two students take seats; a week with a stored file is uploaded.
	for (const name of ['Seat One', 'Seat Two']) {
		const student = await createUser({ name })
		await insertEnrollment(db, { userId: student.id, courseId: course.id })
	}
	const weekId = await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Deal analysis' })
	const checklist = await storeMaterialItem(db, serverStorage, {
		courseId: course.id,
		weekId,
		title: 'Checklist',
		fileName: 'checklist.pdf',
		bytes: new TextEncoder().encode('%PDF-1.4 checklist'),
		contentType: 'application/pdf',
	})

	await page.getByRole('link', { name: 'Refresh Courses' }).click()
	card = await findAdminCourseCard(page, title)
	await expect(card.getByText('2/5')).toBeVisible()
	await expect(card.getByText('3 spots remaining')).toBeVisible()

	await card.getByRole('link', { name: /^Edit/ }).click()
	const editDialog = page.getByRole('dialog', { name: 'Edit Course' })
	await expect(editDialog).toBeVisible()
	await expect(editDialog.getByLabel('Title *')).toHaveValue(title)
	await expect(editDialog.getByLabel('Registration Fee ($)')).toHaveValue('1250.01')
	await editDialog.getByLabel('Capacity').fill('1')
	await editDialog.getByRole('button', { name: 'Save Changes' }).click()
	await expect(
		page.getByRole('dialog', { name: 'Edit Course' }).getByText('Capacity cannot be less than the 2 seats already taken'),
	).toBeVisible()

	const editedTitle = `${title} Edited`
	await page.getByRole('dialog', { name: 'Edit Course' }).getByLabel('Title *').fill(editedTitle)
	await page.getByRole('dialog', { name: 'Edit Course' }).getByLabel('Capacity').fill('2')
	await page.getByRole('dialog', { name: 'Edit Course' }).getByRole('button', { name: 'Save Changes' }).click()
	await expect(page.getByText('Course updated successfully')).toBeVisible()
	await expect(page.getByRole('dialog')).toHaveCount(0)
	const editedCard = await findAdminCourseCard(page, editedTitle)
	await expect(editedCard.getByText('FULL', { exact: true })).toBeVisible()
	await expect(editedCard.getByText('Course is full')).toBeVisible()

	await editedCard.getByRole('link', { name: /^Delete/ }).click()
	const deleteDialog = page.getByRole('dialog', { name: 'Delete Course' })
	await expect(deleteDialog.getByText('1 week of course materials')).toBeVisible()
	await expect(deleteDialog.getByText('1 uploaded file (removed from storage)')).toBeVisible()
	await expect(deleteDialog.getByText('2 enrollments')).toBeVisible()
	// What the course does not have is not listed ('0 seat holds', '0 payment records').
	await expect(deleteDialog.getByText(/seat hold/)).toHaveCount(0)
	await expect(deleteDialog.getByText(/payment record/)).toHaveCount(0)
	await deleteDialog.getByRole('button', { name: 'Delete Course' }).click()
	await expect(page.getByText('Course and all associated data deleted successfully')).toBeVisible()
	await expect(page.getByRole('heading', { name: editedTitle })).toHaveCount(0)

	expect(await db.selectFrom('courses').select('id').where('id', '=', course.id).execute()).toEqual([])
	expect(await db.selectFrom('enrollments').select('id').where('course_id', '=', course.id).execute()).toEqual([])
	expect(await serverStorage.stat(checklist.storage_key!)).toBeNull()
})

test('the add form shows the spec messages and the raw data dialog lists every column', async ({ page, db, signInAs }) => {
	await signInAs({ role: 'admin' })
	await page.goto('/dashboard/admin/courses')

	const addForm = page.locator('#add-course')
	await expect(addForm.getByLabel('Capacity')).toHaveValue('20')
	await expect(addForm.getByLabel('Capacity')).toHaveAttribute('min', '1')
	await addForm.getByLabel('Title *').fill('   ')
	await addForm.getByLabel('Description *').fill('Has a description')
	await addForm.getByRole('button', { name: 'Add Course' }).click()
	await expect(page.locator('#add-course').getByText('Please fill in all required fields')).toBeVisible()

	const course = await insertCourse(db, { title: `Raw ${randomUUID().slice(0, 8)}`, description: 'Raw row' })
	await page.getByRole('link', { name: 'Show Raw Courses Data' }).click()
	const dialog = page.getByRole('dialog', { name: 'Raw Courses Data' })
	await expect(dialog).toBeVisible()
	for (const column of [
		'id',
		'title',
		'description',
		'start_date',
		'end_date',
		'capacity',
		'registration_fee',
		'created_at',
		'updated_at',
	]) {
		await expect(dialog.getByRole('columnheader', { name: column, exact: true })).toBeVisible()
	}
	await expect(dialog.getByRole('cell', { name: course.title })).toBeVisible()
	await dialog.getByRole('link', { name: 'Close' }).click()
	await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('a student is sent away from Manage Courses', async ({ page, signInAs }) => {
	await signInAs()
	await page.goto('/dashboard/admin/courses')
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText("You don't have permission to access this area")).toBeVisible()
})

test('a capacity of 1.5 is refused, never stored as 1', async ({ page, db, signInAs, javaScriptEnabled }) => {
	await signInAs({ role: 'admin' })
	await page.goto('/dashboard/admin/courses')
	const title = `Half Seat ${randomUUID().slice(0, 8)}`
	const addForm = page.locator('#add-course')
	await addForm.getByLabel('Title *').fill(title)
	await addForm.getByLabel('Description *').fill('One and a half students.')
	await addForm.getByLabel('Capacity').fill('1.5')
	await addForm.getByRole('button', { name: 'Add Course' }).click()
	if (javaScriptEnabled) await expect(page.locator('#add-course').getByText('Capacity must be a whole number')).toBeVisible()
	// Without JavaScript the browser itself holds back a number off the field's step (the server refuses it too).
	else expect(await addForm.getByLabel('Capacity').evaluate((input: HTMLInputElement) => input.validity.stepMismatch)).toBe(true)
	expect(await db.selectFrom('courses').select('id').where('title', '=', title).execute()).toEqual([])
})

test('the course grid comes in pages of twelve, and a dialog opened on the second page goes back to it', async ({ page, db, signInAs }) => {
	const tag = randomUUID().slice(0, 8)
	// Other tests add courses at the same time, so which courses land on which page is not asserted, only the paging.
	for (let n = 0; n < 13; n++) {
		await insertCourse(db, { title: `Paged ${tag} ${n}`, description: 'One of many.', start_date: '2031-01-01', end_date: '2031-03-01' })
	}
	await signInAs({ role: 'admin' })
	await page.goto('/dashboard/admin/courses')
	const grid = page.getByRole('region', { name: 'Current Courses' })
	const titles = grid.getByRole('heading', { level: 3 })
	await expect(titles).toHaveCount(12)
	const pages = page.getByRole('navigation', { name: 'Pages of courses' })
	await expect(pages).toContainText(/Page 1 of \d+/)
	await expect(pages.getByRole('link', { name: 'Previous page' })).toHaveCount(0)

	await pages.getByRole('link', { name: 'Next page' }).click()
	await expect(page).toHaveURL(/\/dashboard\/admin\/courses\?page=2#current-courses-title$/)
	await expect(pages.locator('[aria-current="page"]')).toHaveText('Page 2')
	await expect(pages.getByRole('link', { name: 'Previous page' })).toHaveAttribute('href', '/dashboard/admin/courses#current-courses-title')

	const card = grid
		.getByRole('listitem')
		.filter({ has: page.getByRole('heading', { level: 3 }) })
		.first()
	const title = await card.getByRole('heading', { level: 3 }).textContent()
	await card.getByRole('link', { name: /^Edit/ }).click()
	await expect(page).toHaveURL(/\/edit\?page=2$/)
	const dialog = page.getByRole('dialog', { name: 'Edit Course' })
	await expect(dialog.getByLabel('Title *')).toHaveValue(title!)
	await dialog.getByRole('button', { name: 'Save Changes' }).click()
	await expect(page.getByText('Course updated successfully')).toBeVisible()
	await expect(page).toHaveURL(/\/dashboard\/admin\/courses\?page=2$/)
	await expect(pages.locator('[aria-current="page"]')).toHaveText('Page 2')

	// On a phone the links fit one line: Previous, the current page and Next if there is a page after
	// this one ('Page 2 of N' beside them).
	await page.setViewportSize({ width: 390, height: 844 })
	await expect(pages.getByRole('link', { name: 'Page 1', exact: true })).toBeHidden()
	const shown = pages.locator('li:visible')
	const tops = await shown.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().top))
	expect(tops.length).toBeGreaterThanOrEqual(2)
	expect(new Set(tops).size).toBe(1)
})

test('after Add Course the form is empty again and its selects show their first choices, the weekday included', async ({
	page,
	signInAs,
}) => {
	await signInAs({ role: 'admin' })
	await page.goto('/dashboard/admin/courses')
	const addForm = page.locator('#add-course')
	const weekday = addForm.getByLabel('Weekly Session Day')
	await expect(weekday.locator('option:checked')).toHaveText('No weekly schedule')
	const title = `Weekly ${randomUUID().slice(0, 8)}`
	await addForm.getByLabel('Title *').fill(title)
	await addForm.getByLabel('Description *').fill('Meets every Tuesday.')
	await weekday.selectOption({ label: 'Tuesday' })
	await addForm.getByLabel('Session Start Time').fill('18:00')
	await addForm.getByRole('button', { name: 'Add Course' }).click()
	await expect(page.getByText('Course added successfully')).toBeVisible()
	await expect(addForm.getByLabel('Title *')).toHaveValue('')
	await expect(weekday.locator('option:checked')).toHaveText('No weekly schedule')
	await expect(addForm.getByLabel('Time Zone').locator('option:checked')).toHaveText(/\w/)
})
