import { randomUUID } from 'node:crypto'
import { insertCourse } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'

test('an admin invites an instructor for a course; the instructor sets a password from the mailed link and is signed in', async ({
	page,
	context,
	db,
	createUser,
	signIn,
}, testInfo) => {
	test.slow()
	// One project at a phone's width, the other at a desktop's.
	await page.setViewportSize(testInfo.project.name === 'js-disabled' ? { width: 390, height: 844 } : { width: 1280, height: 900 })
	const tag = randomUUID().slice(0, 8)
	const course = await insertCourse(db, { title: `Staffed ${tag}` })
	const admin = await createUser({ role: 'admin' })
	const email = `invited-${tag}@example.com`
	await signIn(admin)

	await page.goto('/dashboard/admin/users')
	await page.getByRole('link', { name: 'Invite User' }).click()
	const dialog = page.getByRole('dialog', { name: 'Invite User' })
	await expect(dialog).toBeVisible()
	await dialog.getByRole('button', { name: 'Send Invitation' }).click()
	await expect(page.getByText('Name must be at least 2 characters')).toBeVisible()

	await page.getByLabel('Name').fill(`Ivy ${tag}`)
	await page.getByLabel('Email').fill(email)
	await page.getByRole('radio', { name: 'Instructor' }).check()
	await page.getByRole('checkbox', { name: course.title }).check()
	await page.getByRole('button', { name: 'Send Invitation' }).click()
	await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible()

	await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`)
	const mail = page.getByRole('listitem').filter({ hasText: 'You are invited: set your password' })
	const link = mail.getByRole('region', { name: 'Plain-text part' }).getByRole('link', { name: /\/accept-invite\?token=/ })
	await expect(link).toBeVisible()
	const url = new URL((await link.getAttribute('href'))!)

	await context.clearCookies()
	await page.goto(`${url.pathname}${url.search}`)
	await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible()
	await page.getByLabel('Password', { exact: true }).fill('instructor password')
	await page.getByLabel('Confirm Password').fill('instructor password')
	await page.getByRole('button', { name: 'Set Password and Sign In' }).click()
	await expect(page.getByText('Your password is set and your account is ready.')).toBeVisible()
	await expect(page).toHaveURL(/\/dashboard$/)

	// The link worked once.
	await page.goto(`${url.pathname}${url.search}`)
	await expect(page.getByText(/invalid or has already been used/)).toBeVisible()

	await signIn(admin)
	await page.goto(`/dashboard/admin/courses/${course.id}/staff`)
	await expect(page.getByRole('heading', { level: 1, name: `Staff of ${course.title}` })).toBeVisible()
	const staff = page.getByRole('region', { name: 'Instructors of this course' })
	await expect(staff.getByRole('button', { name: `Remove Ivy ${tag}` })).toBeVisible()
})
