/**
 * Pay in instalments with Stripe (issue 41, docs/decisions/062), with JavaScript on and off, on a
 * production server of the test's own configured for Stripe and pointed at the Stripe stand-in
 * (the real SDK over HTTP), at 390 px: the purchase form sends the buyer to Stripe's checkout for a
 * subscription; Stripe's signed events enrol, then fail an instalment; after the grace days the
 * dashboard says access paused; "Update card and pay" leads to the plan's page, whose button opens
 * Stripe's customer portal (the page's Content-Security-Policy lets the form go there); Stripe's
 * retry pays, and access is back at once. Stripe's own pages are stood in for by the browser route.
 * The admin's pause, resume and cancel the rest on a Stripe plan reach its subscription (decision
 * 063's amendment), and "mark paid outside" is not offered there.
 */
import { randomUUID } from 'node:crypto'
import type { BrowserContext, Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import { pauseOverduePlans } from '#app/models/payments/plan-purchases.server.ts'
import type { Database } from '#db/types.ts'
import { insertMaterialItem, insertUser, insertWeek } from '#tests/support/fixtures.ts'
import { insertPlanCourse } from '#tests/support/plan-course.ts'
import type { PrivateServer } from '#tests/support/private-server.ts'
import { type StripeStandIn, startStripeServer } from '#tests/support/stripe-server.ts'
import { expect, test } from '../support/e2e.ts'
import { sessionCookie } from '../support/e2e-journeys.ts'
import { type PrivateServerWithDatabase, startServerWithDatabase } from '../support/private-server-database.ts'

/** What the browser shows for a page of Stripe's: a plain, valid, accessible document. */
function stripePage(title: string) {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1></main></body></html>`
}

test.describe('a plan collected by Stripe', () => {
	let stripe: StripeStandIn
	let server: PrivateServer
	let db: Kysely<Database>
	let stopServer: PrivateServerWithDatabase['stop'] | undefined

	test.beforeAll(async () => {
		test.setTimeout(120_000)
		stripe = await startStripeServer()
		const env = { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url }
		;({ server, db, stop: stopServer } = await startServerWithDatabase(env))
	})

	test.afterAll(async () => {
		await stopServer?.()
		await stripe?.stop()
	})

	async function deliver(event: { body: string; signature: string }) {
		const response = await fetch(`${server.url}/webhooks/stripe`, {
			method: 'POST',
			body: event.body,
			headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature },
		})
		expect(response.status).toBe(200)
	}

	async function signInAs(context: BrowserContext, userId: string) {
		await context.clearCookies()
		await context.addCookies([await sessionCookie(db, userId, server.url)])
	}

	/** The signed-in student chooses the plan, is sent to Stripe's checkout, pays, and Stripe says so: the subscription's id. */
	async function buyOnPlan(page: Page, course: { id: number }) {
		await page.route('https://checkout.stripe.com/**', (route) =>
			route.fulfill({ contentType: 'text/html', body: stripePage('Stripe Checkout') }),
		)
		await page.goto(`${server.url}/courses/${course.id}/enroll`)
		await page
			.getByRole('group', { name: 'How would you like to pay?' })
			.getByRole('radio', { name: /Payment plan/ })
			.check()
		await page.getByRole('checkbox', { name: /I have read and agree/ }).check()
		await page.getByRole('button', { name: 'Proceed to Payment' }).click()
		await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)
		const sessionId = new URL(page.url()).pathname.split('/').at(-1)!
		expect(stripe.sessions.get(sessionId)).toMatchObject({ mode: 'subscription', amount_total: 86_668 })
		const subscriptionId = stripe.pay(sessionId).subscription!
		await deliver(stripe.webhook('checkout.session.completed', sessionId))
		return subscriptionId
	}

	test('a student buys on a 3-instalment plan through Stripe, a failed instalment pauses access, the customer portal and a retry restore it', async ({
		page,
		context,
	}) => {
		// A phone's width: the plan's page and its button to Stripe work there as on a desktop.
		await page.setViewportSize({ width: 390, height: 844 })
		const title = `Stripe Instalments ${randomUUID().slice(0, 8)}`
		const { course } = await insertPlanCourse(db, { title })
		const week = await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Financing Deals' })
		await insertMaterialItem(db, { courseId: course.id, weekId: week, title: 'Lender Checklist', fileName: 'lenders.pdf' })
		const student = await insertUser(db, { email: `stripe-plan-${randomUUID().slice(0, 8)}@example.com`, name: 'Stella Stripe' })
		await signInAs(context, student)
		await page.route('https://billing.stripe.com/**', (route) =>
			route.fulfill({ contentType: 'text/html', body: stripePage('Stripe customer portal') }),
		)
		// The buyer pays on Stripe's page; Stripe says so, then the next instalment fails.
		const subscriptionId = await buyOnPlan(page, course)
		await deliver(stripe.event('invoice.payment_failed', stripe.billNext(subscriptionId, 'failed')!))
		const plan = await db.selectFrom('plan_purchases').select(['id', 'status']).where('course_id', '=', course.id).executeTakeFirstOrThrow()
		expect(plan.status).toBe('past_due')

		const materials = page.getByRole('region', { name: 'Week 1: Financing Deals' })
		await page.goto(`${server.url}/dashboard`)
		await expect(page.getByText(`A payment for ${title} failed`)).toBeVisible()
		await expect(materials.getByText('Lender Checklist')).toBeVisible()

		// The clock moves past the grace days: the pause job's run pauses the plan.
		await pauseOverduePlans(db, new Date(Date.now() + 8 * 86_400_000))
		await page.goto(`${server.url}/dashboard`)
		await expect(page.getByText(`Access to ${title} is paused`)).toBeVisible()
		await expect(materials).toHaveCount(0)

		await page.getByRole('link', { name: `Update card and pay for ${title}` }).click()
		await expect(page.getByRole('heading', { name: 'Update Card and Pay' })).toBeVisible()
		await expect(page.getByText('$866.66 is overdue.')).toBeVisible()
		await page.getByRole('button', { name: 'Update card on Stripe' }).click()
		await expect(page).toHaveURL(/^https:\/\/billing\.stripe\.com\/p\/session\/bps_/)
		expect(stripe.portalSessions.at(-1)).toMatchObject({
			customer: stripe.subscriptions.get(subscriptionId)!.customer,
			return_url: `${server.url}/dashboard`,
		})

		// With the new card Stripe's retry pays the invoice: access is back at once.
		const failed = stripe.invoices.get(stripe.subscriptions.get(subscriptionId)!.latest_invoice!)!
		await deliver(stripe.event('invoice.paid', stripe.payInvoice(failed.id)))
		await page.goto(`${server.url}/dashboard`)
		await expect(page.getByText(`Access to ${title} is paused`)).toHaveCount(0)
		await expect(materials.getByText('Lender Checklist')).toBeVisible()
	})

	test('the admin pauses, resumes and cancels the rest of a Stripe plan, and Stripe follows each; paid outside is not offered', async ({
		page,
		context,
	}) => {
		await page.setViewportSize({ width: 390, height: 844 })
		const { course } = await insertPlanCourse(db, { title: `Stripe Plan Admin ${randomUUID().slice(0, 8)}` })
		const student = await insertUser(db, { email: `stripe-admin-${randomUUID().slice(0, 8)}@example.com`, name: 'Sid Subscriber' })
		await signInAs(context, student)
		const subscriptionId = await buyOnPlan(page, course)

		await signInAs(context, await insertUser(db, { role: 'admin' }))
		await page.goto(`${server.url}/dashboard/admin/courses/${course.id}/plans`)
		const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Sid Subscriber' }) })
		await expect(
			card.getByText('Stripe collects this plan, so an instalment cannot be marked paid outside', { exact: false }),
		).toBeVisible()
		await expect(card.getByRole('button', { name: /Mark paid outside/ })).toHaveCount(0)

		await card.getByRole('button', { name: 'Pause' }).click()
		await expect(card.getByText('Paused by an admin')).toBeVisible()
		expect(stripe.subscriptions.get(subscriptionId)?.pause_collection).toEqual({ behavior: 'keep_as_draft', resumes_at: null })
		await card.getByRole('button', { name: 'Resume' }).click()
		await expect(card.getByText('In good standing')).toBeVisible()
		expect(stripe.subscriptions.get(subscriptionId)?.pause_collection).toBeNull()

		await card.getByRole('link', { name: 'Cancel the rest' }).click()
		await page.getByRole('dialog', { name: 'Cancel the Rest of the Plan' }).getByRole('button', { name: 'Cancel the Rest' }).click()
		await expect(page.getByText('The rest of the plan is cancelled. The student stays enrolled.')).toBeVisible()
		expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled')
		expect(() => stripe.billNext(subscriptionId, 'paid')).toThrow('bills no more')
	})
})
