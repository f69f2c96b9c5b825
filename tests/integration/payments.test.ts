import { RouterContextProvider } from 'react-router'
import { describe, expect, test, vi } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import { claimSeat, expireCheckout, fulfil, openCheckout, sweepExpiredCheckouts } from '#app/models/payments/payments.server.ts'
import { action as enrollAction } from '#app/routes/register/enroll.tsx'
import { createPayments, setPayments } from '#app/services/payments/index.server.ts'
import { StripePayments, stripeApiAddress } from '#app/services/payments/stripe.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { parseEnv } from '#app/utils/env.server.ts'
import { confirmedBuyer, holdAndOpenCheckout } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse } from '#tests/support/fixtures.ts'
import { mailsStartingWith } from '#tests/support/outbox.ts'
import { formRequest, sessionCookieFor, settle } from '#tests/support/requests.ts'
import { useStripeStandIn } from '#tests/support/stripe-stand-in.ts'

const t = useTestDatabase()
const APP_URL = 'http://localhost:3000'
const { stripe, payments: stripePayments } = useStripeStandIn()

let sequence = 0
async function course(values: { capacity?: number; registration_fee?: number } = {}) {
	return insertCourse(t.db, { title: `Course ${++sequence}`, capacity: 5, registration_fee: 250000, ...values })
}

async function enrollments(courseId: number) {
	return t.db.selectFrom('enrollments').select(['id', 'user_id', 'status']).where('course_id', '=', courseId).execute()
}

/** The enrollment receipts queued for an address. */
function receipts(email: string) {
	return mailsStartingWith(t.db, email, 'Enrollment confirmed: ')
}

async function payment(sessionId: string) {
	return t.db.selectFrom('registration_payments').selectAll().where('checkout_session_id', '=', sessionId).executeTakeFirstOrThrow()
}

