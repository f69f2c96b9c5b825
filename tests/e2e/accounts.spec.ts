import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { expect, test } from '../support/e2e.ts'

async function latestMailLink(db: Kysely<Database>, email: string, path: string) {
	const mail = await db
		.selectFrom('email_outbox')
		.select('text_body')
		.where('to_address', '=', email)
		.orderBy('id', 'desc')
		.executeTakeFirstOrThrow()
	const link = mail.text_body.split(/\s+/).find((word) => word.includes(path))
	if (!link) throw new Error(`No ${path} link in the mail to ${email}`)
	const url = new URL(link)
	return `${url.pathname}${url.search}`
}

test('an unconfirmed account is refused, confirms by the mailed link, logs in and out', async ({ page, createUser, db }) => {
	const user = await createUser({ name: 'Una Confirmed', confirmed: false })
	await page.goto('/login')
	await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible()
	await page.getByLabel('Email').fill(user.email)
	await page.getByLabel('Password', { exact: true }).fill(user.password)
	await page.getByRole('button', { name: 'Log in' }).click()
	await expect(
		page.getByText(
			'Your email address has not been confirmed yet. Please check your inbox and click the confirmation link before logging in.',
		),
	).toBeVisible()

	await page.getByRole('button', { name: 'Resend confirmation email' }).click()
	await expect(page.getByText('we have sent a new confirmation link')).toBeVisible()
	await page.goto(await latestMailLink(db, user.email, '/confirm-email'))
	await page.getByRole('button', { name: 'Confirm my email address' }).click()
	await expect(page.getByText('Your email address is confirmed. You can log in now.')).toBeVisible()

	await page.getByLabel('Email').fill(user.email)
	await page.getByLabel('Password', { exact: true }).fill(user.password)
	await page.getByRole('button', { name: 'Log in' }).click()
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByRole('heading', { name: 'Welcome, Una Confirmed!' })).toBeVisible()
	await expect(page.getByText('Login Successful')).toBeVisible()

	await page.getByRole('button', { name: 'Log Out' }).click()
	await expect(page).toHaveURL(/\/$/)
	await expect(page.getByText('Logged out successfully')).toBeVisible()
	await page.goto('/dashboard')
	await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard/)
	await expect(page.getByText('You need to be logged in to access that page. Please login first.')).toBeVisible()
})

test('the password can be shown and hidden without losing what was typed; without JavaScript no toggle is offered', async ({
	page,
	javaScriptEnabled,
}) => {
	await page.goto('/login')
	await page.getByLabel('Email').fill('typed@example.com')
	const password = page.getByLabel('Password', { exact: true })
	await password.fill('typed-password')
	await expect(password).toHaveAttribute('type', 'password')
	if (!javaScriptEnabled) {
		// A link or a post would render the form again, empty.
		await expect(page.getByRole('button', { name: /Show/ })).toHaveCount(0)
		await expect(page.getByRole('link', { name: /Show/ })).toHaveCount(0)
		return
	}
	await page.getByRole('button', { name: 'Show password' }).click()
	await expect(password).toHaveAttribute('type', 'text')
	await page.getByRole('button', { name: 'Hide password' }).click()
	await expect(password).toHaveAttribute('type', 'password')
	await expect(password).toHaveValue('typed-password')
	await expect(page.getByLabel('Email')).toHaveValue('typed@example.com')
})

