import { expect, test } from '../support/e2e.ts'

test('the mailbox shows a mail as the school sends it: the HTML part in a sandboxed frame, and its plain text', async ({
	page,
	createUser,
	signIn,
}) => {
	const student = await createUser({ name: 'Mira Mailbox' })
	await page.goto('/forgot-password')
	await page.getByLabel('Email').fill(student.email)
	await page.getByRole('button', { name: 'Send reset link' }).click()
	await expect(page.getByText(/If an account exists/i)).toBeVisible()

	await signIn(await createUser({ role: 'admin' }))
	await page.goto(`/dev/mailbox?to=${encodeURIComponent(student.email)}`)
	const mail = page.getByRole('listitem').filter({ hasText: 'Reset your password' })
	const frame = mail.getByTitle('HTML part of Reset your password')
	await expect(frame).toHaveAttribute('sandbox', '')
	const html = page.frameLocator('iframe[title="HTML part of Reset your password"]')
	await expect(html.getByText('Real Estate Mentorship').first()).toBeVisible()
	await expect(html.getByRole('link', { name: 'Choose a new password' })).toHaveAttribute('href', /\/reset-password\?token=/)
	await expect(html.getByText('Hi Mira Mailbox,')).toBeVisible()

	const text = mail.getByRole('region', { name: 'Plain-text part' })
	await expect(text.getByText(/Hi Mira Mailbox,/)).toBeVisible()
	await expect(text.getByRole('link', { name: /\/reset-password\?token=/ })).toBeVisible()

	await expect(mail.getByRole('link', { name: 'Open the HTML part' })).toHaveAttribute('href', /^\/dev\/mailbox\/\d+\/html$/)
})