describe('choosing the adapter', () => {
	test('STRIPE_SECRET_KEY selects Stripe; without it the built-in test checkout', () => {
		const base = { NODE_ENV: 'test', SESSION_SECRET: 'x' }
		expect(createPayments(parseEnv(base))).toBeInstanceOf(TestCheckoutPayments)
		const withStripe = parseEnv({ ...base, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' })
		expect(createPayments(withStripe)).toBeInstanceOf(StripePayments)
	})

	test('STRIPE_API_URL is split into the host, port and protocol the SDK takes', () => {
		expect(stripeApiAddress('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' })
		expect(stripeApiAddress('https://api.stripe.com')).toEqual({ host: 'api.stripe.com', port: 443, protocol: 'https' })
	})
})

describe('the Stripe adapter against the local stand-in, with the real SDK', () => {
	test('creates a Checkout Session priced from the database, with the customer, metadata and expiry of the hold', async () => {
		const buyer = await confirmedBuyer(t.db)
		const { id: courseId, title } = await course({ registration_fee: 123_400 })
		const checkout = await holdAndOpenCheckout(t.db, stripePayments, { user: buyer, courseId: courseId, appUrl: APP_URL })
		expect(checkout.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)

		const create = stripe.requests.findLast((request) => request.method === 'POST' && request.path === '/v1/checkout/sessions')!
		expect(create.headers['idempotency-key']).toMatch(/^checkout-hold-/)
		expect(create.body).toMatchObject({
			mode: 'payment',
			customer_email: buyer.email,
			client_reference_id: buyer.id,
			metadata: { userId: buyer.id, courseId: String(courseId) },
			line_items: { 0: { quantity: '1', price_data: { currency: 'usd', unit_amount: '123400', product_data: { name: title } } } },
			success_url: `${APP_URL}/registration-complete?session_id={CHECKOUT_SESSION_ID}`,
			cancel_url: `${APP_URL}/courses/${courseId}`,
		})
		const hold = await t.db
			.selectFrom('seat_holds')
			.selectAll()
			.where('checkout_session_id', '=', checkout.sessionId)
			.executeTakeFirstOrThrow()
		expect(Number(create.body.expires_at)).toBe(Math.floor(hold.expires_at.getTime() / 1000))
		expect(await payment(checkout.sessionId)).toMatchObject({
			status: 'pending',
			provider: 'stripe',
			amount_cents: 123_400,
			user_id: buyer.id,
		})

		const retrieved = await stripePayments.retrieveCheckoutSession(checkout.sessionId)
		expect(retrieved).toMatchObject({ id: checkout.sessionId, status: 'open', paymentStatus: 'unpaid', amountTotal: 123_400 })
		await stripePayments.expireCheckoutSession(checkout.sessionId)
		expect((await stripePayments.retrieveCheckoutSession(checkout.sessionId))?.status).toBe('expired')
		expect(await stripePayments.retrieveCheckoutSession('cs_test_unknown')).toBeNull()
	})

	test('a refused session creation releases the hold at once and reports the spec message', async () => {
		const buyer = await confirmedBuyer(t.db)
		const { id: courseId } = await course({ capacity: 1 })
		const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
		stripe.refuseNextCreate()
		await expect(holdAndOpenCheckout(t.db, stripePayments, { user: buyer, courseId: courseId, appUrl: APP_URL })).rejects.toThrow(
			'Failed to create checkout session',
		)
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute()).toEqual([])
		expect(logged).toHaveBeenCalled()
	})

	test('fulfilment enrols once, consumes the hold, records the payment and mails one receipt; repeated calls change nothing', async () => {
		const buyer = await confirmedBuyer(t.db)
		const { id: courseId, title } = await course({ capacity: 1 })
		const { sessionId } = await holdAndOpenCheckout(t.db, stripePayments, { user: buyer, courseId: courseId, appUrl: APP_URL })
		expect(await fulfil(t.db, stripePayments, sessionId)).toEqual({ status: 'unpaid' })

		stripe.pay(sessionId)
		const results = await Promise.all(Array.from({ length: 5 }, () => fulfil(t.db, stripePayments, sessionId)))
		for (const result of results) expect(result).toMatchObject({ status: 'enrolled', userId: buyer.id, courseId })
		expect(await enrollments(courseId)).toHaveLength(1)
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute()).toEqual([])
		const row = await payment(sessionId)
		expect(row.status).toBe('paid')
		expect(row.enrollment_id).toBe((await enrollments(courseId))[0]!.id)
		expect(await fulfil(t.db, stripePayments, sessionId)).toMatchObject({ status: 'enrolled' })
		expect(await enrollments(courseId)).toHaveLength(1)

		// One receipt, with what was paid and a link to the course.
		const [receipt, ...more] = await receipts(buyer.email)
		expect(more).toEqual([])
		expect(receipt!.subject).toBe(`Enrollment confirmed: ${title}`)
		expect(receipt!.text_body).toMatch(/Amount paid +\$2,500\.00/)
		expect(receipt!.text_body).toMatch(new RegExp(`Payment reference +${sessionId}`))
		expect(receipt!.text_body).toContain(`Go to your course http://localhost:3000/dashboard?course=${courseId}`)
		expect(receipt!.html_body).toContain(`href="http://localhost:3000/dashboard?course=${courseId}"`)
	})

	test('a payment that completes after its course filled up is flagged for refund, never enrolled over capacity', async () => {
		const late = await confirmedBuyer(t.db)
		const { id: courseId } = await course({ capacity: 1 })
		const { sessionId } = await holdAndOpenCheckout(t.db, stripePayments, { user: late, courseId: courseId, appUrl: APP_URL })
		// The hold ran out and someone else took the seat before the payment arrived.
		await t.db
			.updateTable('seat_holds')
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where('checkout_session_id', '=', sessionId)
			.execute()
		const other = await confirmedBuyer(t.db)
		expect((await t.db.transaction().execute((trx) => claimSeat(trx, { userId: other.id, courseId }))).kind).toBe('held')

		stripe.pay(sessionId)
		const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
		expect(await fulfil(t.db, stripePayments, sessionId)).toMatchObject({ status: 'needs_refund', userId: late.id })
		expect(warned).toHaveBeenCalledWith(expect.stringContaining('flagged for refund'))
		expect((await payment(sessionId)).status).toBe('needs_refund')
		expect(await enrollments(courseId)).toEqual([])
		expect(await fulfil(t.db, stripePayments, sessionId)).toMatchObject({ status: 'needs_refund' })
		expect(await receipts(late.email)).toEqual([])
	})

	test('an expired session releases its seat and closes the payment', async () => {
		const buyer = await confirmedBuyer(t.db)
		const { id: courseId } = await course({ capacity: 1 })
		const { sessionId } = await holdAndOpenCheckout(t.db, stripePayments, { user: buyer, courseId: courseId, appUrl: APP_URL })
		await stripePayments.expireCheckoutSession(sessionId)
		expect(await fulfil(t.db, stripePayments, sessionId)).toEqual({ status: 'expired' })
		expect((await payment(sessionId)).status).toBe('expired')
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute()).toEqual([])
		const next = await confirmedBuyer(t.db)
		const claim = await t.db.transaction().execute((trx) => claimSeat(trx, { userId: next.id, courseId }))
		expect(claim.kind).toBe('held')
	})
})

