import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { expect, test } from '../support/e2e-journeys.ts'

/** The offer is one site-wide setting and both projects share a database: one test at a time edits it. */
const OFFER_LOCK = 70_002

test('an admin edits the limited time offer and a visitor in another browser sees it', async ({
	page,
	browser,
	baseURL,
	javaScriptEnabled,
	db,
	signInAs,
}) => {
	test.slow()
	await db.connection().execute(async (connection) => {
		await sql`SELECT pg_advisory_lock(${OFFER_LOCK})`.execute(connection)
		try {
			// A visitor in another browser sees the current offer first (the anonymous home page may now be cached).
			const visitor = await browser.newContext({ baseURL, javaScriptEnabled })
			const visitorPage = await visitor.newPage()
			await visitorPage.goto('/')
			await expect(visitorPage.getByRole('region', { name: 'Limited Time Offer' })).toBeVisible()

			await signInAs({ role: 'admin' })
			const discount = `Save $${Math.floor(Math.random() * 900) + 100} today ${randomUUID().slice(0, 6)}`

			await page.goto('/')
			const offer = page.getByRole('region', { name: 'Limited Time Offer' })
			await expect(offer).toBeVisible()
			await page.getByRole('link', { name: 'Edit limited time offer' }).click()
			const editor = page.getByRole('region', { name: 'Edit Limited Time Offer' })
			await expect(editor.getByLabel('Title')).toHaveValue('Limited Time Offer')

			// Cancel leaves edit mode without saving.
			await editor.getByLabel('Discount').fill('Not saved')
			await editor.getByRole('link', { name: 'Cancel' }).click()
			await expect(page.getByRole('region', { name: 'Edit Limited Time Offer' })).toHaveCount(0)
			await expect(offer.getByText('Not saved')).toHaveCount(0)

			await page.getByRole('link', { name: 'Edit limited time offer' }).click()
			const reopened = page.getByRole('region', { name: 'Edit Limited Time Offer' })
			await reopened.getByLabel('Items').fill('')
			await reopened.getByRole('button', { name: 'Save' }).click()
			await expect(page.getByRole('region', { name: 'Edit Limited Time Offer' }).getByText('Add at least one item')).toBeVisible()

			const form = page.getByRole('region', { name: 'Edit Limited Time Offer' })
			await form.getByLabel('Discount').fill(discount)
			await form.getByLabel('Items').fill('Live deal reviews\nA private investor forum')
			await form.getByLabel('Action label').fill('Save My Seat')
			await form.getByLabel('Note').fill('Only this week.')
			await form.getByRole('button', { name: 'Save' }).click()
			await expect(page.getByText('Limited time offer saved')).toBeVisible()
			await expect(offer.getByText(discount)).toBeVisible()

			await visitorPage.reload()
			const seen = visitorPage.getByRole('region', { name: 'Limited Time Offer' })
			await expect(seen.getByText(discount)).toBeVisible()
			await expect(seen.getByRole('listitem')).toHaveText(['Live deal reviews', 'A private investor forum'])
			await expect(seen.getByRole('link', { name: 'Save My Seat' })).toBeVisible()
			await expect(seen.getByText('Only this week.')).toBeVisible()
			await expect(visitorPage.getByRole('link', { name: 'Edit limited time offer' })).toHaveCount(0)
			await visitor.close()
		} finally {
			// Back to the default offer for every other test.
			await db.deleteFrom('site_settings').where('key', '=', 'limited_time_offer').execute()
			await sql`SELECT pg_advisory_unlock(${OFFER_LOCK})`.execute(connection)
		}
	})
})

test('after a removal, Add Limited Time Offer starts from the offer that was removed', async ({ page, db, signInAs }) => {
	await db.connection().execute(async (connection) => {
		await sql`SELECT pg_advisory_lock(${OFFER_LOCK})`.execute(connection)
		try {
			await signInAs({ role: 'admin' })
			const title = `Summer Special ${randomUUID().slice(0, 6)}`
			await page.goto('/?edit-offer=1')
			const editor = page.getByRole('region', { name: 'Edit Limited Time Offer' })
			await editor.getByLabel('Title').fill(title)
			await editor.getByRole('button', { name: 'Save' }).click()
			await expect(page.getByText('Limited time offer saved')).toBeVisible()

			await page.getByRole('button', { name: 'Remove limited time offer' }).click()
			await expect(page.getByText('Limited time offer removed')).toBeVisible()
			await page.getByRole('link', { name: 'Add Limited Time Offer' }).click()
			const adding = page.getByRole('region', { name: 'Add Limited Time Offer' })
			await expect(adding.getByLabel('Title')).toHaveValue(title)
			await expect(adding.getByLabel('Discount')).toHaveValue('Save $500 when you enroll in the next cohort')
		} finally {
			await db.deleteFrom('site_settings').where('key', '=', 'limited_time_offer').execute()
			await sql`SELECT pg_advisory_unlock(${OFFER_LOCK})`.execute(connection)
		}
	})
})
