import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import {
	insertAssignment,
	insertCommunityThread,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertLiveSession,
	insertMaterialItem,
	insertMessage,
	insertPayment,
	insertPlanPurchase,
	insertSubmission,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e-journeys.ts'

/** How far the document is wider than the screen: a phone user would have to scroll sideways. */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

/** Opens each page in turn; every one that scrolls sideways fails the test, named by its path. */
async function expectNoneScrollsSideways(page: Page, paths: string[]) {
	for (const path of paths) {
		await page.goto(path)
		await expect(page.getByRole('main')).toBeVisible()
		expect.soft(await sidewaysOverflow(page), path).toBeLessThanOrEqual(0)
	}
}

/** What people type: long names, long titles, a pasted link with no space to break at. */
const LONG_NAME = 'Maximiliana-Bartholomew Featherstonehaugh-Worthington'
const PASTED_LINK = `https://docs.example.com/spreadsheets/d/${'1A2b3C4d5E6f7G8h9I0j'.repeat(5)}/edit#gid=0`

test('on a phone no page scrolls sideways; wide tables scroll inside their card', async ({ page, db, signInAs, createUser, signIn }) => {
	// Twenty-odd pages, each checked by axe and the HTML checker: more than the default minute on a busy machine.
	test.slow()
	const admin = await signInAs({ role: 'admin', name: `Phone Admin ${LONG_NAME}` })
	const student = await createUser({ name: `Phone Student ${LONG_NAME}` })
	const course = await insertCourse(db, {
		title: `Phone Course ${randomUUID().slice(0, 8)} Advanced Multifamily Syndication Masterclass`,
		capacity: 10,
	})
	const enrollment = await insertEnrollment(db, { userId: student.id, courseId: course.id })
	const payment = await insertPayment(db, {
		checkout_session_id: `cs_test_phone_${randomUUID()}`,
		user_id: student.id,
		course_id: course.id,
		course_title: course.title,
		customer_email: student.email,
		refunded_cents: 50000,
		status: 'paid',
		enrollment_id: enrollment.id,
	})
	const weekId = await insertWeek(db, {
		courseId: course.id,
		weekNumber: 1,
		topic: 'Analysing Deals',
		zoomLink: 'https://zoom.us/j/1234567890',
	})
	await insertMaterialItem(db, {
		courseId: course.id,
		weekId,
		title: 'Deal-Analysis-Guide-with-Worked-Examples-for-Duplexes-Triplexes-and-Quadplexes',
		storageKey: `materials/${course.id}/${weekId}/material/guide.pdf`,
		mimeType: 'application/pdf',
		sizeBytes: 2048,
	})
	const assignment = await insertAssignment(db, {
		course_id: course.id,
		title: 'Deal Analysis Worksheet',
		instructions: `Use the template at ${PASTED_LINK}`,
	})
	const submission = await insertSubmission(db, {
		assignment_id: assignment.id,
		student_id: student.id,
		body: `My numbers: ${PASTED_LINK}`,
	})
	await insertMessage(db, { sender_id: student.id, receiver_id: admin.id, content: `Here is my sheet: ${PASTED_LINK}` })
	await insertMessage(db, { sender_id: admin.id, receiver_id: student.id, content: `Thanks, see ${PASTED_LINK}` })

	const { threadId } = await insertCommunityThread(db, {
		courseId: course.id,
		authorId: student.id,
		title: `Financing ${LONG_NAME} deals`,
		body: `Rates here: ${PASTED_LINK}\nWhat do you use?`,
		replies: [admin.id],
		pinned: true,
	})
	// The student pays on a plan whose second instalment failed: the admin's plan list and the update-card page have something to show.
	const { planId, instalmentIds } = await insertPlanPurchase(db, {
		userId: student.id,
		courseId: course.id,
		enrollmentId: enrollment.id,
		status: 'past_due',
	})
	await db.updateTable('plan_instalments').set({ status: 'failed', failed_at: new Date() }).where('id', '=', instalmentIds[1]!).execute()

	await page.setViewportSize({ width: 390, height: 844 })
	const adminPages = [
		'/dashboard',
		'/dashboard/admin/courses',
		`/dashboard/admin/courses/${course.id}/materials`,
		`/dashboard/admin/courses/${course.id}/progress`,
		`/dashboard/admin/courses/${course.id}/completion`,
		`/dashboard/admin/courses/${course.id}/payment-plan`,
		`/dashboard/admin/courses/${course.id}/plans`,
		'/dashboard/admin/enrollments',
		`/dashboard/admin/enrollments/payments/${payment.id}/refund`,
		'/dashboard/admin/certificates',
		'/dashboard/admin/promotion-codes',
		'/dashboard/admin/agreement',
		'/dashboard/admin/school-details',
		'/dashboard/admin/users',
		'/dashboard/admin/grades',
		`/dashboard/admin/grades?view=${submission.id}`,
		'/dashboard/messages',
		`/dashboard/messages?with=${student.id}`,
		'/dashboard/admin/messages',
		'/dashboard/admin/exports',
	]
	await expectNoneScrollsSideways(page, adminPages)
	// The enrollments table stacks its rows on a phone: Status and Refund are on screen without scrolling sideways (issue 39 point 9).
	await page.goto('/dashboard/admin/enrollments')
	const table = page.getByRole('table', { name: 'Enrollments' })
	for (const control of [
		table.getByRole('link', { name: `Remove ${student.name} from ${course.title}` }),
		table.getByRole('link', { name: /^Refund/ }).first(),
		table.getByLabel(`Status of ${student.name} in ${course.title}`),
	]) {
		const box = await control.boundingBox()
		expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true)
	}
	expect(await table.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth)).toBe(true)
	expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth)).toBe(true)

	await signIn(student)
	const studentPages = [
		'/dashboard',
		`/dashboard?course=${course.id}`,
		'/dashboard/courses',
		`/dashboard/assignments/${assignment.id}`,
		'/dashboard/messages',
		`/dashboard/messages?with=${admin.id}`,
		'/dashboard/settings',
		`/dashboard/community/${course.id}`,
		`/dashboard/community/${course.id}?tab=members`,
		`/dashboard/community/${course.id}?tab=events`,
		`/dashboard/community/${course.id}/threads/${threadId}`,
		`/dashboard/plans/${planId}/pay`,
		`/dashboard/settings/receipts/instalment/${instalmentIds[0]}`,
		'/courses',
		`/courses/${course.id}`,
	]
	await expectNoneScrollsSideways(page, studentPages)
})

