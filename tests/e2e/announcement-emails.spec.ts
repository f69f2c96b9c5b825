import { randomUUID } from 'node:crypto'
import { insertCourse, insertEnrollment } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'

test("an announcement for one course reaches its students on the site and by e-mail; the mail's link unsubscribes without signing in", async ({
	page,
	db,
	createUser,
	signIn,
	context,
	javaScriptEnabled,
}) => {
	test.slow()
	const tag = randomUUID().slice(0, 8)
	const course = await insertCourse(db, { title: `Cohort ${tag}`, capacity: 10 })
	const admin = await createUser({ role: 'admin', name: `Ada ${tag}` })
	const enrolled = await createUser({ name: `Enrolled ${tag}` })
	const outsider = await createUser({ name: `Outsider ${tag}` })
	await insertEnrollment(db, { userId: enrolled.id, courseId: course.id })
	const subject = `Room change ${tag}`

	await signIn(admin)
	await page.goto('/dashboard/admin/messages/broadcast')
	await page.getByLabel('Subject').fill(subject)
	await page.getByLabel('Message', { exact: true }).fill('We meet in room 4.\n\nBring a pen.')
	await expect(page.getByRole('button', { name: 'Send to All Students' })).toBeVisible()
	// The button names the audience (docs/decisions/047); without JavaScript, Choose Audience reloads the form for it, keeping what was typed.
	await page.getByLabel('Send to').selectOption({ label: `Students of ${course.title}` })
	if (!javaScriptEnabled) await page.getByRole('button', { name: 'Choose Audience' }).click()
	await expect(page.getByLabel('Message', { exact: true })).toHaveValue('We meet in room 4.\n\nBring a pen.')
	await page.getByRole('button', { name: `Send to Students of ${course.title}` }).click()
	await expect(page.getByText('Announcement sent successfully!')).toBeVisible()
	const history = page.getByRole('region', { name: 'Sent announcements' })
	const sent = history.getByRole('article').filter({ has: page.getByRole('heading', { name: subject }) })
	await expect(sent.getByText(`For students of ${course.title}`)).toBeVisible()

	// The server's job queues the mail; only the enrolled student gets one.
	const mailTo = (address: string) =>
		db.selectFrom('email_outbox').selectAll().where('subject', '=', subject).where('to_address', '=', address).executeTakeFirst()
	await expect.poll(async () => Boolean(await mailTo(enrolled.email)), { timeout: 20_000 }).toBe(true)
	expect(await mailTo(outsider.email)).toBeUndefined()
	const mail = (await mailTo(enrolled.email))!
	expect(mail.html_body).toContain('We meet in room 4.')
	expect(mail.text_body).toContain('Bring a pen.')
	const link = /(http\S+\/unsubscribe\?token=\S+)/.exec(mail.text_body)?.[1]
	expect(link).toBeTruthy()
	const oneClickLink = link!.replace('/unsubscribe?', '/unsubscribe/one-click?')
	expect(mail.headers).toEqual({ 'List-Unsubscribe': `<${oneClickLink}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' })

	// On the site: the outsider does not see it, the enrolled student does.
	await signIn(outsider)
	await page.goto('/dashboard/messages?tab=announcements')
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	await expect(page.getByRole('heading', { name: subject })).toHaveCount(0)
	await signIn(enrolled)
	await page.goto('/dashboard/messages?tab=announcements')
	const received = page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name: subject }) })
	await expect(received.getByText(`For students of ${course.title}`)).toBeVisible()

	// The link, opened signed out, asks first; the button turns announcement e-mails off.
	await context.clearCookies()
	const linkPath = link!.slice(new URL(link!).origin.length)
	await page.goto(linkPath)
	await expect(page.getByText(`Stop emailing announcements to ${enrolled.email}?`)).toBeVisible()
	const announcementsSetting = () =>
		db.selectFrom('profiles').select('email_announcements').where('id', '=', enrolled.id).executeTakeFirstOrThrow()
	expect(await announcementsSetting()).toEqual({ email_announcements: true })
	await page.getByRole('button', { name: 'Unsubscribe' }).click()
	await expect(page.getByText('You are unsubscribed')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Email me announcements again' })).toBeVisible()
	expect(await announcementsSetting()).toEqual({ email_announcements: false })

	await page.getByRole('button', { name: 'Email me announcements again' }).click()
	await expect(page.getByText('You are subscribed again')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Unsubscribe' })).toBeVisible()
	expect(await announcementsSetting()).toEqual({ email_announcements: true })

	// What a mail client sends for its Unsubscribe button (RFC 8058): a POST from its own site, no cookie.
	const oneClick = await page.request.post(oneClickLink, {
		multipart: { 'List-Unsubscribe': 'One-Click' },
		headers: { Origin: 'https://mail.example', 'Sec-Fetch-Site': 'cross-site' },
	})
	expect(oneClick.status()).toBe(200)
	// The page itself is not exempt: a forged cross-site post of its form is refused.
	const forged = await page.request.post(linkPath, {
		form: { intent: 'resubscribe' },
		headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
	})
	expect(forged.status()).toBe(403)
	expect(await announcementsSetting()).toEqual({ email_announcements: false })
})

test('an unsubscribe link that is not ours says so and offers Settings', async ({ page }) => {
	await page.goto('/unsubscribe?token=not-a-token')
	await expect(page.getByText('This unsubscribe link is not valid.')).toBeVisible()
	await expect(page.getByRole('link', { name: 'Go to Settings' })).toBeVisible()
})
