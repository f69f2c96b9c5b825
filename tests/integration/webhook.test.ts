import Stripe from 'stripe'
import { describe, expect, test } from 'vitest'
import { loader as completionLoader } from '#app/routes/register/registration-complete.tsx'
import { loader as webhookLoader } from '#app/routes/resources/stripe-webhook.ts'
import { setPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { deliverStripeEvent, holdAndOpenCheckout } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertUser } from '#tests/support/fixtures.ts'
import { getRequest } from '#tests/support/requests.ts'
import { useStripeStandIn } from '#tests/support/stripe-stand-in.ts'

const t = useTestDatabase()
const { stripe, payments } = useStripeStandIn({ installed: true })

let sequence = 0
async function paidCheckout({ capacity = 5 } = {}) {
	sequence += 1
	const email = `hook-${sequence}@example.com`
	const user = { id: await insertUser(t.db, { email, name: 'Hook Buyer' }), email }
	const course = await insertCourse(t.db, { title: `Webhook course ${sequence}`, capacity, registration_fee: 250000 })
	const { sessionId } = await holdAndOpenCheckout(t.db, payments, { user, courseId: course.id, cancelPath: '/register?step=3' })
	return { userId: user.id, courseId: course.id, sessionId }
}

async function state(courseId: number, sessionId: string) {
	const [enrollments, holds, paymentRow] = await Promise.all([
		t.db.selectFrom('enrollments').select('id').where('course_id', '=', courseId).execute(),
		t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute(),
		t.db
			.selectFrom('registration_payments')
			.select(['status', 'updated_at'])
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow(),
	])
	return { enrollments: enrollments.length, holds: holds.length, payment: paymentRow }
}

describe('POST /webhooks/stripe', () => {
	test('a bad or missing signature is refused with 400 and nothing is written', async () => {
		const { courseId, sessionId } = await paidCheckout()
		stripe.pay(sessionId)
		const before = await state(courseId, sessionId)
		const { body, signature } = stripe.webhook('checkout.session.completed', sessionId)

		const tampered = body.replace('"livemode":false', '"livemode":true')
		for (const [payload, header] of [
			[tampered, signature],
			[body, null],
			[body, 't=1,v1=deadbeef'],
			[body, signature.replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`)],
		] as const) {
			const response = await deliverStripeEvent({ body: payload, signature: header })
			expect(response.status).toBe(400)
		}
		expect(await state(courseId, sessionId)).toEqual(before)
		expect(before).toMatchObject({ enrollments: 0, holds: 1, payment: { status: 'pending' } })
	})

	test('a body far larger than any Stripe event is refused with 413 unread, and nothing is written', async () => {
		const { courseId, sessionId } = await paidCheckout()
		stripe.pay(sessionId)
		const before = await state(courseId, sessionId)
		const { body, signature } = stripe.webhook('checkout.session.completed', sessionId)
		const padded = body.replace('"livemode":false', `"livemode":false,"padding":"${'x'.repeat(2 * 1024 * 1024)}"`)
		expect((await deliverStripeEvent({ body: padded, signature })).status).toBe(413)
		expect(await state(courseId, sessionId)).toEqual(before)
	})

	test('checkout.session.completed enrols; the same event delivered twice still makes one enrollment', async () => {
		const { courseId, sessionId, userId } = await paidCheckout()
		stripe.pay(sessionId)
		const event = stripe.webhook('checkout.session.completed', sessionId)
		const first = await deliverStripeEvent(event)
		expect(first.status).toBe(200)
		expect(await first.json()).toEqual({ received: true })
		const again = await deliverStripeEvent(event)
		expect(again.status).toBe(200)
		expect(await state(courseId, sessionId)).toMatchObject({ enrollments: 1, holds: 0, payment: { status: 'paid' } })
		const enrollment = await t.db
			.selectFrom('enrollments')
			.select(['user_id', 'status'])
			.where('course_id', '=', courseId)
			.executeTakeFirstOrThrow()
		expect(enrollment).toEqual({ user_id: userId, status: 'active' })
	})

	test('the webhook racing the completion page makes one enrollment, and both report success', async () => {
		const { courseId, sessionId } = await paidCheckout({ capacity: 1 })
		stripe.pay(sessionId)
		const event = stripe.webhook('checkout.session.completed', sessionId)
		const [hook, ...pages] = await Promise.all([
			deliverStripeEvent(event),
			...Array.from({ length: 3 }, () =>
				completionLoader({ request: getRequest(`/registration-complete?session_id=${sessionId}`), params: {}, context: {} } as never),
			),
		])
		expect(hook.status).toBe(200)
		for (const page of pages) expect(page).toMatchObject({ state: 'success', signedIn: false })
		expect(await state(courseId, sessionId)).toMatchObject({ enrollments: 1, holds: 0, payment: { status: 'paid' } })
	})

	test('checkout.session.expired releases the seat; a late or repeated expiry never undoes a payment', async () => {
		const open = await paidCheckout({ capacity: 1 })
		await payments.expireCheckoutSession(open.sessionId)
		const expired = stripe.webhook('checkout.session.expired', open.sessionId)
		expect((await deliverStripeEvent(expired)).status).toBe(200)
		expect((await deliverStripeEvent(expired)).status).toBe(200)
		expect(await state(open.courseId, open.sessionId)).toMatchObject({ enrollments: 0, holds: 0, payment: { status: 'expired' } })

		const paid = await paidCheckout()
		stripe.pay(paid.sessionId)
		const completed = stripe.webhook('checkout.session.completed', paid.sessionId)
		const outOfOrder = stripe.webhook('checkout.session.expired', paid.sessionId)
		expect((await deliverStripeEvent(completed)).status).toBe(200)
		expect((await deliverStripeEvent(outOfOrder)).status).toBe(200)
		expect(await state(paid.courseId, paid.sessionId)).toMatchObject({ enrollments: 1, payment: { status: 'paid' } })
	})

	test('a completed event whose session is not paid yet changes nothing', async () => {
		const { courseId, sessionId } = await paidCheckout()
		const event = stripe.webhook('checkout.session.completed', sessionId)
		expect((await deliverStripeEvent(event)).status).toBe(200)
		expect(await state(courseId, sessionId)).toMatchObject({ enrollments: 0, holds: 1, payment: { status: 'pending' } })
	})

	test('other event types are acknowledged and ignored; GET is not allowed', async () => {
		const body = JSON.stringify({ id: 'evt_other', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1' } } })
		const signature = new Stripe(stripe.secretKey).webhooks.generateTestHeaderString({ payload: body, secret: stripe.webhookSecret })
		expect((await deliverStripeEvent({ body, signature })).status).toBe(200)
		expect((await webhookLoader()).status).toBe(405)
	})

	test('without Stripe (the built-in test checkout) the endpoint does not exist', async () => {
		setPayments(new TestCheckoutPayments(() => t.db))
		expect((await deliverStripeEvent({ body: '{}', signature: 't=1,v1=x' })).status).toBe(404)
	})
})
