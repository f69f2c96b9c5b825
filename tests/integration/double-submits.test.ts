/**
 * The same buyer sending a purchase twice, or ten times, at once (docs/decisions/040): on every
 * purchase path the answers are one checkout — one seat hold, one promotion-code reservation,
 * one session at the provider — and no database deadlock reaches anybody. Then the outside test
 * that found a 1-use code redeemed three times, and a payment that arrives after its reservation
 * lapsed. PROMOTION_REPEATS repeats the races (5 runs each by default; `npm run test:stress` 20).
 */
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { chooseDraftCourse, saveDraftDetails } from '#app/models/enrollment/registration.server.ts'
import { fulfil } from '#app/models/payments/payments.server.ts'
import { createPromotionCode, listPromotionCodes } from '#app/models/payments/promotion-codes-admin.server.ts'
import { draftCookieHeader } from '#app/routes/register/+shared/draft-cookie.server.ts'
import { action as agreementAction } from '#app/routes/register/agreement.tsx'
import { action as enrollAction } from '#app/routes/register/enroll.tsx'
import { action as testCheckoutAction } from '#app/routes/register/test-checkout.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertUser } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, signedInUser, toastOf } from '#tests/support/requests.ts'
import { useStripeStandIn } from '#tests/support/stripe-stand-in.ts'

const t = useTestDatabase()
const REPEATS = Number(process.env.PROMOTION_REPEATS ?? 5)
/** About what Stripe's API takes to create a session: the window a second submit falls into. */
const STRIPE_LATENCY_MS = 150
const { stripe, payments: stripePayments } = useStripeStandIn()
let testPayments: TestCheckoutPayments
let adminId: string

beforeAll(async () => {
	testPayments = new TestCheckoutPayments(() => t.db)
	adminId = await insertUser(t.db, { role: 'admin' })
})
afterEach(() => {
	stripe.setCreateLatency(0)
})

let sequence = 0

async function oneUseCode(courseId: number) {
	const created = await createPromotionCode(t.db, adminId, {
		code: `ONCE${++sequence}`,
		percentOff: 20,
		amountOffCents: null,
		courseId,
		expiresAt: null,
		maxUses: 1,
	})
	if (typeof created === 'string') throw new Error(created)
	return { id: created.id, code: `ONCE${sequence}` }
}

function enrollPost(courseId: number, cookie: string, promotionCode?: string, ip = '10.37.0.1') {
	const fields: Record<string, string> = { intent: 'agree', agreeToTerms: 'on' }
	if (promotionCode) fields.promotionCode = promotionCode
	return callRoute(enrollAction, formRequest(`/courses/${courseId}/enroll`, fields, { cookie, ip }), { id: String(courseId) })
}

/** A registration at step 3 (account details and course chosen), as its browser's cookie. */
async function draftAtAgreement(courseId: number) {
	const draftId = await saveDraftDetails(t.db, null, {
		name: 'Double Clicker',
		email: `double-${++sequence}@example.com`,
		passwordHash: 'unused-hash',
	})
	await chooseDraftCourse(t.db, draftId!, courseId)
	return (await draftCookieHeader(draftId!)).split(';')[0]!
}

function agreementPost(cookie: string, promotionCode?: string, ip = '10.37.1.1') {
	const fields: Record<string, string> = { intent: 'agree', agreeToTerms: 'on' }
	if (promotionCode) fields.promotionCode = promotionCode
	return callRoute(agreementAction, formRequest('/register/agreement', fields, { cookie, ip }))
}

/** Runs every request; a thrown error (a 500 to the visitor) becomes its message. */
async function answers(requests: Promise<Response>[]) {
	const settled = await Promise.allSettled(requests)
	return settled.map((outcome) =>
		outcome.status === 'fulfilled'
			? { status: outcome.value.status, location: outcome.value.headers.get('Location') }
			: { status: 500, location: `threw: ${outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)}` },
	)
}

async function footprint(courseId: number) {
	const [holds, reservations, payments] = await Promise.all([
		t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute(),
		t.db.selectFrom('promotion_code_redemptions').select('status').where('course_id', '=', courseId).execute(),
		t.db.selectFrom('registration_payments').select('checkout_session_id').where('course_id', '=', courseId).execute(),
	])
	return { holds: holds.length, uses: reservations.length, payments: payments.length }
}

