import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, test } from '../support/e2e.ts'

/** How far the document is wider than the screen: a phone user would have to scroll sideways. */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

test('on a phone no page scrolls sideways; wide tables scroll inside their card', async ({ page, db, createUser, signIn }) => {
	const admin = await createUser({ role: 'admin', name: 'Phone Admin' })
	const student = await createUser({ name: 'Phone Student' })
	const course = await db
		.insertInto('courses')
		.values({ title: `Phone Course ${randomUUID().slice(0, 8)}`, capacity: 10 })
		.returning(['id', 'title'])
		.executeTakeFirstOrThrow()
	await db.insertInto('enrollments').values({ user_id: student.id, course_id: course.id, enrollment_date: new Date() }).execute()
	const week = await db
		.insertInto('course_materials')
		.values({ course_id: course.id, week_number: 1, topic: 'Analysing Deals', zoom_link: 'https://zoom.us/j/1234567890' })
		.returning('id')
		.executeTakeFirstOrThrow()
	await db
		.insertInto('material_items')
		.values({
			material_id: week.id,
			title: 'Deal Analysis Guide',
			type: 'document',
			category: 'material',
			storage_key: `materials/${course.id}/${week.id}/material/guide.pdf`,
			mime_type: 'application/pdf',
			size_bytes: 2048,
		})
		.execute()
	const assignment = await db
		.insertInto('assignments')
		.values({ course_id: course.id, title: 'Deal Analysis Worksheet' })
		.returning('id')
		.executeTakeFirstOrThrow()
	await db
		.insertInto('assignment_submissions')
		.values({ assignment_id: assignment.id, student_id: student.id, body: 'My numbers' })
		.execute()

	await page.setViewportSize({ width: 390, height: 844 })
	await signIn(admin)
	const adminPages = [
		'/dashboard',
		'/dashboard/admin/courses',
		`/dashboard/admin/courses/${course.id}/materials`,
		'/dashboard/admin/enrollments',
		'/dashboard/admin/users',
		'/dashboard/admin/grades',
		'/dashboard/messages',
	]
	for (const path of adminPages) {
		await page.goto(path)
		await expect(page.getByRole('main')).toBeVisible()
		expect(await sidewaysOverflow(page), path).toBeLessThanOrEqual(0)
	}
	// The enrollments table is wider than the phone: it scrolls inside its card.
	await page.goto('/dashboard/admin/enrollments')
	const table = page.getByRole('table', { name: 'Enrollments' })
	await expect(table.getByRole('link', { name: `Remove Phone Student from ${course.title}` })).toBeAttached()
	expect(await table.evaluate((element) => element.parentElement!.scrollWidth > element.parentElement!.clientWidth)).toBe(true)

	await signIn(student)
	for (const path of ['/dashboard', `/dashboard?course=${course.id}`, '/dashboard/messages', '/dashboard/settings', '/courses']) {
		await page.goto(path)
		await expect(page.getByRole('main')).toBeVisible()
		expect(await sidewaysOverflow(page), path).toBeLessThanOrEqual(0)
	}
})
