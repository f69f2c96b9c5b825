import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import { publishEvent } from '#app/services/events/publish.server.ts'
import { attachmentKey } from '#app/services/storage/keys.ts'
import type { Database } from '#db/types.ts'
import { insertCourse, insertCourseStaff, insertEnrollment } from '#tests/support/fixtures.ts'
import type { TestUser } from '../support/e2e.ts'
import { e2eServerStorage } from '../support/e2e-env.ts'
import { expect, openAs, test } from '../support/e2e-journeys.ts'

const serverStorage = e2eServerStorage()

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

async function waitForHydration(page: Page) {
	await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
}

function thread(page: Page) {
	return page.getByRole('log')
}

/** A course the student is enrolled in and the instructors teach: its instructors are the student's contacts (docs/decisions/058). */
async function teach(db: Kysely<Database>, student: TestUser, instructors: TestUser[]) {
	const course = await insertCourse(db, { title: `Contacts course ${randomUUID().slice(0, 8)}` })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	for (const instructor of instructors) await insertCourseStaff(db, { courseId: course.id, userId: instructor.id })
}

test('a student reads, sends, attaches and deletes messages', async ({ page, db, signInAs, createUser, javaScriptEnabled }) => {
	test.slow()
	const tag = randomUUID().slice(0, 8)
	const admin = await createUser({ role: 'admin', name: `Ada ${tag}` })
	const student = await signInAs({ name: `Sam ${tag}` })
	await db
		.insertInto('messages')
		.values({ sender_id: admin.id, receiver_id: student.id, content: `Welcome ${tag}` })
		.execute()

	await page.goto('/dashboard/messages')
	await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Conversations' })).toHaveAttribute('aria-current', 'page')
	// The first contact (the one with unread messages) is selected.
	await expect(page.getByRole('heading', { level: 2, name: `Ada ${tag}` })).toBeVisible()
	await expect(thread(page).getByText(`Welcome ${tag}`)).toBeVisible()

	// Opening the thread marks it read: by a fetcher with JavaScript, by a button without.
	if (!javaScriptEnabled) {
		const unread = await db.selectFrom('messages').select('read').where('receiver_id', '=', student.id).executeTakeFirstOrThrow()
		expect(unread.read).toBe(false)
		await page.getByRole('button', { name: 'Mark as read' }).click()
	}
	await expect
		.poll(async () => (await db.selectFrom('messages').select('read').where('receiver_id', '=', student.id).executeTakeFirstOrThrow()).read)
		.toBe(true)
	await expect(page.getByRole('button', { name: 'Mark as read' })).toHaveCount(0)

	// An empty message is refused.
	await page.getByRole('button', { name: 'Send' }).click()
	await expect(page.getByText('Please enter a message')).toBeVisible()

	// Text.
	await page.getByLabel('Message', { exact: true }).fill(`Question ${tag}`)
	if (javaScriptEnabled) await page.getByLabel('Message', { exact: true }).press('Enter')
	else await page.getByRole('button', { name: 'Send' }).click()
	await expect(thread(page).getByText(`Question ${tag}`)).toBeVisible()
	await expect(page.getByLabel('Message', { exact: true })).toHaveValue('')

	// An image (previewed) and a document (downloaded).
	await page.getByLabel('Message', { exact: true }).fill(`Photo ${tag}`)
	await page.getByLabel('Attachment (optional)').setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PNG })
	await page.getByRole('button', { name: 'Send' }).click()
	await expect(thread(page).getByRole('img', { name: 'pixel.png' })).toBeVisible()
	await expect(thread(page).getByText(`pixel.png (${PNG.length} bytes)`)).toBeVisible()

	await page
		.getByLabel('Attachment (optional)')
		.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('reading list') })
	await page.getByRole('button', { name: 'Send' }).click()
	const download = thread(page).getByRole('link', { name: 'notes.txt' })
	await expect(download).toBeVisible()
	const response = await page.request.get((await download.getAttribute('href'))!)
	expect(response.status()).toBe(200)
	expect(response.headers()['content-disposition']).toMatch(/^attachment; filename="notes.txt"/)
	expect(await response.text()).toBe('reading list')

	// Only the sender's messages have a delete control; deleting asks first.
	await expect(
		thread(page)
			.getByRole('listitem')
			.filter({ hasText: `Welcome ${tag}` })
			.getByRole('link', { name: 'Delete' }),
	).toHaveCount(0)
	await thread(page)
		.getByRole('listitem')
		.filter({ hasText: `Photo ${tag}` })
		.getByRole('link', { name: 'Delete' })
		.click()
	const dialog = page.getByRole('dialog', { name: 'Delete this message?' })
	await expect(dialog).toBeVisible()
	await dialog.getByRole('button', { name: 'Delete' }).click()
	await expect(page.getByRole('dialog')).toHaveCount(0)
	await expect(thread(page).getByText(`Photo ${tag}`)).toHaveCount(0)
	const attachments = await db
		.selectFrom('message_attachments')
		.innerJoin('messages', 'messages.id', 'message_attachments.message_id')
		.select('message_attachments.name')
		.where('messages.sender_id', '=', student.id)
		.execute()
	expect(attachments).toEqual([{ name: 'notes.txt' }])
})

