import { insertCourse, insertEnrollment, insertMessage } from '#tests/support/fixtures.ts'
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
	const course = await insertCourse(db, {
		title: `${marker} ${SCRIPT}`,
		description: `${IMG} ${LINK}`,
		capacity: 10,
		start_date: '2031-01-05',
		end_date: '2031-03-01',
	})
	const student = await createUser({ name: `Student ${SCRIPT}` })
	const admin = await createUser({ role: 'admin', name: `Admin ${IMG}` })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await insertMessage(db, { sender_id: admin.id, receiver_id: student.id, content: `${marker} ${SCRIPT} ${IMG} ${LINK}` })

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
