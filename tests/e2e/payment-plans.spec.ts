/**
 * Payment plans, first slice (issue 41, docs/decisions/054), with JavaScript on and off, on a
 * phone and a desktop: from the course's card the admin opens its Payment Plan page, is told when
 * the last instalment would fall after the course ends (nothing saved, the typed values kept),
 * previews three instalments and saves them.
 */
import { randomUUID } from 'node:crypto'
import { findAdminCourseCard } from '#tests/support/admin-course-grid.ts'
import { insertPlanCourse } from '#tests/support/plan-course.ts'
import { expect, test } from '../support/e2e-journeys.ts'

for (const width of [1280, 390]) {
	test(`at ${width} px an admin sets a 3-instalment plan and sees its schedule; 5 would end after the course`, async ({
		page,
		db,
		signInAs,
	}) => {
		await page.setViewportSize({ width, height: 900 })
		const title = `Plan ${randomUUID().slice(0, 8)}`
		const { course } = await insertPlanCourse(db, { title, plan: false })
		await signInAs({ role: 'admin' })
		await page.goto('/dashboard/admin/courses')
		const card = await findAdminCourseCard(page, title)
		await card.getByRole('link', { name: /^Payment Plan/ }).click()
		await expect(page.getByRole('heading', { name: 'Payment Plan', level: 1 })).toBeVisible()
		await expect(page.getByText(`${title}: $2,500.00 in full`)).toBeVisible()

		const count = page.getByLabel('Number of instalments')
		await page.getByLabel('Offer a payment plan').selectOption('yes')
		await page.getByLabel('Kind of plan').selectOption('equal')
		await count.fill('5')
		await page.getByLabel('Surcharge (USD, optional)').fill('')
		await page.getByRole('button', { name: 'Save Plan' }).click()
		await expect(page.getByText('The last instalment would be due on', { exact: false })).toBeVisible()
		await expect(count).toHaveAttribute('aria-invalid', 'true')
		await expect(count).toHaveValue('5')
		await expect(page.getByLabel('Offer a payment plan')).toHaveValue('yes')
		const plans = () => db.selectFrom('course_payment_plans').selectAll().where('course_id', '=', course.id).execute()
		expect(await plans()).toEqual([])

		await count.fill('3')
		await page.getByRole('button', { name: 'Preview Schedule' }).click()
		const preview = page.getByRole('region', { name: 'Preview of the Schedule' })
		await expect(preview.getByText('3 payments, $2,500.00 in all')).toBeVisible()
		await expect(preview.getByRole('row')).toHaveCount(4)
		await expect(preview.getByRole('row').nth(1)).toContainText('$833.34')
		await expect(preview.getByRole('row').nth(2)).toContainText('$833.33')
		await expect(preview.getByRole('row').nth(3)).toContainText('$833.33')
		await expect(count).toHaveValue('3')
		expect(await plans()).toEqual([])

		await page.getByRole('button', { name: 'Save Plan' }).click()
		await expect(page.getByText('Payment plan saved')).toBeVisible()
		await expect(page.getByRole('region', { name: 'Schedule of the Saved Plan' }).getByRole('row')).toHaveCount(4)
		await expect(count).toHaveValue('3')
		expect(await plans()).toMatchObject([{ offered: true, kind: 'equal', instalment_count: 3, grace_days: 7 }])
	})
}