test('contacts: search, refresh and a new conversation', async ({ page, db, signInAs, createUser }) => {
	const tag = randomUUID().slice(0, 8)
	const instructor = await createUser({ role: 'instructor', name: `Ivy ${tag}` })
	await createUser({ name: `Fellow student ${tag}` })
	const student = await signInAs({ name: `Sam ${tag}` })
	await teach(db, student, [instructor])

	await page.goto('/dashboard/messages?tab=conversations')
	await page.getByLabel('Search contacts').fill(tag)
	await page.getByRole('button', { name: 'Search' }).click()
	const contacts = page.getByRole('list', { name: 'Contacts' })
	await expect(contacts.getByRole('link')).toHaveCount(1)
	await expect(contacts.getByRole('link', { name: new RegExp(`Ivy ${tag}`) })).toBeVisible()

	await page.getByRole('link', { name: 'Refresh' }).click()
	await expect(page.getByText('Contacts refreshed')).toBeVisible()

	await page.getByRole('link', { name: 'New conversation' }).click()
	const dialog = page.getByRole('dialog', { name: 'New conversation' })
	await expect(dialog.getByRole('link', { name: new RegExp(`Ivy ${tag}`) })).toBeVisible()
	await expect(dialog.getByText(`Fellow student ${tag}`)).toHaveCount(0)
	await dialog.getByRole('link', { name: new RegExp(`Ivy ${tag}`) }).click()
	await expect(page).toHaveURL(new RegExp(`with=${instructor.id}`))
	await expect(page.getByRole('heading', { level: 2, name: `Ivy ${tag}` })).toBeVisible()
})

test('announcements show a subject and a body', async ({ page, db, signInAs, createUser }) => {
	const tag = randomUUID().slice(0, 8)
	const admin = await createUser({ role: 'admin', name: `Ada ${tag}` })
	await signInAs()
	await db
		.insertInto('messages')
		.values({ sender_id: admin.id, receiver_id: null, is_announcement: true, content: `Schedule ${tag}: Class moves to 7 PM` })
		.execute()
	await page.goto('/dashboard/messages?tab=announcements')
	const announcement = page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name: `Schedule ${tag}` }) })
	await expect(announcement).toBeVisible()
	// Its own body: the same test in the other project posts one with the same text.
	await expect(announcement.getByText('Class moves to 7 PM')).toBeVisible()
})

