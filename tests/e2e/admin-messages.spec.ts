import { randomUUID } from 'node:crypto'
import { expect, openAs, test } from '../support/e2e-journeys.ts'
import { fileOverUploadLimit } from '../support/large-file.ts'

test('non-admins are turned away with the spec message', async ({ page, signInAs }) => {
	await signInAs()
	await page.goto('/dashboard/admin/messages')
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText("You don't have permission to access this page")).toBeVisible()
})

test('signed-out visitors are sent to log in with the spec message', async ({ page }) => {
	await page.goto('/dashboard/admin/messages')
	await expect(page).toHaveURL(/\/login\?redirectTo=/)
	await expect(page.getByText('You must be logged in to access this page')).toBeVisible()
})

test('a broadcast reaches every student', async ({ page, browser, db, baseURL, createUser, signIn, javaScriptEnabled }) => {
	test.slow()
	const tag = randomUUID().slice(0, 8)
	// A subject may hold a colon: it is stored apart from the message.
	const subject = `Kickoff ${tag}: Week 1`
	const admin = await createUser({ role: 'admin', name: `Ada ${tag}` })
	const [first, second] = [await createUser({ name: `First ${tag}` }), await createUser({ name: `Second ${tag}` })]

	// The first student has Announcements open in another browser while the admin writes.
	const { context: studentContext, page: studentPage } = await openAs(browser, db, first, baseURL!, javaScriptEnabled)
	try {
		await studentPage.goto('/dashboard/messages?tab=announcements')
		if (javaScriptEnabled) await studentPage.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')

		await signIn(admin)
		await page.goto('/dashboard/admin/messages')
		await expect(page.getByRole('heading', { level: 1, name: 'Student Communications' })).toBeVisible()
		await expect(page.getByRole('link', { name: 'Broadcast Announcements' })).toHaveAttribute('aria-current', 'page')

		await page.getByLabel('Subject').fill(subject)
		await page.getByRole('button', { name: 'Send to All Students' }).click()
		await expect(page.getByText('Please fill in both subject and message')).toBeVisible()

		await page.getByLabel('Message', { exact: true }).fill('We start on Monday at 6 PM')
		await page
			.getByLabel('Attachment (optional)')
			.setInputFiles({ name: 'syllabus.txt', mimeType: 'text/plain', buffer: Buffer.from('week 1') })
		await page.getByRole('button', { name: 'Send to All Students' }).click()
		await expect(page.getByText('Announcement with file sent successfully')).toBeVisible()
		const history = page.getByRole('region', { name: 'Sent announcements' })
		await expect(history.getByRole('heading', { name: subject })).toBeVisible()
		await expect(page.getByText(/^\d+ announcement\(s\) loaded$/)).toBeVisible()
		const stored = await db
			.selectFrom('messages')
			.select(['subject', 'content'])
			.where('sender_id', '=', admin.id)
			.executeTakeFirstOrThrow()
		expect(stored).toEqual({ subject, content: 'We start on Monday at 6 PM' })

		if (!javaScriptEnabled) await studentPage.reload()
		const announcement = studentPage.getByRole('article').filter({ has: studentPage.getByRole('heading', { level: 3, name: subject }) })
		await expect(announcement).toBeVisible()
		await expect(announcement.getByRole('link', { name: 'syllabus.txt' })).toBeVisible()

		await signIn(second)
		await page.goto('/dashboard/messages?tab=announcements')
		const received = page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name: subject }) })
		await expect(received).toBeVisible()
		// This announcement's body: the same test in the other project sends one with the same text.
		await expect(received.getByText('We start on Monday at 6 PM')).toBeVisible()
	} finally {
		await studentContext.close()
	}
})

test('direct messages: pick a student and write to them', async ({ page, db, signInAs, createUser }) => {
	const tag = randomUUID().slice(0, 8)
	await signInAs({ role: 'admin' })
	const student = await createUser({ name: `Dana ${tag}` })
	await page.goto('/dashboard/admin/messages?tab=direct')
	await expect(page.getByText('Select a student')).toBeVisible()
	await expect(page.getByText('Choose a student to start a conversation')).toBeVisible()

	await page.getByLabel('Search contacts').fill(`Dana ${tag}`)
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page).toHaveURL(new RegExp(`[?&]q=Dana(\\+|%20)${tag}`))
	await page
		.getByRole('list', { name: 'Students' })
		.getByRole('link', { name: new RegExp(`Dana ${tag}`) })
		.click()
	await expect(page.getByRole('heading', { level: 2, name: `Dana ${tag}` })).toBeVisible()
	await page.getByLabel('Message', { exact: true }).fill(`Hello Dana ${tag}`)
	await page.getByRole('button', { name: 'Send' }).click()
	await expect(page.getByText('Message sent')).toBeVisible()
	await expect(page.getByRole('log').getByText(`Hello Dana ${tag}`)).toBeVisible()
	const rows = await db.selectFrom('messages').select('content').where('receiver_id', '=', student.id).execute()
	expect(rows).toEqual([{ content: `Hello Dana ${tag}` }])
})

