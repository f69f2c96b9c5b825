import type { Page } from '@playwright/test'
import { expect } from './e2e.ts'

/**
 * A course's card in the admin course grid, on whichever page it now sits (the page open, or one
 * after it). The grid lists twelve a page, newest first, and other tests add courses at the same
 * time: each pushes the older ones along, so a course a test made a moment ago may be on page 2.
 */
export async function findAdminCourseCard(page: Page, title: string) {
	const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) })
	const next = page.getByRole('navigation', { name: 'Pages of courses' }).getByRole('link', { name: 'Next page' })
	await expect(page.getByRole('heading', { name: 'Current Courses' })).toBeVisible()
	while ((await card.count()) === 0 && (await next.count()) > 0) {
		const shown = page.url()
		await next.click()
		await expect(page).not.toHaveURL(shown)
		await expect(page.getByRole('heading', { name: 'Current Courses' })).toBeVisible()
	}
	await expect(card).toBeVisible()
	return card
}