describe('the built-in test checkout', () => {
	const payments = new TestCheckoutPayments(() => t.db)

	test('a session is paid on the test page and fulfilled through the same path', async () => {
		const buyer = await confirmedBuyer(t.db)
		const { id: courseId } = await course()
		const checkout = await holdAndOpenCheckout(t.db, payments, { user: buyer, courseId: courseId, appUrl: APP_URL })
		expect(checkout.url).toBe(`/test-checkout/${checkout.sessionId}`)
		const session = await payments.getSession(checkout.sessionId)
		expect(session).toMatchObject({
			status: 'open',
			amountCents: 250000,
			successUrl: `${APP_URL}/registration-complete?session_id=${checkout.sessionId}`,
		})
		expect(await payments.markPaid(checkout.sessionId)).toBe(true)
		expect(await payments.markPaid(checkout.sessionId)).toBe(false)
		expect(await fulfil(t.db, payments, checkout.sessionId)).toMatchObject({ status: 'enrolled', userId: buyer.id })
		expect((await payment(checkout.sessionId)).provider).toBe('test')
	})

	test('an expired hold frees its seat; the sweep expires overdue checkouts and deletes expired holds', async () => {
		const buyer = await confirmedBuyer(t.db)
		const { id: courseId } = await course({ capacity: 1 })
		const { sessionId } = await holdAndOpenCheckout(t.db, payments, { user: buyer, courseId: courseId, appUrl: APP_URL })
		const waiting = await confirmedBuyer(t.db)
		await expect(t.db.transaction().execute((trx) => claimSeat(trx, { userId: waiting.id, courseId }))).rejects.toThrow('course-full')

		const past = new Date(Date.now() - 1000)
		await t.db.updateTable('seat_holds').set({ expires_at: past }).where('checkout_session_id', '=', sessionId).execute()
		await t.db.updateTable('test_checkout_sessions').set({ expires_at: past }).where('id', '=', sessionId).execute()
		expect(await payments.markPaid(sessionId)).toBe(false)
		await sweepExpiredCheckouts(t.db, payments)
		expect((await payments.getSession(sessionId))?.status).toBe('expired')
		expect((await payment(sessionId)).status).toBe('expired')
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute()).toEqual([])
		const claim = await t.db.transaction().execute((trx) => claimSeat(trx, { userId: waiting.id, courseId }))
		expect(claim.kind).toBe('held')
	})

	test('expiring a checkout twice, or after it was paid, is harmless', async () => {
		const buyer = await confirmedBuyer(t.db)
		const { id: courseId } = await course()
		const { sessionId } = await holdAndOpenCheckout(t.db, payments, { user: buyer, courseId: courseId, appUrl: APP_URL })
		await payments.markPaid(sessionId)
		await fulfil(t.db, payments, sessionId)
		await expireCheckout(t.db, sessionId)
		await expireCheckout(t.db, sessionId)
		expect((await payment(sessionId)).status).toBe('paid')
		expect(await enrollments(courseId)).toHaveLength(1)
	})
})

