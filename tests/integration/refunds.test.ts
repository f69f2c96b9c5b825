/**
 * Refunds (docs/decisions/036) against the local Stripe stand-in and the built-in test checkout:
 * the exact Refund API calls, the enrolment and seat they end, the e-mail and audit entry, the
 * dashboard refunds that arrive by webhook, and "never more than was paid" under parallel requests.
 */
import { randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import { takenSeatsExpression } from '#app/models/courses/courses.server.ts'
import { REFUNDED_REASON } from '#app/models/enrollment/certificates.ts'
import { updateEnrollmentStatus } from '#app/models/enrollment/enrollments-admin.server.ts'
import { fulfil } from '#app/models/payments/payments.server.ts'
import { type RefundRequest, refundPayment, syncProviderRefunds } from '#app/models/payments/refunds.server.ts'
import { action as refundAction, loader as refundLoader } from '#app/routes/admin/payment-refund.tsx'
import { type PaymentProvider, RefundRefusedError } from '#app/services/payments/payments.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { deliverStripeEvent, holdAndOpenCheckout } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertPaymentRefund, insertUser } from '#tests/support/fixtures.ts'
import { forgedIds } from '#tests/support/forged-ids.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor, settle, toastOf } from '#tests/support/requests.ts'
import { useStripeStandIn } from '#tests/support/stripe-stand-in.ts'

const t = useTestDatabase()
const REPEATS = Number(process.env.SECURITY_REPEATS ?? 1)
const { stripe, payments } = useStripeStandIn({ installed: true })
let testCheckout: TestCheckoutPayments
let admin: string

beforeAll(async () => {
	testCheckout = new TestCheckoutPayments(() => t.db)
	admin = (await createUser(t.db, { email: 'refund-admin@example.com', name: 'Rita Admin', passwordHash: 'x', confirmed: true })).id
	await t.db.updateTable('profiles').set({ role: 'admin' }).where('id', '=', admin).execute()
})

let sequence = 0

/** A student enrolled through a paid checkout of $2,500 (Stripe or the test checkout), fulfilled. */
async function paidEnrolment(provider: PaymentProvider = payments, { capacity = 5 } = {}) {
	sequence += 1
	const email = `refund-${sequence}-${randomBytes(3).toString('hex')}@example.com`
	const user = { id: await insertUser(t.db, { email, name: `Refund Student ${sequence}` }), email }
	const course = await insertCourse(t.db, { title: `Refund course ${sequence}`, capacity, registration_fee: 250000 })
	const { sessionId } = await holdAndOpenCheckout(t.db, provider, { user, courseId: course.id, cancelPath: '/register?step=3' })
	if (provider === payments) stripe.pay(sessionId)
	else await testCheckout.markPaid(sessionId)
	expect((await fulfil(t.db, provider, sessionId)).status).toBe('enrolled')
	const payment = await t.db
		.selectFrom('registration_payments')
		.selectAll()
		.where('checkout_session_id', '=', sessionId)
		.executeTakeFirstOrThrow()
	return { userId: user.id, email, courseId: course.id, sessionId, payment }
}

function request(paymentId: number, fields: Partial<RefundRequest> = {}): RefundRequest {
	return {
		paymentId,
		actorId: admin,
		amountCents: 250000,
		reason: 'requested_by_customer',
		note: 'Moving abroad',
		unenroll: false,
		requestKey: randomBytes(12).toString('hex'),
		...fields,
	}
}

async function snapshot(paymentId: number, courseId: number) {
	const [payment, enrollment, course, refunds, mails, audit] = await Promise.all([
		t.db
			.selectFrom('registration_payments')
			.select(['status', 'refunded_cents', 'payment_intent_id'])
			.where('id', '=', paymentId)
			.executeTakeFirstOrThrow(),
		t.db
			.selectFrom('enrollments')
			.innerJoin('registration_payments', 'registration_payments.enrollment_id', 'enrollments.id')
			.select('enrollments.status')
			.where('registration_payments.id', '=', paymentId)
			.executeTakeFirst(),
		t.db
			.selectFrom('courses')
			.select((eb) => takenSeatsExpression(eb).as('taken'))
			.where('id', '=', courseId)
			.executeTakeFirstOrThrow(),
		t.db.selectFrom('payment_refunds').selectAll().where('payment_id', '=', paymentId).orderBy('id').execute(),
		t.db
			.selectFrom('email_outbox')
			.select(['to_address', 'subject', 'text_body'])
			.where('subject', 'like', 'Refund issued:%')
			.where('to_address', '=', (eb) => eb.selectFrom('registration_payments').select('customer_email').where('id', '=', paymentId))
			.execute(),
		t.db
			.selectFrom('audit_log')
			.select(['actor_id', 'action', 'details'])
			.where('entity', '=', 'payment')
			.where('entity_id', '=', String(paymentId))
			.orderBy('id')
			.execute(),
	])
	return { payment, enrollment: enrollment?.status ?? null, taken: Number(course.taken), refunds, mails, audit }
}

const refundCalls = () => stripe.requests.filter((call) => call.path === '/v1/refunds' && call.method === 'POST')

describe('refunding from the admin area through Stripe', () => {
	test('a full refund: one Refund API call with the amount, reason and idempotency key; the enrolment ends and its seat frees', async () => {
		const { payment, courseId, email } = await paidEnrolment()
		expect(payment.payment_intent_id).toMatch(/^pi_/)
		const before = refundCalls().length
		const outcome = await refundPayment(t.db, payments, request(payment.id, { note: 'Moving abroad' }))
		expect(outcome).toEqual({ kind: 'refunded', amountCents: 250000, fullyRefunded: true, enrollmentEnded: true })

		const calls = refundCalls().slice(before)
		const after = await snapshot(payment.id, courseId)
		const refund = after.refunds[0]!
		expect(calls).toHaveLength(1)
		expect(calls[0]!.body).toEqual({
			payment_intent: payment.payment_intent_id,
			amount: '250000',
			reason: 'requested_by_customer',
			metadata: { refundId: String(refund.id), paymentId: String(payment.id) },
		})
		expect(calls[0]!.headers['idempotency-key']).toBe(`payment-${payment.id}-refund-${refund.id}`)
		expect(after.payment).toEqual({ status: 'refunded', refunded_cents: 250000, payment_intent_id: payment.payment_intent_id })
		expect(after.enrollment).toBe('inactive')
		expect(after.taken).toBe(0)
		expect(refund).toMatchObject({ status: 'succeeded', source: 'admin', amount_cents: 250000, note: 'Moving abroad', actor_id: admin })
		expect(refund.provider_refund_id).toBe(stripe.refunds.at(-1)!.id)
		expect(after.mails).toHaveLength(1)
		expect(after.mails[0]!.to_address).toBe(email)
		expect(after.mails[0]!.text_body).toMatch(/Refunded now +\$2,500\.00/)
		expect(after.mails[0]!.text_body).toContain('has ended')
		expect(after.audit).toEqual([
			{
				actor_id: admin,
				action: 'payment.refund',
				details: expect.objectContaining({ amountCents: 250000, refundedCents: 250000, enrollmentEnded: true, note: 'Moving abroad' }),
			},
		])
	})

	test("a full refund of a completed enrolment revokes its certificate, with the refunding admin's audit entry", async () => {
		const { payment, userId } = await paidEnrolment()
		await updateEnrollmentStatus(t.db, admin, payment.enrollment_id!, 'completed')
		const certificate = await t.db
			.selectFrom('certificates')
			.select(['id', 'revoked_at'])
			.where('user_id', '=', userId)
			.executeTakeFirstOrThrow()
		expect(certificate.revoked_at).toBeNull()
		const outcome = await refundPayment(t.db, payments, request(payment.id))
		expect(outcome).toMatchObject({ kind: 'refunded', enrollmentEnded: true })
		const after = await t.db
			.selectFrom('certificates')
			.select(['revoked_at', 'revoked_reason'])
			.where('id', '=', certificate.id)
			.executeTakeFirstOrThrow()
		expect(after.revoked_at).not.toBeNull()
		expect(after.revoked_reason).toBe(REFUNDED_REASON)
		const revocations = await t.db
			.selectFrom('audit_log')
			.select(['actor_id', 'entity_id'])
			.where('action', '=', 'certificate.revoke')
			.where('entity_id', '=', certificate.id)
			.execute()
		expect(revocations).toEqual([{ actor_id: admin, entity_id: certificate.id }])
	})

	test('a partial refund keeps the student enrolled, or ends the enrolment when the admin chooses so', async () => {
		const kept = await paidEnrolment()
		const keptOutcome = await refundPayment(t.db, payments, request(kept.payment.id, { amountCents: 50000 }))
		expect(keptOutcome).toEqual({ kind: 'refunded', amountCents: 50000, fullyRefunded: false, enrollmentEnded: false })
		const keptState = await snapshot(kept.payment.id, kept.courseId)
		expect(keptState.payment).toMatchObject({ status: 'paid', refunded_cents: 50000 })
		expect(keptState.enrollment).toBe('active')
		expect(keptState.taken).toBe(1)
		expect(refundCalls().at(-1)!.body.amount).toBe('50000')

		const ended = await paidEnrolment()
		const endedOutcome = await refundPayment(t.db, payments, request(ended.payment.id, { amountCents: 50000, unenroll: true }))
		expect(endedOutcome).toEqual({ kind: 'refunded', amountCents: 50000, fullyRefunded: false, enrollmentEnded: true })
		const endedState = await snapshot(ended.payment.id, ended.courseId)
		expect(endedState.payment).toMatchObject({ status: 'paid', refunded_cents: 50000 })
		expect(endedState.enrollment).toBe('inactive')
		expect(endedState.taken).toBe(0)

		// The rest of a partly refunded payment, later: now refunded in full.
		const rest = await refundPayment(t.db, payments, request(kept.payment.id, { amountCents: 200000 }))
		expect(rest).toEqual({ kind: 'refunded', amountCents: 200000, fullyRefunded: true, enrollmentEnded: true })
		expect((await snapshot(kept.payment.id, kept.courseId)).payment).toMatchObject({ status: 'refunded', refunded_cents: 250000 })
	})

	test('more than is left is refused before Stripe is asked; a resent form is the same refund', async () => {
		const { payment, courseId } = await paidEnrolment()
		const before = refundCalls().length
		expect(await refundPayment(t.db, payments, request(payment.id, { amountCents: 250001 }))).toEqual({
			kind: 'too-much',
			leftCents: 250000,
		})
		expect(refundCalls()).toHaveLength(before)
		const once = request(payment.id, { amountCents: 100000 })
		expect((await refundPayment(t.db, payments, once)).kind).toBe('refunded')
		expect((await refundPayment(t.db, payments, once)).kind).toBe('refunded')
		expect(refundCalls()).toHaveLength(before + 1)
		expect((await snapshot(payment.id, courseId)).payment.refunded_cents).toBe(100000)
	})

	test('a lost answer is retried by the SDK with the same idempotency key: one refund at Stripe, recorded once', async () => {
		const { payment, courseId } = await paidEnrolment()
		const before = refundCalls().length
		stripe.dropNextRefundAnswer()
		const outcome = await refundPayment(t.db, payments, request(payment.id))
		expect(outcome.kind).toBe('refunded')
		const calls = refundCalls().slice(before)
		expect(calls.length).toBeGreaterThanOrEqual(2)
		expect(new Set(calls.map((call) => call.headers['idempotency-key'])).size).toBe(1)
		expect(stripe.refunds.filter((refund) => refund.payment_intent === payment.payment_intent_id)).toHaveLength(1)
		const after = await snapshot(payment.id, courseId)
		expect(after.refunds).toHaveLength(1)
		expect(after.payment.refunded_cents).toBe(250000)
	})

	test('a payment that needs a refund (no seat could be given) is refunded without an enrolment', async () => {
		const { payment, courseId } = await paidEnrolment()
		await t.db
			.updateTable('registration_payments')
			.set({ status: 'needs_refund', enrollment_id: null })
			.where('id', '=', payment.id)
			.execute()
		const outcome = await refundPayment(t.db, payments, request(payment.id))
		expect(outcome).toEqual({ kind: 'refunded', amountCents: 250000, fullyRefunded: true, enrollmentEnded: false })
		expect((await snapshot(payment.id, courseId)).payment.status).toBe('refunded')
		expect(await refundPayment(t.db, payments, request(payment.id, { amountCents: 1 }))).toEqual({ kind: 'not-refundable' })
	})
})

describe('never more than was paid, with parallel requests', () => {
	test.each(Array.from({ length: REPEATS }, (_, run) => run))('20 full refunds at once: exactly one (run %i)', async () => {
		const { payment, courseId } = await paidEnrolment()
		const before = refundCalls().length
		const outcomes = await Promise.all(Array.from({ length: 20 }, () => refundPayment(t.db, payments, request(payment.id))))
		expect(outcomes.filter((outcome) => outcome.kind === 'refunded')).toHaveLength(1)
		// The others find the amount set aside (too much) or, once settled, the payment refunded in full.
		expect(outcomes.filter((outcome) => outcome.kind === 'too-much' || outcome.kind === 'not-refundable')).toHaveLength(19)
		expect(refundCalls()).toHaveLength(before + 1)
		const after = await snapshot(payment.id, courseId)
		expect(after.payment.refunded_cents).toBe(250000)
		expect(after.mails).toHaveLength(1)
	})

	test('12 refunds of $300 at once on $2,500: exactly 8, $2,400 refunded', async () => {
		const { payment, courseId } = await paidEnrolment()
		const outcomes = await Promise.all(
			Array.from({ length: 12 }, () => refundPayment(t.db, payments, request(payment.id, { amountCents: 30000 }))),
		)
		expect(outcomes.filter((outcome) => outcome.kind === 'refunded')).toHaveLength(8)
		const after = await snapshot(payment.id, courseId)
		expect(after.payment).toMatchObject({ status: 'paid', refunded_cents: 240000 })
		expect(stripe.refunds.filter((refund) => refund.payment_intent === payment.payment_intent_id)).toHaveLength(8)
		expect(after.enrollment).toBe('active')
	})

	test('the same form sent 10 times at once is one refund', async () => {
		const { payment, courseId } = await paidEnrolment()
		const same = request(payment.id, { amountCents: 70000 })
		const outcomes = await Promise.all(Array.from({ length: 10 }, () => refundPayment(t.db, payments, same)))
		expect(outcomes.every((outcome) => outcome.kind === 'refunded' || outcome.kind === 'pending')).toBe(true)
		const after = await snapshot(payment.id, courseId)
		expect(after.refunds).toHaveLength(1)
		expect(after.payment.refunded_cents).toBe(70000)
		expect(stripe.refunds.filter((refund) => refund.payment_intent === payment.payment_intent_id)).toHaveLength(1)
	})
})

describe('refunds made in the Stripe dashboard (charge.refunded)', () => {
	test('a full dashboard refund ends the enrolment once, however often and however concurrently the event arrives', async () => {
		const { payment, courseId, sessionId } = await paidEnrolment()
		const made = stripe.refundInDashboard(sessionId)
		const { body, signature } = stripe.webhook('charge.refunded', sessionId)
		const listsBefore = stripe.requests.filter((call) => call.method === 'GET' && call.path === '/v1/refunds').length
		const answers = await Promise.all(Array.from({ length: 10 }, () => deliverStripeEvent({ body, signature })))
		// Each delivery asks Stripe for the PaymentIntent's refunds; none creates one.
		const lists = stripe.requests.filter((call) => call.method === 'GET' && call.path === '/v1/refunds').slice(listsBefore)
		expect(lists.map((call) => call.query)).toEqual(Array(10).fill({ payment_intent: payment.payment_intent_id, limit: '100' }))
		expect(refundCalls().filter((call) => call.body.payment_intent === payment.payment_intent_id)).toHaveLength(0)
		expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200))
		for (let repeat = 0; repeat < 3; repeat += 1) expect((await deliverStripeEvent({ body, signature })).status).toBe(200)
		const after = await snapshot(payment.id, courseId)
		expect(after.refunds).toHaveLength(1)
		expect(after.refunds[0]).toMatchObject({ source: 'provider', status: 'succeeded', provider_refund_id: made.id, actor_id: null })
		expect(after.payment).toMatchObject({ status: 'refunded', refunded_cents: 250000 })
		expect(after.enrollment).toBe('inactive')
		expect(after.taken).toBe(0)
		expect(after.mails).toHaveLength(1)
		expect(after.audit).toEqual([
			{ actor_id: null, action: 'payment.refund', details: expect.objectContaining({ source: 'provider', enrollmentEnded: true }) },
		])
	})

	test('a partial dashboard refund is recorded and keeps the enrolment; a refund made here is not recorded twice', async () => {
		const { payment, courseId, sessionId } = await paidEnrolment()
		await refundPayment(t.db, payments, request(payment.id, { amountCents: 20000 }))
		stripe.refundInDashboard(sessionId, 30000)
		const { body, signature } = stripe.webhook('charge.refunded', sessionId)
		expect((await deliverStripeEvent({ body, signature })).status).toBe(200)
		const after = await snapshot(payment.id, courseId)
		expect(after.refunds.map((refund) => [refund.source, refund.amount_cents])).toEqual([
			['admin', 20000],
			['provider', 30000],
		])
		expect(after.payment).toMatchObject({ status: 'paid', refunded_cents: 50000 })
		expect(after.enrollment).toBe('active')
	})

	test('a refund the app asked for and lost track of is settled by the event', async () => {
		const { payment, courseId, sessionId } = await paidEnrolment()
		// As if the process stopped after Stripe refunded: the row is still pending.
		const row = await insertPaymentRefund(t.db, {
			payment_id: payment.id,
			amount_cents: 40000,
			reason: 'duplicate',
			source: 'admin',
			request_key: 'lost-track-0001',
			unenroll: true,
			actor_id: admin,
		})
		await settle(() =>
			fetch(`${stripe.url}/v1/refunds`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${stripe.secretKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ payment_intent: payment.payment_intent_id!, amount: '40000', 'metadata[refundId]': String(row.id) }),
			}),
		)
		expect(await syncProviderRefunds(t.db, payments, payment.payment_intent_id!)).toEqual({ kind: 'synced', recorded: 1 })
		const after = await snapshot(payment.id, courseId)
		expect(after.refunds).toHaveLength(1)
		expect(after.refunds[0]).toMatchObject({ status: 'succeeded', source: 'admin' })
		expect(after.payment.refunded_cents).toBe(40000)
		expect(after.enrollment).toBe('inactive')
		const { body, signature } = stripe.webhook('charge.refunded', sessionId)
		expect((await deliverStripeEvent({ body, signature })).status).toBe(200)
		expect((await snapshot(payment.id, courseId)).refunds).toHaveLength(1)
	})

	test('a charge.refunded event with a bad signature is refused and changes nothing', async () => {
		const { payment, courseId, sessionId } = await paidEnrolment()
		stripe.refundInDashboard(sessionId)
		const { body } = stripe.webhook('charge.refunded', sessionId)
		expect((await deliverStripeEvent({ body, signature: 't=1,v1=deadbeef' })).status).toBe(400)
		const after = await snapshot(payment.id, courseId)
		expect(after.refunds).toHaveLength(0)
		expect(after.enrollment).toBe('active')
	})
})

