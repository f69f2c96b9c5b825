import { randomUUID } from 'node:crypto'
import { insertCourse } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'
import { acceptInvitation, invitationLink, inviteInstructor } from '../support/e2e-journeys.ts'

test('an admin invites an instructor for a course; the instructor sets a password from the mailed link and is signed in', async ({
	page,
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

	await inviteInstructor(page, { name: `Ivy ${tag}`, email, courseTitle: course.title })

	const url = await invitationLink(page, email)
	await acceptInvitation(page, url, 'instructor password')
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