describe('50 concurrent attempts for the last 2 seats', () => {
	async function race(fee: number) {
		setPayments(new TestCheckoutPayments(() => t.db))
		const { id: courseId } = await course({ capacity: 3, registration_fee: fee })
		const first = await confirmedBuyer(t.db)
		await t.db.transaction().execute((trx) => claimSeat(trx, { userId: first.id, courseId }))
		const buyers = await Promise.all(Array.from({ length: 50 }, () => confirmedBuyer(t.db)))
		const cookies = await Promise.all(buyers.map((buyer) => sessionCookieFor(buyer.id)))
		const responses = await Promise.all(
			cookies.map((cookie) =>
				settle(() =>
					enrollAction({
						request: formRequest(`/courses/${courseId}/enroll`, { intent: 'agree', agreeToTerms: 'on' }, { cookie }),
						params: { id: String(courseId) },
						context: new RouterContextProvider(),
					} as never),
				),
			),
		)
		return { courseId, locations: responses.map((response) => response.headers.get('Location') ?? '') }
	}

	test('a free course: exactly 2 enrollments, 48 told the course is full', async () => {
		const { courseId, locations } = await race(0)
		expect(locations.filter((location) => location === '/dashboard')).toHaveLength(2)
		expect(locations.filter((location) => location === `/courses/${courseId}?dialog=waitlist`)).toHaveLength(48)
		expect(await enrollments(courseId)).toHaveLength(3)
		const receipted = await t.db
			.selectFrom('email_outbox')
			.innerJoin('users', 'users.email', 'email_outbox.to_address')
			.innerJoin('enrollments', 'enrollments.user_id', 'users.id')
			.select('email_outbox.text_body')
			.where('enrollments.course_id', '=', courseId)
			.where('email_outbox.subject', 'like', 'Enrollment confirmed: %')
			.execute()
		expect(receipted).toHaveLength(3)
		for (const receipt of receipted) expect(receipt.text_body).toMatch(/Amount paid +Free/)
	})

	test('a paid course: exactly 2 seat holds with a checkout, 48 told the course is full', async () => {
		const { courseId, locations } = await race(250000)
		expect(locations.filter((location) => location.startsWith('/test-checkout/'))).toHaveLength(2)
		expect(locations.filter((location) => location === `/courses/${courseId}?dialog=waitlist`)).toHaveLength(48)
		const holds = await t.db.selectFrom('seat_holds').select('checkout_session_id').where('course_id', '=', courseId).execute()
		expect(holds).toHaveLength(3)
		expect(holds.filter((hold) => hold.checkout_session_id)).toHaveLength(2)
	})
})

describe('fulfilling a test checkout twice at once', () => {
	test('a test checkout is held, paid and fulfilled exactly once', async () => {
		const db = t.db
		const payments = new TestCheckoutPayments(() => db)
		const user = await createUser(db, { email: 'embedded@example.com', name: 'Embedded', passwordHash: 'x', confirmed: true })
		const { id: courseId } = await insertCourse(db, { title: 'Embedded', capacity: 1, registration_fee: 5000 })
		const claim = await db.transaction().execute((trx) => claimSeat(trx, { userId: user.id, courseId }))
		if (claim.kind !== 'held') throw new Error('expected a hold')
		const { sessionId } = await openCheckout(db, payments, { claim, user, appUrl: APP_URL, cancelPath: '/register?step=3' })
		expect(await payments.markPaid(sessionId)).toBe(true)
		const results = await Promise.all([fulfil(db, payments, sessionId), fulfil(db, payments, sessionId)])
		for (const result of results) expect(result).toMatchObject({ status: 'enrolled', userId: user.id })
		expect(await db.selectFrom('enrollments').select('id').where('course_id', '=', courseId).execute()).toHaveLength(1)
	})
})

describe('a payment confirms the address it was paid from (issue 39 point 5)', () => {
	const payments = new TestCheckoutPayments(() => t.db)

	test('an unconfirmed buyer is confirmed by their paid checkout; a checkout paid from another address confirms nothing', async () => {
		const confirmedAt = async (userId: string) =>
			(await t.db.selectFrom('users').select('email_confirmed_at').where('id', '=', userId).executeTakeFirstOrThrow()).email_confirmed_at
		const buyer = await createUser(t.db, { email: `unconfirmed-${++sequence}@example.com`, name: 'New Payer', passwordHash: 'x' })
		expect(await confirmedAt(buyer.id)).toBeNull()
		const paid = await holdAndOpenCheckout(t.db, payments, { user: buyer, courseId: (await course()).id, appUrl: APP_URL })
		expect(await payments.markPaid(paid.sessionId)).toBe(true)
		expect(await fulfil(t.db, payments, paid.sessionId)).toMatchObject({ status: 'enrolled' })
		expect(await confirmedAt(buyer.id)).toBeInstanceOf(Date)

		const other = await createUser(t.db, { email: `other-${++sequence}@example.com`, name: 'Other Payer', passwordHash: 'x' })
		const elsewhere = await holdAndOpenCheckout(t.db, payments, {
			user: { id: other.id, email: 'someone-else@example.com' },
			courseId: (await course()).id,
			appUrl: APP_URL,
		})
		expect(await payments.markPaid(elsewhere.sessionId)).toBe(true)
		expect(await fulfil(t.db, payments, elsewhere.sessionId)).toMatchObject({ status: 'enrolled' })
		expect(await confirmedAt(other.id)).toBeNull()
	})
})
