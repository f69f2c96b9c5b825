import { randomUUID } from 'node:crypto'
import { materialKey } from '#app/services/storage/keys.ts'
import { findAdminCourseCard } from '#tests/support/admin-course-grid.ts'
import { insertCourse, insertWeek } from '#tests/support/fixtures.ts'
import { e2eServerStorage } from '../support/e2e-env.ts'
import { expect, test } from '../support/e2e-journeys.ts'

const serverStorage = e2eServerStorage()

test('an admin runs a course again: the copy is a draft nobody else sees until it is published', async ({
	page,
	db,
	browser,
	baseURL,
	signInAs,
}) => {
	test.slow()
	const title = `E2E Cohort ${randomUUID().slice(0, 8)}`
	const course = await insertCourse(db, { title, description: 'Rehab and rent.', start_date: '2031-03-03', end_date: '2031-04-27' })
	const weekId = await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Deal analysis' })
	const key = materialKey(course.id, weekId, 'material', 'checklist.pdf')
	await serverStorage.put(key, new TextEncoder().encode('%PDF-1.4 checklist'), { contentType: 'application/pdf' })
	await db
		.insertInto('material_items')
		.values({ material_id: weekId, title: 'Checklist', type: 'document', category: 'material', storage_key: key })
		.execute()
	await signInAs({ role: 'admin', name: 'Cohort Admin' })

	await page.goto('/dashboard/admin/courses')
	let card = await findAdminCourseCard(page, title)
	await card.getByRole('link', { name: /^Run Again/ }).click()
	const dialog = page.getByRole('dialog', { name: 'Run Again' })
	await expect(dialog.getByLabel('Title of the new course *')).toHaveValue(`${title} (next cohort)`)
	// The Monday after the course's last day: the weekly classes keep their day.
	await expect(dialog.getByLabel('New start date *')).toHaveValue('2031-04-28')
	await dialog.getByLabel('New start date *').fill('2031-06-02')
	await dialog.getByRole('button', { name: 'Create Draft' }).click()

	const draftTitle = `${title} (next cohort)`
	await expect(page.getByText(`"${draftTitle}" is a draft`)).toBeVisible()
	const copy = await db.selectFrom('courses').select(['id', 'end_date']).where('title', '=', draftTitle).executeTakeFirstOrThrow()
	await expect(page).toHaveURL(new RegExp(`/dashboard/admin/courses/${copy.id}/materials$`))
	expect(copy.end_date).toBe('2031-07-27')
	await expect(page.getByText('Deal analysis').first()).toBeVisible()

	// Someone else, not signed in, finds nothing of the draft.
	const visitor = await browser.newContext({ baseURL })
	const visitorPage = await visitor.newPage()
	expect((await visitorPage.goto(`/courses/${copy.id}`))?.status()).toBe(404)
	await visitorPage.goto('/courses')
	await expect(visitorPage.getByText(title, { exact: true })).toBeVisible()
	await expect(visitorPage.getByText(draftTitle)).toHaveCount(0)

	await page.goto('/dashboard/admin/courses')
	card = await findAdminCourseCard(page, draftTitle)
	await expect(card.getByText('Draft', { exact: true })).toBeVisible()
	await card.getByRole('link', { name: /^Publish/ }).click()
	const publish = page.getByRole('dialog', { name: 'Publish Course' })
	await publish.getByRole('button', { name: 'Publish Course' }).click()
	await expect(page.getByText(`"${draftTitle}" is published`)).toBeVisible()
	card = await findAdminCourseCard(page, draftTitle)
	await expect(card.getByText('Draft', { exact: true })).toHaveCount(0)

	expect((await visitorPage.goto(`/courses/${copy.id}`))?.status()).toBe(200)
	await expect(visitorPage.getByRole('heading', { level: 1, name: draftTitle })).toBeVisible()
	await visitorPage.goto('/courses')
	await expect(visitorPage.getByRole('heading', { name: draftTitle })).toBeVisible()
	await visitor.close()
})