test("on a phone an instructor's menu opens from its button and their course pages do not scroll sideways", async ({
	page,
	db,
	signInAs,
	createUser,
}) => {
	const instructor = await signInAs({ role: 'instructor', name: `Phone Instructor ${LONG_NAME}` })
	const student = await createUser({ name: `Phone Student ${LONG_NAME}` })
	const course = await insertCourse(db, {
		title: `Taught ${randomUUID().slice(0, 8)} Advanced Multifamily Syndication Masterclass`,
		capacity: 10,
	})
	await insertCourseStaff(db, { courseId: course.id, userId: instructor.id })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	const weekId = await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Analysing Deals' })
	const sessionId = await insertLiveSession(db, {
		courseId: course.id,
		startsAt: new Date(Date.now() - 2 * 3_600_000),
		endsAt: new Date(Date.now() - 3_600_000),
	})
	await page.setViewportSize({ width: 390, height: 844 })

	await page.goto('/dashboard')
	// The menu's button opens it, with or without JavaScript; the course they teach comes first.
	await page.getByLabel('Dashboard menu').click()
	const menu = page.getByRole('navigation', { name: 'Dashboard' })
	await expect(menu.getByRole('link').first()).toHaveText(course.title)
	await menu.getByRole('link', { name: course.title }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Manage Course Materials' })).toBeVisible()
	await expectNoneScrollsSideways(page, [
		'/dashboard',
		'/dashboard/admin/courses',
		`/dashboard/admin/courses/${course.id}/materials`,
		`/dashboard/admin/courses/${course.id}/materials/${weekId}/edit`,
		`/dashboard/admin/courses/${course.id}/materials/sessions/${sessionId}`,
		`/dashboard/admin/courses/${course.id}/sessions/${sessionId}/attendance`,
		`/dashboard/admin/courses/${course.id}/progress`,
		'/dashboard/admin/exports',
	])
})

test('on a phone the dashboard names the chosen course in full, and the Show button goes once JavaScript runs', async ({
	page,
	db,
	signInAs,
	javaScriptEnabled,
}) => {
	const student = await signInAs()
	const course = await insertCourse(db, {
		title: `Selector ${randomUUID().slice(0, 8)} Advanced Multifamily Syndication and Commercial Refinancing Masterclass`,
	})
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await page.setViewportSize({ width: 390, height: 844 })
	await page.goto(`/dashboard?course=${course.id}`)

	const title = page.getByTestId('selected-course-title')
	await expect(title).toHaveText(course.title)
	// Written out whole: nothing of it is cut off at the edge.
	expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)
	expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0)
	await expect(page.getByRole('button', { name: 'Show' })).toHaveCount(javaScriptEnabled ? 0 : 1)
})

