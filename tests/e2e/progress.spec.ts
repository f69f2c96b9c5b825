import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { expect, test } from '../support/e2e.ts'
import { e2eServerStorage } from '../support/e2e-env.ts'
import { insertCourseWithWeek, insertEnrollment, storeMaterialItem } from '../support/fixtures.ts'

const storage = e2eServerStorage()
const DAY = 86_400_000

for (const width of [1280, 390]) {
	test(`at ${width} px a student opens a material and the admin sees it on the roster, sorts it and downloads its CSV`, async ({
		page,
		db,
		createUser,
		signIn,
	}) => {
		await page.setViewportSize({ width, height: 900 })
		const start = new Date(Date.now() - 8 * DAY)
		const title = `Progress Course ${randomUUID().slice(0, 6)}`
		const { course, weekId } = await insertCourseWithWeek(db, {
			course: {
				title,
				start_date: start.toISOString().slice(0, 10),
				end_date: new Date(start.getTime() + 55 * DAY).toISOString().slice(0, 10),
			},
			topic: 'Analysing Deals',
		})
		await storeMaterialItem(db, storage, {
			courseId: course.id,
			weekId,
			title: 'Reading List',
			fileName: 'reading-list.txt',
			bytes: new TextEncoder().encode('Books.'),
			contentType: 'text/plain',
		})
		const [ann, zed, admin] = await Promise.all([
			createUser({ name: 'Ann Opener' }),
			createUser({ name: 'Zed Idle' }),
			createUser({ role: 'admin', name: 'Ada Admin' }),
		])
		await insertEnrollment(db, { userId: ann!.id, courseId: course.id, daysAgo: 10 })
		await insertEnrollment(db, { userId: zed!.id, courseId: course.id, daysAgo: 10 })

		await signIn(ann!)
		await page.goto(`/dashboard?course=${course.id}`)
		await expect(page.getByRole('heading', { name: 'Your Progress' })).toBeVisible()
		await expect(page.getByText('Week 2 of 8 · No classes held yet · No assignments due')).toBeVisible()
		await page
			.getByRole('region', { name: 'Week 1: Analysing Deals' })
			.getByRole('link', { name: /Reading List/ })
			.click()
		await expect(page.getByRole('dialog', { name: 'Reading List' })).toBeVisible()
		await expect
			.poll(async () => (await db.selectFrom('material_opens').select('user_id').where('user_id', '=', ann!.id).execute()).length)
			.toBe(1)

		await signIn(admin!)
		await page.goto(`/dashboard/admin/courses/${course.id}/progress`)
		await expect(page.getByRole('heading', { level: 1, name: `Progress: ${title}` })).toBeVisible()
		const rowHeaders = page.getByRole('rowheader')
		// At risk first: Zed has opened nothing in the ten days since enrolling.
		await expect(rowHeaders.first()).toContainText('Zed Idle')
		await expect(rowHeaders.first()).toContainText('Nothing opened since enrolling 10 days ago')
		await expect(page.getByRole('row').filter({ hasText: 'Ann Opener' })).toContainText('1 of 1 opened')

		await page.getByRole('navigation', { name: 'Sort the roster' }).getByRole('link', { name: 'Name' }).click()
		await expect(page).toHaveURL(/\?sort=name$/)
		await expect(rowHeaders.first()).toContainText('Ann Opener')
		// On a phone the table scrolls inside its card; the page itself never sideways.
		expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)

		const download = page.waitForEvent('download')
		await page.getByRole('link', { name: 'Download CSV' }).click()
		const csv = await download
		expect(csv.suggestedFilename()).toMatch(/^progress-progress-course-[a-z0-9]+-\d{4}-\d{2}-\d{2}\.csv$/)
		const lines = fs
			.readFileSync((await csv.path())!, 'utf8')
			.trim()
			.split('\n')
		expect(lines).toHaveLength(3)
		expect(lines[1]).toMatch(/^Ann Opener,/)
		expect(lines[2]).toMatch(/^Zed Idle,.*Nothing opened since enrolling 10 days ago/)
	})
}