describe('refunding a test-checkout payment', () => {
	test('the test checkout refunds on its own, with the same rules', async () => {
		const { payment, courseId, sessionId } = await paidEnrolment(testCheckout)
		expect(payment.payment_intent_id).toBe(sessionId)
		const outcomes = await Promise.all(Array.from({ length: 10 }, () => refundPayment(t.db, testCheckout, request(payment.id))))
		expect(outcomes.filter((outcome) => outcome.kind === 'refunded')).toHaveLength(1)
		const after = await snapshot(payment.id, courseId)
		expect(after.payment).toMatchObject({ status: 'refunded', refunded_cents: 250000 })
		expect(after.enrollment).toBe('inactive')
		const stored = await t.db.selectFrom('test_checkout_refunds').selectAll().where('session_id', '=', sessionId).execute()
		expect(stored).toHaveLength(1)
		expect(stored[0]).toMatchObject({
			amount_cents: 250000,
			reason: 'requested_by_customer',
			idempotency_key: `payment-${payment.id}-refund-${after.refunds[0]!.id}`,
		})
	})

	test('the test checkout itself refuses more than is left, even asked directly and at once', async () => {
		const { sessionId } = await paidEnrolment(testCheckout)
		const attempts = await Promise.allSettled(
			Array.from({ length: 6 }, (_, index) =>
				testCheckout.createRefund({
					paymentIntentId: sessionId,
					amountCents: 100000,
					reason: 'duplicate',
					metadata: { refundId: String(index), paymentId: '0' },
					idempotencyKey: `direct-${sessionId}-${index}`,
				}),
			),
		)
		expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(2)
		for (const attempt of attempts.filter((attempt) => attempt.status === 'rejected')) {
			expect(attempt.reason).toBeInstanceOf(RefundRefusedError)
		}
	})
})

