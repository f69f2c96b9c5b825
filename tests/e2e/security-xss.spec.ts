import { expect, test } from '../support/e2e.ts'

const SCRIPT = '<script>window.__xss = 1; alert("xss")</script>'
const IMG = '<img src=x onerror="window.__xss = 2">'
const LINK = '[click me](javascript:window.__xss=3) javascript:window.__xss=4 <a href="javascript:window.__xss=5">link</a>'

test('course and message texts with script, event handlers and javascript: links render inert', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const dialogs: string[] = []
	page.on('dialog', async (dialog) => {
		dialogs.push(dialog.message())
		await dialog.dismiss()
	})
	const marker = `XSS ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
	const course = await db
		.insertInto('courses')
		.values({ title: `${marker} ${SCRIPT}`, description: `${IMG} ${LINK}`, capacity: 10, start_date: '2031-01-05', end_date: '2031-03-01' })
		.returning('id')
		.executeTakeFirstOrThrow()
	const student = await createUser({ name: `Student ${SCRIPT}` })
	const admin = await createUser({ role: 'admin', name: `Admin ${IMG}` })
	await db
		.insertInto('enrollments')
		.values({ user_id: student.id, course_id: course.id, status: 'active', enrollment_date: new Date() })
		.execute()
	await db
		.insertInto('messages')
		.values({ sender_id: admin.id, receiver_id: student.id, content: `${marker} ${SCRIPT} ${IMG} ${LINK}` })
		.execute()

	await page.goto(`/courses/${course.id}`)
	await expect(page.getByText(SCRIPT, { exact: false }).first()).toBeVisible()

	await signIn(student)
	await page.goto(`/dashboard/messages?with=${admin.id}`)
	// The message itself shows the markup as text (the student's name in the header holds the same script).
	const message = page.getByText(marker).first()
	await expect(message).toBeVisible()
	await expect(message).toContainText('<script>window.__xss = 1')

	for (const path of [`/courses/${course.id}`, `/dashboard/messages?with=${admin.id}`, '/dashboard/courses']) {
		await page.goto(path)
		expect(await page.evaluate(() => (window as { __xss?: number }).__xss ?? null)).toBeNull()
		expect(await page.locator('a[href^="javascript:" i], [href^="javascript:" i]').count()).toBe(0)
		expect(await page.locator('img[src="x"], [onerror]').count()).toBe(0)
	}
	expect(dialogs).toEqual([])
})