function stripeSessionsOf(courseId: number) {
	return [...stripe.sessions.values()].filter((session) => session.metadata.courseId === String(courseId))
}

describe(`one buyer, ten purchase submits at once (${REPEATS} runs each)`, () => {
	test('the purchase form with a 1-use code through Stripe: ten answers with the same checkout, one session, one hold, one reservation', async () => {
		setPayments(stripePayments)
		stripe.setCreateLatency(STRIPE_LATENCY_MS)
		for (let run = 0; run < REPEATS; run++) {
			const course = await insertCourse(t.db, { capacity: 10, registration_fee: 250_000 })
			const limited = await oneUseCode(course.id)
			const buyer = await signedInUser(t.db)
			const replies = await answers(
				Array.from({ length: 10 }, () => enrollPost(course.id, buyer.cookie, limited.code, `10.37.10.${run + 1}`)),
			)
			expect(replies.map((reply) => reply.status)).toEqual(Array(10).fill(303))
			const sessions = stripeSessionsOf(course.id)
			expect(sessions).toHaveLength(1)
			expect(new Set(replies.map((reply) => reply.location))).toEqual(new Set([sessions[0]!.url]))
			expect(sessions[0]).toMatchObject({ amount_total: 200_000, status: 'open' })
			expect(await footprint(course.id)).toEqual({ holds: 1, uses: 1, payments: 1 })
		}
	}, 300_000)

	test("the registration wizard's payment step with a 1-use code through Stripe: the same", async () => {
		setPayments(stripePayments)
		stripe.setCreateLatency(STRIPE_LATENCY_MS)
		for (let run = 0; run < REPEATS; run++) {
			const course = await insertCourse(t.db, { capacity: 10, registration_fee: 250_000 })
			const limited = await oneUseCode(course.id)
			const cookie = await draftAtAgreement(course.id)
			const replies = await answers(Array.from({ length: 10 }, () => agreementPost(cookie, limited.code, `10.37.2.${run + 1}`)))
			expect(replies.map((reply) => reply.status)).toEqual(Array(10).fill(303))
			const sessions = stripeSessionsOf(course.id)
			expect(sessions).toHaveLength(1)
			expect(new Set(replies.map((reply) => reply.location))).toEqual(new Set([sessions[0]!.url]))
			expect(await footprint(course.id)).toEqual({ holds: 1, uses: 1, payments: 1 })
			const accounts = await t.db.selectFrom('seat_holds').select('user_id').where('course_id', '=', course.id).execute()
			expect(accounts).toHaveLength(1)
		}
	}, 300_000)

	test('a later submit, with or without the code, answers with the checkout still open and asks the provider nothing', async () => {
		setPayments(stripePayments)
		const course = await insertCourse(t.db, { capacity: 10, registration_fee: 250_000 })
		const limited = await oneUseCode(course.id)
		const buyer = await signedInUser(t.db)
		const first = await enrollPost(course.id, buyer.cookie, limited.code, '10.37.11.1')
		expect(first.status).toBe(303)
		const before = stripe.requests.length
		for (const code of [limited.code, undefined, 'OTHER-CODE']) {
			const again = await enrollPost(course.id, buyer.cookie, code, '10.37.11.1')
			expect(again.status).toBe(303)
			expect(again.headers.get('Location')).toBe(first.headers.get('Location'))
		}
		expect(stripe.requests.length).toBe(before)
		expect(await footprint(course.id)).toEqual({ holds: 1, uses: 1, payments: 1 })
	})

	test('no deadlock reaches a buyer: one buyer ten times at once, and five buyers twice each at once, on both paths', async () => {
		setPayments(testPayments)
		const problems: string[] = []
		for (let run = 0; run < REPEATS; run++) {
			const course = await insertCourse(t.db, { capacity: 20, registration_fee: 250_000 })
			const buyer = await signedInUser(t.db)
			const buyers = await Promise.all(Array.from({ length: 5 }, () => signedInUser(t.db)))
			const drafts = await Promise.all(Array.from({ length: 5 }, () => draftAtAgreement(course.id)))
			const ownDraft = await draftAtAgreement(course.id)
			const replies = await answers([
				...Array.from({ length: 10 }, () => enrollPost(course.id, buyer.cookie)),
				...buyers.flatMap((other, index) => [0, 1].map(() => enrollPost(course.id, other.cookie, undefined, `10.37.3.${index}`))),
				...Array.from({ length: 10 }, () => agreementPost(ownDraft, undefined, `10.37.4.${run}`)),
				...drafts.flatMap((cookie, index) => [0, 1].map(() => agreementPost(cookie, undefined, `10.37.5.${index * 30 + run}`))),
			])
			problems.push(...replies.filter((reply) => reply.status !== 303).map((reply) => `${reply.status} ${reply.location}`))
			// 1 + 5 signed-in buyers and 1 + 5 registrations: one hold and one checkout each.
			expect(await footprint(course.id)).toEqual({ holds: 12, uses: 0, payments: 12 })
		}
		expect(problems).toEqual([])
	}, 300_000)
})