// Live updates need JavaScript; without it the page is right on reload (covered above).
test("an admin's message reaches the student's open page live @js-only", async ({ page, browser, db, baseURL, signInAs, createUser }) => {
	test.slow()
	const tag = randomUUID().slice(0, 8)
	const admin = await createUser({ role: 'admin', name: `Ada ${tag}` })
	const instructor = await createUser({ role: 'instructor', name: `Ivy ${tag}` })
	const student = await signInAs({ name: `Sam ${tag}` })
	await teach(db, student, [instructor])
	const other = await openAs(browser, db, admin, baseURL!, true)
	try {
		const adminPage = other.page
		await adminPage.goto(`/dashboard/admin/messages?tab=direct&with=${student.id}`)
		await waitForHydration(adminPage)

		// The student looks at another conversation: the admin's message shows as unread.
		await page.goto(`/dashboard/messages?tab=conversations&with=${instructor.id}&q=${tag}`)
		const adminContact = page.getByRole('list', { name: 'Contacts' }).getByRole('link', { name: new RegExp(`Ada ${tag}`) })
		await expect(adminContact).toBeVisible()
		await expect(page.getByRole('heading', { name: `Ivy ${tag}` })).toBeVisible()
		await expect(adminContact.getByTestId('unread-count')).toHaveCount(0)

		await adminPage.getByLabel('Message', { exact: true }).fill(`First live ${tag}`)
		await adminPage.getByLabel('Message', { exact: true }).press('Enter')
		await expect(adminPage.getByText('Message sent')).toBeVisible()
		await expect(adminContact.getByTestId('unread-count')).toHaveText(/^1/)

		// Now the conversation is open: the next message appears in it without a reload.
		await adminContact.click()
		await expect(thread(page).getByText(`First live ${tag}`)).toBeVisible()
		await expect(adminContact.getByTestId('unread-count')).toHaveCount(0)
		await adminPage.getByLabel('Message', { exact: true }).fill(`Second live ${tag}`)
		await adminPage.getByRole('button', { name: 'Send' }).click()
		await expect(adminPage.getByText('Message sent')).toBeVisible()
		await expect(thread(page).getByText(`Second live ${tag}`)).toBeVisible()
		// Seen on screen, so marked read; the admin's page learns it too.
		await expect
			.poll(
				async () =>
					(await db.selectFrom('messages').select('read').where('content', '=', `Second live ${tag}`).executeTakeFirstOrThrow()).read,
			)
			.toBe(true)
		await expect(
			adminPage
				.getByRole('log')
				.getByRole('listitem')
				.filter({ hasText: `Second live ${tag}` })
				.getByText('Read'),
		).toBeVisible()
	} finally {
		await other.context.close()
	}
})

// The page renders, then opens its live stream: what was sent in between must not wait for a reload.
test('a message sent while the page is still opening its live stream shows once the stream opens @js-only', async ({
	page,
	db,
	signInAs,
	createUser,
}) => {
	const tag = randomUUID().slice(0, 8)
	const admin = await createUser({ role: 'admin', name: `Ada ${tag}` })
	const instructor = await createUser({ role: 'instructor', name: `Ivy ${tag}` })
	const student = await signInAs({ name: `Sam ${tag}` })
	await teach(db, student, [instructor])
	let openStream: () => void = () => {}
	const streamHeld = new Promise<void>((resolve) => (openStream = resolve))
	let streamRequested: () => void = () => {}
	const streamAsked = new Promise<void>((resolve) => (streamRequested = resolve))
	await page.route(
		(url) => url.pathname === '/events',
		async (route) => {
			streamRequested()
			await streamHeld
			await route.continue()
		},
	)
	await page.goto(`/dashboard/messages?tab=conversations&with=${instructor.id}&q=${tag}`)
	const adminContact = page.getByRole('list', { name: 'Contacts' }).getByRole('link', { name: new RegExp(`Ada ${tag}`) })
	await expect(adminContact).toBeVisible()
	await expect(page.getByRole('heading', { name: `Ivy ${tag}` })).toBeVisible()
	await streamAsked
	await expect(adminContact.getByTestId('unread-count')).toHaveCount(0)

	const sent = await db
		.insertInto('messages')
		.values({ sender_id: admin.id, receiver_id: student.id, content: `Meanwhile ${tag}` })
		.returning('id')
		.executeTakeFirstOrThrow()
	await publishEvent(db, { type: 'message.created', messageId: sent.id, senderId: admin.id, receiverId: student.id })
	openStream()
	await expect(adminContact.getByTestId('unread-count')).toHaveText(/^1/)
})