describe('the refund dialog (admin route)', () => {
	const path = (paymentId: number) => `/dashboard/admin/enrollments/payments/${paymentId}/refund`
	const post = async (paymentId: number, fields: Record<string, string>, cookie: string) =>
		callRoute(refundAction, formRequest(path(paymentId), fields, { cookie }), { paymentId: String(paymentId) })
	const form = (requestKey: string, fields: Record<string, string> = {}) => ({
		intent: 'confirm',
		requestKey,
		amount: '2500.00',
		reason: 'requested_by_customer',
		note: 'Moving abroad',
		afterRefund: 'keep',
		...fields,
	})

	test('review shows the refund without making it; bad input is answered 400 with nothing refunded', async () => {
		const { payment, courseId } = await paidEnrolment()
		const cookie = await sessionCookieFor(admin)
		const page = await callRoute(refundLoader, getRequest(path(payment.id), { cookie }), { paymentId: String(payment.id) })
		const { requestKey } = (await page.json()) as { requestKey: string }
		expect(requestKey).toMatch(/^[0-9a-f]{32}$/)
		const before = refundCalls().length
		const review = await post(payment.id, form(requestKey, { intent: 'review', amount: '500', afterRefund: 'unenroll' }), cookie)
		expect(review.status).toBe(200)
		expect(((await review.json()) as { review: unknown }).review).toMatchObject({
			amountCents: 50000,
			fullRefund: false,
			endsEnrollment: true,
		})
		const bads: Record<string, string>[] = [
			{ amount: '2500.01' },
			{ amount: 'ten dollars' },
			{ amount: '0' },
			{ note: '' },
			{ reason: 'because' },
		]
		for (const bad of bads) {
			expect((await post(payment.id, form(requestKey, bad), cookie)).status, JSON.stringify(bad)).toBe(400)
		}
		expect(refundCalls()).toHaveLength(before)
		expect((await snapshot(payment.id, courseId)).refunds).toHaveLength(0)
	})

	test("a payment id written another way (1e1, 12.0, ' 12', 0x…) finds no payment: 404 to the page and the form, nothing refunded", async () => {
		const { payment, courseId } = await paidEnrolment()
		const cookie = await sessionCookieFor(admin)
		const before = refundCalls().length
		for (const forged of forgedIds(payment.id)) {
			const forgedPath = `/dashboard/admin/enrollments/payments/${encodeURIComponent(forged)}/refund`
			const page = await callRoute(refundLoader, getRequest(forgedPath, { cookie }), { paymentId: forged })
			expect(page.status, forged).toBe(404)
			const sent = await callRoute(refundAction, formRequest(forgedPath, form(randomBytes(12).toString('hex')), { cookie }), {
				paymentId: forged,
			})
			expect(sent.status, forged).toBe(404)
		}
		expect(refundCalls()).toHaveLength(before)
		expect((await snapshot(payment.id, courseId)).refunds).toHaveLength(0)
		const page = await callRoute(refundLoader, getRequest(path(payment.id), { cookie }), { paymentId: String(payment.id) })
		expect(page.status).toBe(200)
	})

	test('20 parallel confirmations with distinct keys refund once; the same key sent 10 times at once refunds once', async () => {
		const cookie = await sessionCookieFor(admin)
		const { payment, courseId } = await paidEnrolment()
		const answers = await Promise.all(Array.from({ length: 20 }, () => post(payment.id, form(randomBytes(12).toString('hex')), cookie)))
		const redirected = answers.filter((answer) => answer.status === 302)
		expect(redirected).toHaveLength(1)
		expect((await toastOf(redirected[0]!))?.title).toBe('Refund issued')
		expect(answers.filter((answer) => answer.status === 400)).toHaveLength(19)
		const after = await snapshot(payment.id, courseId)
		expect(after.payment.refunded_cents).toBe(250000)
		expect(after.enrollment).toBe('inactive')

		const other = await paidEnrolment()
		const key = randomBytes(12).toString('hex')
		const same = await Promise.all(Array.from({ length: 10 }, () => post(other.payment.id, form(key, { amount: '300' }), cookie)))
		expect(same.every((answer) => answer.status === 302)).toBe(true)
		expect((await snapshot(other.payment.id, other.courseId)).payment.refunded_cents).toBe(30000)
		expect(stripe.refunds.filter((refund) => refund.payment_intent === other.payment.payment_intent_id)).toHaveLength(1)
	})

	test('students cannot refund', async () => {
		const { payment, userId } = await paidEnrolment()
		const answer = await post(payment.id, form(randomBytes(12).toString('hex')), await sessionCookieFor(userId))
		expect(answer.status).toBe(302)
		expect(answer.headers.get('Location')).toBe('/dashboard')
		expect((await snapshot(payment.id, (await paidEnrolment()).courseId)).refunds).toHaveLength(0)
	})
})