describe('the buyer cancels their open checkout', () => {
	test('on the purchase form: the session ends at Stripe, the spot and the code use are given back, and the next purchase opens a new checkout', async () => {
		setPayments(stripePayments)
		const course = await insertCourse(t.db, { capacity: 10, registration_fee: 250_000 })
		const limited = await oneUseCode(course.id)
		const buyer = await signedInUser(t.db)
		const first = await enrollPost(course.id, buyer.cookie, limited.code, '10.37.14.1')
		const [session] = stripeSessionsOf(course.id)
		const cancelled = await callRoute(
			enrollAction,
			formRequest(`/courses/${course.id}/enroll`, { intent: 'cancel-checkout' }, { cookie: buyer.cookie, ip: '10.37.14.1' }),
			{ id: String(course.id) },
		)
		expect(cancelled.status).toBe(302)
		expect(cancelled.headers.get('Location')).toBe(`/courses/${course.id}`)
		expect(await toastOf(cancelled)).toMatchObject({ title: 'Checkout cancelled' })
		expect(stripe.sessions.get(session!.id)?.status).toBe('expired')
		expect(await footprint(course.id)).toEqual({ holds: 0, uses: 0, payments: 1 })
		const again = await enrollPost(course.id, buyer.cookie, limited.code, '10.37.14.1')
		expect(again.status).toBe(303)
		expect(again.headers.get('Location')).not.toBe(first.headers.get('Location'))
		expect(await footprint(course.id)).toEqual({ holds: 1, uses: 1, payments: 2 })
	})

	test("in the wizard's payment step, with the draft's account", async () => {
		setPayments(testPayments)
		const course = await insertCourse(t.db, { capacity: 10, registration_fee: 250_000 })
		const cookie = await draftAtAgreement(course.id)
		const opened = await agreementPost(cookie, undefined, '10.37.15.1')
		const sessionId = opened.headers.get('Location')!.split('/').at(-1)!
		const cancelled = await callRoute(agreementAction, formRequest('/register/agreement', { intent: 'cancel-checkout' }, { cookie }))
		expect(cancelled.headers.get('Location')).toBe('/register/agreement')
		expect((await testPayments.getSession(sessionId))?.status).toBe('expired')
		expect(await footprint(course.id)).toEqual({ holds: 0, uses: 0, payments: 1 })
	})
})