test('a refused send shows its toast on the page that answers it, and only there', async ({ page, db, signInAs, createUser }) => {
	const tag = randomUUID().slice(0, 8)
	const admin = await createUser({ role: 'admin', name: `Ada ${tag}` })
	const student = await signInAs({ name: `Sam ${tag}` })
	const otherStudent = await createUser({ name: `Other ${tag}` })
	await page.goto(`/dashboard/messages?with=${admin.id}`)

	// As a forged form would: the post names a student this student may not write to.
	await page.route('**/dashboard/messages*', async (route) => {
		const request = route.request()
		if (request.method() !== 'POST') return route.continue()
		return route.continue({
			postData: Buffer.from(request.postDataBuffer()!.toString('latin1').replace(admin.id, otherStudent.id), 'latin1'),
		})
	})
	await page.getByLabel('Message', { exact: true }).fill(`Hello ${tag}`)
	await page.getByRole('button', { name: 'Send' }).click()
	await expect(page.getByRole('status').getByText('Failed to send message')).toBeVisible()
	await expect(page.getByText('You cannot send messages to this person.').first()).toBeVisible()
	expect(await db.selectFrom('messages').select('id').where('sender_id', '=', student.id).execute()).toEqual([])

	await page.getByRole('link', { name: 'My Courses' }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'My Courses' })).toBeVisible()
	await expect(page.getByRole('status')).toHaveText('')
})

test('an image attachment that cannot be shown says so and keeps its download @js-only', async ({ page, db, signInAs, createUser }) => {
	const tag = randomUUID().slice(0, 8)
	const admin = await createUser({ role: 'admin', name: `Ada ${tag}` })
	const student = await signInAs({ name: `Sam ${tag}` })
	// Stored as a PNG, but its bytes are not an image (a damaged upload).
	const key = attachmentKey(admin.id, 'floor-plan.png')
	const { size } = await serverStorage.put(key, new TextEncoder().encode('not an image'), { contentType: 'image/png' })
	const message = await db
		.insertInto('messages')
		.values({ sender_id: admin.id, receiver_id: student.id, content: `Plan ${tag}` })
		.returning('id')
		.executeTakeFirstOrThrow()
	const attachment = await db
		.insertInto('message_attachments')
		.values({ message_id: message.id, name: 'floor-plan.png', type: 'image/png', size_bytes: size, storage_key: key })
		.returning('id')
		.executeTakeFirstOrThrow()

	await page.goto(`/dashboard/messages?with=${admin.id}`)
	await expect(thread(page).getByRole('alert').filter({ hasText: 'Failed to preview attachment' })).toBeVisible()
	await expect(thread(page).getByRole('link', { name: 'floor-plan.png' })).toHaveAttribute('href', `/files/attachments/${attachment.id}`)
})

test('a contact search closes a thread it filters out and opens what it found', async ({ page, db, signInAs, createUser }) => {
	const tag = randomUUID().slice(0, 8)
	const ivy = await createUser({ role: 'instructor', name: `Ivy ${tag}` })
	const otto = await createUser({ role: 'instructor', name: `Otto ${tag}` })
	const student = await signInAs({ name: `Sam ${tag}` })
	await teach(db, student, [ivy, otto])

	await page.goto(`/dashboard/messages?tab=conversations&with=${ivy.id}`)
	await expect(page.getByRole('heading', { level: 2, name: `Ivy ${tag}` })).toBeVisible()
	await page.getByLabel('Search contacts').fill(`Otto ${tag}`)
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page.getByRole('list', { name: 'Contacts' }).getByRole('link')).toHaveCount(1)
	await expect(page.getByRole('heading', { level: 2, name: `Otto ${tag}` })).toBeVisible()
	await expect(page.getByRole('heading', { level: 2, name: `Ivy ${tag}` })).toHaveCount(0)
})