test('contact form submissions are listed and can be marked read', async ({ page, db, signInAs }) => {
	const tag = randomUUID().slice(0, 8)
	await db
		.insertInto('contact_submissions')
		.values({
			name: `Visitor ${tag}`,
			email: `visitor-${tag}@example.com`,
			phone: '+1 404 555 0100',
			message: `When does it start? ${tag}`,
		})
		.execute()
	await signInAs({ role: 'admin' })
	await page.goto('/dashboard/admin/messages?tab=contact')
	const item = page.getByRole('article', { name: `Message from Visitor ${tag}` })
	await expect(item.getByText(`visitor-${tag}@example.com`)).toBeVisible()
	await expect(item.getByText('+1 404 555 0100')).toBeVisible()
	await expect(item.getByText(`When does it start? ${tag}`)).toBeVisible()
	await expect(item.getByText('Unread')).toBeVisible()
	await item.getByRole('button', { name: 'Mark as read' }).click()
	await expect(item.getByText('Unread')).toHaveCount(0)
	await expect(item.getByRole('button', { name: 'Mark as read' })).toHaveCount(0)
})

test('direct messages: a search that filters out the open student closes their thread', async ({ page, signInAs, createUser }) => {
	const tag = randomUUID().slice(0, 8)
	await signInAs({ role: 'admin' })
	const dana = await createUser({ name: `Dana ${tag}` })
	await page.goto(`/dashboard/admin/messages/direct?with=${dana.id}`)
	await expect(page.getByRole('heading', { level: 2, name: `Dana ${tag}` })).toBeVisible()

	await page.getByLabel('Search contacts').fill(`Nobody ${tag}`)
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page.getByText('No students match your search.')).toBeVisible()
	await expect(page.getByRole('heading', { level: 2, name: `Dana ${tag}` })).toHaveCount(0)
	await expect(page.getByText('Select a student')).toBeVisible()
})

test('an attachment over the limit is refused with the spec text, before it is sent when JavaScript runs, and nothing typed is lost', async ({
	page,
	signInAs,
	createUser,
	javaScriptEnabled,
}) => {
	test.slow()
	const tag = randomUUID().slice(0, 8)
	const student = await createUser({ name: `Tess ${tag}` })
	await signInAs({ role: 'admin' })
	const posts: string[] = []
	page.on('request', (request) => {
		if (request.method() === 'POST') posts.push(request.url())
	})

	await page.goto('/dashboard/admin/messages/broadcast')
	await page.getByLabel('Subject').fill(`Recording ${tag}`)
	await page.getByLabel('Message', { exact: true }).fill('Here is the class recording.')
	await page.getByLabel('Attachment (optional)').setInputFiles(await fileOverUploadLimit())
	await page.getByRole('button', { name: 'Send to All Students' }).click()
	await expect(page.getByRole('main').getByText('File too large. Please select a smaller file.', { exact: true })).toBeVisible()
	await expect(page.getByLabel('Subject')).toHaveValue(`Recording ${tag}`)
	await expect(page.getByLabel('Message', { exact: true })).toHaveValue('Here is the class recording.')

	await page.goto(`/dashboard/admin/messages/direct?with=${student.id}`)
	await page.getByLabel('Message', { exact: true }).fill(`The recording, ${tag}`)
	await page.getByLabel('Attachment (optional)').setInputFiles(await fileOverUploadLimit())
	await page.getByRole('button', { name: 'Send' }).click()
	await expect(page.getByRole('main').getByText('File too large. Please select a smaller file.', { exact: true })).toBeVisible()
	await expect(page.getByLabel('Message', { exact: true })).toHaveValue(`The recording, ${tag}`)

	// With JavaScript the browser refused both files itself: no upload was started.
	if (javaScriptEnabled) expect(posts).toEqual([])
})