describe('the outside test: a 1-use code and a double submit', () => {
	/** Pays every test checkout of the course still open, as buyers who kept a tab open would. */
	async function payEveryOpenCheckout(courseId: number) {
		const sessions = await t.db.selectFrom('test_checkout_sessions').select(['id', 'metadata']).where('status', '=', 'open').execute()
		const open = sessions.filter((session) => session.metadata.courseId === String(courseId))
		for (const { id } of open) {
			if (await testPayments.markPaid(id)) await fulfil(t.db, testPayments, id)
		}
		return open.length
	}

	test(`double submit, the held checkout cancelled, another buyer takes the code, every open checkout paid (${REPEATS} runs): one discounted enrolment`, async () => {
		setPayments(testPayments)
		for (let run = 0; run < REPEATS; run++) {
			const course = await insertCourse(t.db, { capacity: 10, registration_fee: 250_000 })
			const limited = await oneUseCode(course.id)
			const first = await signedInUser(t.db)
			const second = await signedInUser(t.db)
			const ip = `10.37.12.${run + 1}`
			await answers([enrollPost(course.id, first.cookie, limited.code, ip), enrollPost(course.id, first.cookie, limited.code, ip)])
			const held = await t.db
				.selectFrom('seat_holds')
				.select('checkout_session_id')
				.where('user_id', '=', first.id)
				.executeTakeFirstOrThrow()
			const cancelled = await callRoute(
				testCheckoutAction,
				formRequest(`/test-checkout/${held.checkout_session_id}`, { intent: 'cancel' }),
				{
					sessionId: held.checkout_session_id!,
				},
			)
			expect(cancelled.status).toBe(302)
			const taken = await enrollPost(course.id, second.cookie, limited.code, ip)
			expect(taken.status).toBe(303)
			await payEveryOpenCheckout(course.id)
			const uses = await t.db
				.selectFrom('promotion_code_redemptions')
				.select(['user_id', 'status'])
				.where('promotion_code_id', '=', limited.id)
				.execute()
			expect(uses).toEqual([{ user_id: second.id, status: 'redeemed' }])
			const paid = await t.db
				.selectFrom('registration_payments')
				.select(['user_id', 'amount_cents'])
				.where('course_id', '=', course.id)
				.where('status', '=', 'paid')
				.execute()
			expect(paid).toEqual([{ user_id: second.id, amount_cents: 200_000 }])
		}
	}, 300_000)

	test('a payment that arrives after its reservation lapsed, the code used up meanwhile: enrolled, recorded over the limit, shown to the admin', async () => {
		setPayments(testPayments)
		const course = await insertCourse(t.db, { capacity: 10, registration_fee: 250_000 })
		const limited = await oneUseCode(course.id)
		const late = await signedInUser(t.db)
		const onTime = await signedInUser(t.db)
		expect((await enrollPost(course.id, late.cookie, limited.code, '10.37.13.1')).status).toBe(303)
		const lateHold = await t.db.selectFrom('seat_holds').selectAll().where('user_id', '=', late.id).executeTakeFirstOrThrow()
		// The hold runs out while the card is being processed; the sweep gives the use back.
		await t.db
			.updateTable('seat_holds')
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where('id', '=', lateHold.id)
			.execute()
		expect((await enrollPost(course.id, onTime.cookie, limited.code, '10.37.7.1')).status).toBe(303)
		const onTimeHold = await t.db.selectFrom('seat_holds').selectAll().where('user_id', '=', onTime.id).executeTakeFirstOrThrow()
		await t.db.updateTable('test_checkout_sessions').set({ status: 'complete', payment_status: 'paid' }).execute()
		expect(await fulfil(t.db, testPayments, lateHold.checkout_session_id!)).toMatchObject({ status: 'enrolled', userId: late.id })
		expect(await fulfil(t.db, testPayments, onTimeHold.checkout_session_id!)).toMatchObject({ status: 'enrolled', userId: onTime.id })
		const uses = await t.db
			.selectFrom('promotion_code_redemptions')
			.select(['user_id', 'status'])
			.where('promotion_code_id', '=', limited.id)
			.orderBy('id')
			.execute()
		expect(uses).toEqual(
			expect.arrayContaining([
				{ user_id: onTime.id, status: 'redeemed' },
				{ user_id: late.id, status: 'over_limit' },
			]),
		)
		expect(uses).toHaveLength(2)
		const listed = (await listPromotionCodes(t.db)).find((listed) => listed.id === limited.id)!
		expect(listed).toMatchObject({ maxUses: 1, uses: 1, overLimit: 1 })
		const audit = await t.db
			.selectFrom('audit_log')
			.select(['action', 'details'])
			.where('action', '=', 'promotion_code.over_limit')
			.execute()
		expect(audit).toHaveLength(1)
	})
})

describe('the test checkout reads its form like every other action', () => {
	test('a body over 1 MB answers 413 without being read whole', async () => {
		const course = await insertCourse(t.db, { registration_fee: 250_000 })
		const buyer = await signedInUser(t.db)
		setPayments(testPayments)
		expect((await enrollPost(course.id, buyer.cookie)).status).toBe(303)
		const hold = await t.db.selectFrom('seat_holds').select('checkout_session_id').where('user_id', '=', buyer.id).executeTakeFirstOrThrow()
		const sessionId = hold.checkout_session_id!
		const response = await callRoute(
			testCheckoutAction,
			formRequest(`/test-checkout/${sessionId}`, { intent: 'pay', name: 'x'.repeat(2 * 1024 * 1024) }),
			{ sessionId },
		)
		expect(response.status).toBe(413)
	})
})
