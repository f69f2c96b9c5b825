/**
 * A course's community (issue 44, docs/decisions/060): two students and the instructor hold a
 * discussion, with JavaScript on and off. The author asked for replies by e-mail: one mail comes for
 * the first reply, and the next reply waits for the hour to pass. With JavaScript a reply appears
 * on the open page by itself (server-sent events).
 */
import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import { insertCourse, insertCourseStaff, insertEnrollment } from '#tests/support/fixtures.ts'
import { expect, openAs, test } from '../support/e2e-journeys.ts'

async function reply(page: Page, text: string) {
	await page.getByLabel('Your reply').fill(text)
	await page.getByRole('button', { name: 'Post Reply' }).click()
	await expect(page.getByText('Reply posted')).toBeVisible()
	// A posted reply leaves an empty form, so nobody sends it twice by mistake.
	await expect(page.getByLabel('Your reply')).toHaveValue('')
}

test('two students and the instructor hold a discussion; the author gets one e-mail; the live update arrives', async ({
	page,
	db,
	browser,
	baseURL,
	createUser,
	signIn,
	javaScriptEnabled,
}) => {
	test.slow()
	const tag = randomUUID().slice(0, 8)
	const course = await insertCourse(db, { title: `Flip Cohort ${tag}`, capacity: 10 })
	const ana = await createUser({ name: `Ana ${tag}` })
	const ben = await createUser({ name: `Ben ${tag}` })
	const ivy = await createUser({ role: 'instructor', name: `Ivy ${tag}` })
	await insertEnrollment(db, { userId: ana.id, courseId: course.id })
	await insertEnrollment(db, { userId: ben.id, courseId: course.id })
	await insertCourseStaff(db, { courseId: course.id, userId: ivy.id })
	const title = `Hard money or HELOC? ${tag}`

	// Ana's one community opens straight from the menu's Community.
	await signIn(ana)
	await page.goto('/dashboard/community')
	await expect(page.getByRole('heading', { level: 1, name: /Community/ })).toContainText(course.title)
	await expect(page.getByText('No discussions yet')).toBeVisible()
	await page.getByRole('button', { name: 'Post Discussion' }).click()
	await expect(page.getByText('Please fill in all fields').first()).toBeVisible()
	await page.getByLabel('Title').fill(title)
	await page.getByLabel('Content').fill('Which would you use for a first flip?\nSee https://example.com/rates for today.')
	await page.getByLabel('E-mail me when someone replies').check()
	await page.getByRole('button', { name: 'Post Discussion' }).click()
	await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
	await expect(page.getByRole('link', { name: 'https://example.com/rates' })).toHaveAttribute('href', 'https://example.com/rates')
	const threadUrl = page.url()

	// Ben finds it by searching and replies; Ana sees the reply (live with JavaScript, on reload without).
	const benAt = await openAs(browser, db, ben, baseURL!, javaScriptEnabled)
	await benAt.page.goto(`/dashboard/community/${course.id}?q=${encodeURIComponent('heloc')}`)
	await benAt.page.getByRole('link', { name: title }).click()
	await expect(benAt.page.getByRole('heading', { level: 1, name: title })).toBeVisible()
	await reply(benAt.page, `HELOC if you have equity, Ana. ${tag}`)
	if (!javaScriptEnabled) await page.reload()
	await expect(page.getByText(`HELOC if you have equity, Ana. ${tag}`)).toBeVisible()

	// The first reply's mail reaches Ana once.
	const mailsToAna = () =>
		db
			.selectFrom('email_outbox')
			.select(['subject', 'text_body'])
			.where('to_address', '=', ana.email)
			.where('subject', 'like', `%${tag}%`)
			.execute()
	await expect.poll(async () => (await mailsToAna()).length, { timeout: 20_000 }).toBe(1)
	const [mail] = await mailsToAna()
	expect(mail!.subject).toBe(`A new reply to "${title}"`)
	expect(mail!.text_body).toContain(`Ben ${tag} wrote: HELOC if you have equity, Ana.`)
	expect(mail!.text_body).toContain(new URL(threadUrl).pathname)

	// The instructor replies and pins the discussion; Ana's next mail waits for the hour to pass.
	const ivyAt = await openAs(browser, db, ivy, baseURL!, javaScriptEnabled)
	await ivyAt.page.goto(threadUrl)
	await reply(ivyAt.page, `Both work; run the numbers first. ${tag}`)
	await ivyAt.page.getByRole('button', { name: 'Pin discussion' }).click()
	await expect(ivyAt.page.getByText('Discussion pinned')).toBeVisible()
	if (!javaScriptEnabled) await page.reload()
	await expect(page.getByText(`Both work; run the numbers first. ${tag}`)).toBeVisible()
	const thread = await db
		.selectFrom('community_threads')
		.select(['replies_mailed_at', 'replies_mailed_through'])
		.where('title', '=', title)
		.executeTakeFirstOrThrow()
	const lastReply = await db
		.selectFrom('community_posts')
		.select((eb) => eb.fn.max('id').as('id'))
		.where('body', 'like', `Both work%${tag}`)
		.executeTakeFirstOrThrow()
	expect(thread.replies_mailed_through).toBeLessThan(Number(lastReply.id))
	expect(await mailsToAna()).toHaveLength(1)

	// The instructor removes Ben's reply: it keeps its place and says so; the list shows the pin.
	await ivyAt.page.getByRole('button', { name: `Remove post by Ben ${tag}` }).click()
	await expect(ivyAt.page.getByText('Post removed')).toBeVisible()
	await page.goto(threadUrl)
	await expect(page.getByText('Removed by a moderator')).toBeVisible()
	await expect(page.getByText(`HELOC if you have equity, Ana. ${tag}`)).toHaveCount(0)
	await page.goto(`/dashboard/community/${course.id}`)
	await expect(page.getByText('Pinned')).toBeVisible()

	// Members and events are tabs of the same page; students see no e-mail addresses.
	await page.getByRole('link', { name: 'Members' }).click()
	await expect(page.getByText(`Ivy ${tag}`)).toBeVisible()
	await expect(page.getByText(ben.email)).toHaveCount(0)
	await page.getByRole('link', { name: 'Events' }).click()
	await expect(page.getByText('This course has no live sessions scheduled.')).toBeVisible()

	await benAt.context.close()
	await ivyAt.context.close()
})

test('a student of another course finds no community there', async ({ page, db, signInAs }) => {
	const course = await insertCourse(db, { title: `Closed Cohort ${randomUUID().slice(0, 8)}` })
	await signInAs({ name: 'Outsider' })
	const response = await page.goto(`/dashboard/community/${course.id}`)
	expect(response?.status()).toBe(404)
})