/** Where an element's text wraps: for each line after the first, the characters around the break. */
const lineBreaksOf = (element: HTMLElement) => {
	const text = element.textContent ?? ''
	const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
	const chars: Array<{ char: string; top: number }> = []
	for (let node = walker.nextNode(); node; node = walker.nextNode()) {
		for (let index = 0; index < (node.textContent ?? '').length; index++) {
			const range = document.createRange()
			range.setStart(node, index)
			range.setEnd(node, index + 1)
			chars.push({ char: node.textContent![index]!, top: Math.round(range.getBoundingClientRect().top) })
		}
	}
	const breaks: string[] = []
	for (let index = 1; index < chars.length; index++) {
		if (chars[index]!.top > chars[index - 1]!.top) breaks.push(`${chars[index - 1]!.char}|${chars[index]!.char}`)
	}
	return { text, breaks }
}

test('Manage Course Materials and Enrollments: buttons and links keep their lines, e-mails wrap only at @ or a dot, wide tables say they scroll', async ({
	page,
	db,
	signInAs,
	createUser,
}) => {
	await signInAs({ role: 'admin' })
	const course = await insertCourse(db, { title: `Layout ${randomUUID().slice(0, 8)}`, capacity: 10 })
	const student = await createUser({
		name: LONG_NAME,
		email: `maximiliana.featherstonehaugh-${randomUUID().slice(0, 6)}@investor-mail.example.com`,
	})
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	const weekId = await insertWeek(db, {
		courseId: course.id,
		weekNumber: 1,
		topic: 'Finding Deals and Running the Numbers',
		zoomLink: 'https://zoom.us/j/1234567890',
	})
	for (const title of ['comps-worksheet.xlsx', 'notes.pdf']) {
		await insertMaterialItem(db, {
			courseId: course.id,
			weekId,
			title,
			storageKey: `courses/${course.id}/weeks/${weekId}/material/${title}`,
		})
	}
	const materials = `/dashboard/admin/courses/${course.id}/materials`

	await page.setViewportSize({ width: 1280, height: 900 })
	await page.goto(materials)
	for (const name of ['Edit All of week 1', 'Delete Week 1']) {
		const button = page.getByRole('link', { name })
		// The label fits its button: one line, nothing spilling out.
		expect(
			await button.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight),
		).toBe(true)
	}
	for (const title of ['comps-worksheet.xlsx', 'notes.pdf']) {
		const download = await page.getByRole('link', { name: `Download ${title}` }).boundingBox()
		const remove = await page.getByRole('link', { name: `Delete ${title}` }).boundingBox()
		// A file's links share a line rather than one of them landing alone on the next.
		expect(Math.round(download!.y)).toBe(Math.round(remove!.y))
	}

	await page.setViewportSize({ width: 390, height: 844 })
	await page.goto(materials)
	await expect(page.getByText('Scroll sideways to see every column')).toBeVisible()
	expect(await sidewaysOverflow(page), materials).toBeLessThanOrEqual(0)
	// The enrollments table stacks its rows on a phone instead (issue 39 point 9).
	await page.goto(`/dashboard/admin/enrollments?q=${encodeURIComponent(course.title)}`)
	await expect(page.getByRole('table', { name: 'Enrollments' })).toBeVisible()
	await expect(page.getByText('Scroll sideways to see every column')).toHaveCount(0)
	expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0)
	const email = page.getByRole('table', { name: 'Enrollments' }).getByText(student.email)
	const { text, breaks } = await email.evaluate(lineBreaksOf)
	expect(text).toBe(student.email)
	for (const at of breaks) expect(at, `a line of ${student.email} breaks at ${at}`).toMatch(/^.\|[@.]$|^-\|.$/)
})