test('forgot and reset: the old password stops working, the new one works, other sessions end', async ({
	page,
	browser,
	createUser,
	signIn,
	db,
}) => {
	const user = await createUser({ name: 'Reset Tester' })
	const otherBrowser = await browser.newContext()
	const otherPage = await otherBrowser.newPage()
	await signIn(user)
	const cookies = await page.context().cookies()
	await otherBrowser.addCookies(cookies)
	await page.context().clearCookies()

	await page.goto('/login')
	await page.getByRole('link', { name: 'Forgot password?' }).click()
	await page.getByLabel('Email').fill('not-an-email')
	await page.getByRole('button', { name: 'Send reset link' }).click()
	await expect(page.getByText('Please enter a valid email address')).toBeVisible()
	await page.getByLabel('Email').fill(user.email)
	await page.getByRole('button', { name: 'Send reset link' }).click()
	await expect(page.getByText('The link expires in 1 hour.', { exact: false })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Try a different email address' })).toBeVisible()

	await page.goto(await latestMailLink(db, user.email, '/reset-password'))
	await page.getByLabel('New Password', { exact: true }).fill('brand-new-password')
	await page.getByLabel('Confirm New Password', { exact: true }).fill('brand-new-passwore')
	await page.getByRole('button', { name: 'Update Password' }).click()
	await expect(page.getByText("Passwords don't match")).toBeVisible()
	await page.getByLabel('New Password', { exact: true }).fill('brand-new-password')
	await page.getByLabel('Confirm New Password', { exact: true }).fill('brand-new-password')
	await page.getByRole('button', { name: 'Update Password' }).click()
	await expect(page.getByText('Password updated successfully. Please log in with your new password.')).toBeVisible()

	await page.getByLabel('Email').fill(user.email)
	await page.getByLabel('Password', { exact: true }).fill(user.password)
	await page.getByRole('button', { name: 'Log in' }).click()
	await expect(page.getByText('Invalid email or password')).toBeVisible()
	await page.getByLabel('Password', { exact: true }).fill('brand-new-password')
	await page.getByRole('button', { name: 'Log in' }).click()
	await expect(page).toHaveURL(/\/dashboard$/)

	await otherPage.goto('/dashboard')
	await expect(otherPage).toHaveURL(/\/login/)
	await otherBrowser.close()
})

test('settings: name and password changes with every message of the spec', async ({ page, createUser, signIn }) => {
	const user = await createUser({ name: 'Settings Tester' })
	await signIn(user)
	await page.goto('/dashboard/settings')
	await expect(page.getByText('Email cannot be changed')).toBeVisible()
	await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(user.email)

	await page.getByLabel('Display Name').fill('Renamed Student')
	await page.getByRole('button', { name: 'Save Changes' }).click()
	await expect(page.getByText('Profile updated successfully')).toBeVisible()
	await expect(page.getByRole('banner').getByText('Renamed Student')).toBeVisible()

	const current = page.getByLabel('Current Password', { exact: true })
	const fresh = page.getByLabel('New Password', { exact: true })
	const confirm = page.getByLabel('Confirm New Password', { exact: true })
	await current.fill('definitely-wrong')
	await fresh.fill('another-password')
	await confirm.fill('another-password')
	await page.getByRole('button', { name: 'Update Password' }).click()
	await expect(page.getByText('Current password is incorrect')).toBeVisible()
	// Said twice, as the spec asks: in the form and in the toast (which sits first in the main content).
	await expect(page.getByRole('main').getByText('Password Change Failed')).toHaveCount(2)
	await expect(page.getByRole('status').getByText('Password Change Failed')).toBeVisible()

	await page.getByLabel('Current Password', { exact: true }).fill(user.password)
	await page.getByLabel('New Password', { exact: true }).fill('another-password')
	await page.getByLabel('Confirm New Password', { exact: true }).fill('another-passworD')
	await page.getByRole('button', { name: 'Update Password' }).click()
	await expect(page.getByText('New password and confirmation do not match.')).toBeVisible()

	await page.getByLabel('Current Password', { exact: true }).fill(user.password)
	await page.getByLabel('New Password', { exact: true }).fill('short')
	await page.getByLabel('Confirm New Password', { exact: true }).fill('short')
	await page.getByRole('button', { name: 'Update Password' }).click()
	await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible()

	await page.getByLabel('Current Password', { exact: true }).fill(user.password)
	await page.getByLabel('New Password', { exact: true }).fill('another-password')
	await page.getByLabel('Confirm New Password', { exact: true }).fill('another-password')
	await page.getByRole('button', { name: 'Update Password' }).click()
	await expect(page.getByText('Password changed successfully')).toBeVisible()
})

test('a student is kept out of the admin area', async ({ page, createUser, signIn }) => {
	const user = await createUser({ name: 'Curious Student' })
	await signIn(user)
	await page.goto('/dashboard/admin/users')
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText("You don't have permission to access this area")).toBeVisible()
})
