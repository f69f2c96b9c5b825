import { expect, test } from '../support/e2e-journeys.ts'

test('Settings: the email notification switches are saved and shown again', async ({ page, signInAs, db }) => {
	const student = await signInAs({ name: 'Sam Switch' })
	await page.goto('/dashboard/settings')
	const announcements = page.getByRole('switch', { name: 'Announcement emails' })
	const reminders = page.getByRole('switch', { name: 'Live-session reminders' })
	await expect(announcements).toBeChecked()
	await expect(reminders).toBeChecked()

	await announcements.uncheck()
	await page.getByRole('button', { name: 'Save Email Settings' }).click()
	await expect(page.getByText('Email settings saved')).toBeVisible()
	await page.goto('/dashboard/settings')
	await expect(page.getByRole('switch', { name: 'Announcement emails' })).not.toBeChecked()
	await expect(page.getByRole('switch', { name: 'Live-session reminders' })).toBeChecked()

	await page.getByRole('switch', { name: 'Announcement emails' }).check()
	await page.getByRole('switch', { name: 'Live-session reminders' }).uncheck()
	await page.getByRole('button', { name: 'Save Email Settings' }).click()
	await expect(page.getByText('Email settings saved')).toBeVisible()
	const profile = await db
		.selectFrom('profiles')
		.select(['email_announcements', 'email_reminders'])
		.where('id', '=', student.id)
		.executeTakeFirstOrThrow()
	expect(profile).toEqual({ email_announcements: true, email_reminders: false })
})
