/**
 * Where dialogs and toasts land. A browser without scripts or styles (lynx, w3m, Dillo) shows a
 * page in document order, so a dialog route and a toast come first in the main content; without
 * JavaScript a toast is a banner in the flow that never covers a control and hides without a
 * reload; with JavaScript it floats at the bottom as before.
 */
import { randomUUID } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { insertCourse, insertEnrollment, insertUser } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'

/** The first of these in document order inside <main>. */
function firstInMain(page: Page, selectors: string[]) {
	return page.locator(selectors.map((selector) => `main ${selector}`).join(', ')).first()
}

async function overlaps(a: Locator, b: Locator) {
	const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()]
	if (!boxA || !boxB) throw new Error('an element has no box')
	return boxA.x < boxB.x + boxB.width && boxB.x < boxA.x + boxA.width && boxA.y < boxB.y + boxB.height && boxB.y < boxA.y + boxA.height
}

test('a dialog route comes before the page behind it in the main content', async ({ page, db, createUser, signIn }) => {
	const course = await insertCourse(db, { title: `Dialog First ${randomUUID().slice(0, 8)}`, capacity: 5 })
	const admin = await createUser({ role: 'admin' })
	await signIn(admin)

	// A nested dialog route (the Outlet of the courses page).
	await page.goto(`/dashboard/admin/courses/${course.id}/delete`)
	await expect(page.getByRole('dialog', { name: 'Delete Course' })).toBeVisible()
	await expect(firstInMain(page, ['[role="dialog"]', 'h1'])).toHaveAttribute('role', 'dialog')

	// A `?dialog=` state of a page.
	await page.goto('/dashboard/admin/courses?dialog=raw')
	await expect(page.getByRole('dialog', { name: 'Raw Courses Data' })).toBeVisible()
	await expect(firstInMain(page, ['[role="dialog"]', 'h1'])).toHaveAttribute('role', 'dialog')

	// A public page's dialog ('Secure Your Spot Now').
	await page.goto(`/courses/${course.id}?dialog=purchase`)
	await expect(page.getByRole('dialog', { name: 'Secure Your Spot' })).toBeVisible()
	await expect(firstInMain(page, ['[role="dialog"]', 'h1'])).toHaveAttribute('role', 'dialog')
})

for (const width of [1280, 390]) {
	test(`a toast at ${width} px comes first in the main content and never covers the composer's Send button`, async ({
		page,
		createUser,
		signIn,
		javaScriptEnabled,
	}) => {
		await page.setViewportSize({ width, height: 800 })
		const tag = randomUUID().slice(0, 8)
		const admin = await createUser({ role: 'admin', name: `Ada ${tag}` })
		const student = await createUser({ name: `Sam ${tag}` })
		await signIn(admin)
		await page.goto(`/dashboard/admin/messages/direct?with=${student.id}`)
		await page.getByLabel('Message', { exact: true }).fill(`Hello ${tag}`)
		await page.getByRole('button', { name: 'Send' }).click()

		const toast = page.locator('[data-toast="success"]')
		await expect(toast).toContainText('Message sent')
		await expect(firstInMain(page, ['[data-toast]', 'h1'])).toHaveAttribute('data-toast', 'success')
		const send = page.getByRole('button', { name: 'Send' })
		await send.scrollIntoViewIfNeeded()

		if (javaScriptEnabled) {
			// As before: it floats at the bottom of the window and can be dismissed.
			await expect(page.getByRole('status').filter({ has: toast })).toHaveCSS('position', 'fixed')
			await page.getByRole('button', { name: 'Dismiss notification' }).click()
			await expect(toast).toBeHidden()
			return
		}
		await expect(page.getByRole('status').filter({ has: toast })).toHaveCSS('position', 'static')
		expect(await overlaps(toast, send)).toBe(false)
		// Its × hides it without a reload, so nothing typed meanwhile is lost.
		await page.getByLabel('Message', { exact: true }).fill(`Still here ${tag}`)
		await toast.locator('label').click()
		await expect(toast).toBeHidden()
		await expect(page.getByLabel('Message', { exact: true })).toHaveValue(`Still here ${tag}`)
	})
}

test('a person typing in a dialog before its scripts arrive keeps their place when they do', { tag: '@js-only' }, async ({ page, db }) => {
	const course = await insertCourse(db, { title: `Slow Phone ${randomUUID().slice(0, 8)}`, capacity: 1 })
	await insertEnrollment(db, { userId: await insertUser(db), courseId: course.id })
	// The scripts of the dialog's document wait until the person has started typing, as on a slow phone.
	let releaseScripts = () => {}
	const scriptsHeld = new Promise<void>((resolve) => {
		releaseScripts = resolve
	})
	await page.route(/\.js(\?.*)?$/, async (route) => {
		await scriptsHeld
		await route.continue()
	})
	// The list of programs is sent without scripts; its Join Waitlist loads the dialog's document, which has them.
	await page.goto('/courses')
	await page.getByRole('link', { name: `Join Waitlist for ${course.title}` }).click()
	const dialog = page.getByRole('dialog', { name: 'Join Our Waitlist' })
	await dialog.getByLabel('Full Name').fill('Vera Visitor')
	await dialog.getByLabel('Email').click()
	await page.keyboard.type('vera@')
	releaseScripts()
	await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
	await page.keyboard.type('example.com')
	await expect(dialog.getByLabel('Email')).toHaveValue('vera@example.com')
	await expect(dialog.getByLabel('Full Name')).toHaveValue('Vera Visitor')
})
