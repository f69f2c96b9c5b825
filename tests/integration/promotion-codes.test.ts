/**
 * Promotion codes (docs/decisions/037): what Stripe is asked, what the test checkout
 * charges, what is recorded, and exact use counts under parallel redemptions.
 * PROMOTION_REPEATS repeats the races (default 5 runs each).
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { listEnrollments } from '#app/models/enrollment/enrollments-admin.server.ts'
import { chooseDraftCourse, saveDraftDetails } from '#app/models/enrollment/registration.server.ts'
import { claimSeat, expireCheckout, fulfil, openCheckout, sweepExpiredCheckouts } from '#app/models/payments/payments.server.ts'
import { PromotionCodeError, previewPromotionCode } from '#app/models/payments/promotion-codes.server.ts'
import {
	createPromotionCodeSchema,
	PAST_END_DATE_MESSAGE,
	PROMOTION_CODE_CHARACTERS_MESSAGE,
	PROMOTION_CODE_MESSAGES,
} from '#app/models/payments/promotion-codes.ts'
import { createPromotionCode, deactivatePromotionCode, listPromotionCodes } from '#app/models/payments/promotion-codes-admin.server.ts'
import { action as codesAction } from '#app/routes/admin/promotion-codes.tsx'
import { draftCookieHeader } from '#app/routes/register/+shared/draft-cookie.server.ts'
import { PROMOTION_CODE_ATTEMPTS_MESSAGE } from '#app/routes/register/+shared/wizard.server.ts'
import { action as agreementAction } from '#app/routes/register/agreement.tsx'
import { action as enrollAction } from '#app/routes/register/enroll.tsx'
import { action as placeAction } from '#app/routes/register/waitlist-place.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import type { PaymentProvider } from '#app/services/payments/payments.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { hashToken } from '#app/utils/session.server.ts'
import { confirmedBuyer } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertUser, insertWaitlistEntry } from '#tests/support/fixtures.ts'
import { mailStartingWith } from '#tests/support/outbox.ts'
import { raceTallies, tally } from '#tests/support/races.ts'
import { callRoute, formRequest, settle, signedInUser, toastOf } from '#tests/support/requests.ts'
import { useStripeStandIn } from '#tests/support/stripe-stand-in.ts'

const t = useTestDatabase()
const APP_URL = 'http://localhost:3000'
const REPEATS = Number(process.env.PROMOTION_REPEATS ?? 5)
const races = { runs: REPEATS, print: Boolean(process.env.PROMOTION_REPEATS) }
const { stripe, payments: stripePayments } = useStripeStandIn()
let testPayments: TestCheckoutPayments
let adminId: string

beforeAll(async () => {
	testPayments = new TestCheckoutPayments(() => t.db)
	adminId = await insertUser(t.db, { role: 'admin', name: 'Code Admin', email: 'codes-admin@example.com' })
})

let sequence = 0
async function course(values: { capacity?: number; registration_fee?: number } = {}) {
	return insertCourse(t.db, { title: `Coded course ${++sequence}`, capacity: 5, registration_fee: 250_000, ...values })
}

async function code(values: {
	percentOff?: number
	amountOffCents?: number
	courseId?: number
	expiresAt?: Date
	maxUses?: number
	code?: string
}) {
	const created = await createPromotionCode(t.db, adminId, {
		code: values.code ?? `CODE${++sequence}`,
		percentOff: values.percentOff ?? (values.amountOffCents ? null : 20),
		amountOffCents: values.amountOffCents ?? null,
		courseId: values.courseId ?? null,
		expiresAt: values.expiresAt ?? null,
		maxUses: values.maxUses ?? null,
	})
	if (typeof created === 'string') throw new Error(created)
	return t.db.selectFrom('promotion_codes').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow()
}

/** Claims a seat with the code and opens the checkout when one is needed, as the wizard does. */
async function buy(payments: PaymentProvider, user: { id: string; email: string }, courseId: number, promotionCode?: string) {
	const claim = await t.db.transaction().execute((trx) => claimSeat(trx, { userId: user.id, courseId, promotionCode }))
	if (claim.kind === 'enrolled') return { kind: 'enrolled' as const, claim }
	const checkout = await openCheckout(t.db, payments, { claim, user, appUrl: APP_URL, cancelPath: '/register/agreement' })
	return { kind: 'checkout' as const, claim, ...checkout }
}

function attempt(payments: PaymentProvider, user: { id: string; email: string }, courseId: number, promotionCode: string) {
	return buy(payments, user, courseId, promotionCode).then(
		(outcome) => outcome.kind,
		(error: unknown) => (error instanceof PromotionCodeError ? error.reason : `unexpected: ${String(error)}`),
	)
}

/** A race's answer: on to the checkout, or refused with its status. */
const checkoutOrStatus = (response: Response) => (response.status === 303 ? 'checkout' : String(response.status))

async function redemptions(promotionCodeId: number) {
	return t.db.selectFrom('promotion_code_redemptions').selectAll().where('promotion_code_id', '=', promotionCodeId).orderBy('id').execute()
}

/** What a checkout's payment row says of the code: the amount charged, the discount, the code and the payment's status. */
async function codedPayment(checkoutSessionId: string) {
	return t.db
		.selectFrom('registration_payments')
		.select(['amount_cents', 'discount_cents', 'promotion_code', 'status'])
		.where('checkout_session_id', '=', checkoutSessionId)
		.executeTakeFirst()
}

/** The text of the enrolment receipt queued for an address. */
async function receiptText(email: string) {
	const receipt = await mailStartingWith(t.db, email, 'Enrollment confirmed: ')
	return receipt.text_body
}

/** The user's seat hold runs out and the sweep of expired checkouts (through Stripe) removes it. */
async function lapseHoldOf(userId: string) {
	await t.db
		.updateTable('seat_holds')
		.set({ expires_at: new Date(Date.now() - 1000) })
		.where('user_id', '=', userId)
		.execute()
	await sweepExpiredCheckouts(t.db, stripePayments)
}

async function usesOf(promotionCodeId: number) {
	return (await listPromotionCodes(t.db)).find((listed) => listed.id === promotionCodeId)!.uses
}

describe('Stripe Checkout gets the discount as a Stripe promotion code', () => {
	test('the first use creates a coupon and a promotion code once; the session carries it; fulfilment records what was paid', async () => {
		const { id: courseId } = await course({ registration_fee: 250_000 })
		const spring = await code({ percentOff: 20, code: 'SPRING20', courseId })
		const buyer = await confirmedBuyer(t.db)
		const before = stripe.requests.length
		const first = await buy(stripePayments, buyer, courseId, 'spring20')
		if (first.kind !== 'checkout') throw new Error('expected a checkout')

		const calls = stripe.requests.slice(before).map((request) => `${request.method} ${request.path}`)
		expect(calls).toEqual(['POST /v1/coupons', 'POST /v1/promotion_codes', 'POST /v1/checkout/sessions'])
		const [couponCall, promotionCall, sessionCall] = stripe.requests.slice(before)
		expect(couponCall!.headers['idempotency-key']).toBe(`promotion-code-${spring.id}-coupon`)
		expect(couponCall!.body).toEqual({
			percent_off: '20',
			duration: 'once',
			name: 'SPRING20',
			metadata: { promotionCodeId: String(spring.id) },
		})
		const coupon = [...stripe.coupons.values()].find((candidate) => candidate.name === 'SPRING20')!
		expect(promotionCall!.headers['idempotency-key']).toBe(`promotion-code-${spring.id}`)
		expect(promotionCall!.body).toEqual({
			promotion: { type: 'coupon', coupon: coupon.id },
			code: 'SPRING20',
			metadata: { promotionCodeId: String(spring.id) },
		})
		const promotion = [...stripe.promotionCodes.values()].find((candidate) => candidate.code === 'SPRING20')!
		expect(sessionCall!.body).toMatchObject({
			discounts: { 0: { promotion_code: promotion.id } },
			line_items: { 0: { quantity: '1', price_data: { currency: 'usd', unit_amount: '250000' } } },
		})
		const session = stripe.sessions.get(first.sessionId)!
		expect(session).toMatchObject({ amount_subtotal: 250_000, amount_total: 200_000, total_details: { amount_discount: 50_000 } })
		expect(
			await t.db.selectFrom('promotion_codes').select('stripe_promotion_code_id').where('id', '=', spring.id).executeTakeFirst(),
		).toEqual({ stripe_promotion_code_id: promotion.id })
		expect(
			await t.db
				.selectFrom('registration_payments')
				.select(['amount_cents', 'discount_cents', 'promotion_code', 'promotion_code_id', 'status'])
				.where('checkout_session_id', '=', first.sessionId)
				.executeTakeFirst(),
		).toEqual({
			amount_cents: 200_000,
			discount_cents: 50_000,
			promotion_code: 'SPRING20',
			promotion_code_id: spring.id,
			status: 'pending',
		})
		expect(await redemptions(spring.id)).toMatchObject([
			{ status: 'reserved', checkout_session_id: first.sessionId, discount_cents: 50_000 },
		])

		// A second buyer: Stripe's promotion code is reused, no new coupon.
		const second = await confirmedBuyer(t.db)
		const beforeSecond = stripe.requests.length
		const other = await buy(stripePayments, second, courseId, 'SPRING20')
		expect(stripe.requests.slice(beforeSecond).map((request) => `${request.method} ${request.path}`)).toEqual([
			'POST /v1/checkout/sessions',
		])
		expect(stripe.requests.at(-1)!.body).toMatchObject({ discounts: { 0: { promotion_code: promotion.id } } })
		if (other.kind !== 'checkout') throw new Error('expected a checkout')

		stripe.pay(first.sessionId)
		expect(await fulfil(t.db, stripePayments, first.sessionId)).toMatchObject({ status: 'enrolled' })
		expect(await fulfil(t.db, stripePayments, first.sessionId)).toMatchObject({ status: 'enrolled' })
		const enrollment = await t.db
			.selectFrom('enrollments')
			.select('id')
			.where('user_id', '=', buyer.id)
			.where('course_id', '=', courseId)
			.executeTakeFirstOrThrow()
		expect(
			await t.db
				.selectFrom('registration_payments')
				.select(['amount_cents', 'discount_cents', 'status', 'enrollment_id'])
				.where('checkout_session_id', '=', first.sessionId)
				.executeTakeFirst(),
		).toEqual({ amount_cents: 200_000, discount_cents: 50_000, status: 'paid', enrollment_id: enrollment.id })
		// The receipt states what was charged, and the list price and code that led to it (issue 39 point 9).
		expect(await receiptText(buyer.email)).toMatch(
			new RegExp(`Price +\\$2,500\\.00\nPromotion code ${spring.code} +−\\$500\\.00\nAmount paid +\\$2,000\\.00`),
		)
		const rows = await redemptions(spring.id)
		expect(rows).toHaveLength(2)
		expect(rows.find((row) => row.checkout_session_id === first.sessionId)).toMatchObject({
			status: 'redeemed',
			enrollment_id: enrollment.id,
			seat_hold_id: null,
			price_cents: 250_000,
			discount_cents: 50_000,
		})
		expect(rows.find((row) => row.checkout_session_id === other.sessionId)).toMatchObject({ status: 'reserved' })
		expect(await usesOf(spring.id)).toBe(2)
		expect((await listPromotionCodes(t.db)).find((listed) => listed.id === spring.id)?.reserved).toBe(1)

		// The second buyer gives up: the use is given back with the hold.
		await stripePayments.expireCheckoutSession(other.sessionId)
		await expireCheckout(t.db, other.sessionId)
		expect(await redemptions(spring.id)).toHaveLength(1)
		expect(await usesOf(spring.id)).toBe(1)
	})

	test('a paid checkout whose seat was lost is flagged for refund and gives its use back; one whose hold lapsed but that enrols counts', async () => {
		const { id: courseId } = await course({ capacity: 1 })
		const limited = await code({ maxUses: 5 })
		const late = await confirmedBuyer(t.db)
		const outcome = await buy(stripePayments, late, courseId, limited.code)
		if (outcome.kind !== 'checkout') throw new Error('expected a checkout')
		// The hold lapses and the sweep removes it with its reservation; someone else takes the seat.
		await lapseHoldOf(late.id)
		expect(await redemptions(limited.id)).toEqual([])
		const other = await confirmedBuyer(t.db)
		await insertEnrollment(t.db, { userId: other.id, courseId })
		stripe.pay(outcome.sessionId)
		expect(await fulfil(t.db, stripePayments, outcome.sessionId)).toMatchObject({ status: 'needs_refund' })
		expect(await redemptions(limited.id)).toEqual([])

		const { id: roomyCourseId } = await course({ capacity: 5 })
		const lucky = await confirmedBuyer(t.db)
		const second = await buy(stripePayments, lucky, roomyCourseId, limited.code)
		if (second.kind !== 'checkout') throw new Error('expected a checkout')
		await lapseHoldOf(lucky.id)
		stripe.pay(second.sessionId)
		expect(await fulfil(t.db, stripePayments, second.sessionId)).toMatchObject({ status: 'enrolled' })
		// The customer paid the discounted price: the use is recorded again (docs/decisions/037).
		expect(await redemptions(limited.id)).toMatchObject([
			{ status: 'redeemed', checkout_session_id: second.sessionId, discount_cents: 50_000 },
		])
	})

	test('an amount off is sent as amount_off with its currency and charged as Stripe charges it', async () => {
		const { id: courseId } = await course({ registration_fee: 120_000 })
		const fifty = await code({ amountOffCents: 50_000 })
		const buyer = await confirmedBuyer(t.db)
		const before = stripe.requests.length
		const outcome = await buy(stripePayments, buyer, courseId, fifty.code)
		if (outcome.kind !== 'checkout') throw new Error('expected a checkout')
		expect(stripe.requests[before]!.body).toEqual({
			amount_off: '50000',
			currency: 'usd',
			duration: 'once',
			name: fifty.code,
			metadata: { promotionCodeId: String(fifty.id) },
		})
		expect(stripe.sessions.get(outcome.sessionId)).toMatchObject({ amount_total: 70_000, amount_subtotal: 120_000 })
	})
})

describe('the built-in test checkout mirrors it', () => {
	test('the session is priced with the discount and names the code; paying records the discounted amount', async () => {
		const { id: courseId } = await course({ registration_fee: 99_999 })
		const third = await code({ percentOff: 33 })
		const buyer = await confirmedBuyer(t.db)
		const outcome = await buy(testPayments, buyer, courseId, third.code.toLowerCase())
		if (outcome.kind !== 'checkout') throw new Error('expected a checkout')
		const session = await testPayments.getSession(outcome.sessionId)
		// 33% of $999.99 is $330.00 (329.9967 rounded), as Stripe rounds it.
		expect(session).toMatchObject({ amountCents: 66_999, amountSubtotal: 99_999, amountDiscount: 33_000, promotionCode: third.code })
		expect(await testPayments.markPaid(outcome.sessionId)).toBe(true)
		expect(await fulfil(t.db, testPayments, outcome.sessionId)).toMatchObject({ status: 'enrolled' })
		expect(await codedPayment(outcome.sessionId)).toEqual({
			amount_cents: 66_999,
			discount_cents: 33_000,
			promotion_code: third.code,
			status: 'paid',
		})
		expect(await redemptions(third.id)).toMatchObject([{ status: 'redeemed', price_cents: 99_999, discount_cents: 33_000 }])
	})

	test('an expired test checkout gives its use back with its seat', async () => {
		const { id: courseId } = await course()
		const once = await code({ maxUses: 1 })
		const outcome = await buy(testPayments, await confirmedBuyer(t.db), courseId, once.code)
		if (outcome.kind !== 'checkout') throw new Error('expected a checkout')
		expect(await attempt(testPayments, await confirmedBuyer(t.db), courseId, once.code)).toBe('used-up')
		await t.db
			.updateTable('test_checkout_sessions')
			.set({ expires_at: new Date(Date.now() - 1000) })
			.execute()
		await t.db
			.updateTable('seat_holds')
			.set({ expires_at: new Date(Date.now() - 1000) })
			.execute()
		// An expired hold stops counting at once, before any sweep…
		expect(await usesOf(once.id)).toBe(0)
		await sweepExpiredCheckouts(t.db, testPayments)
		// …and the sweep removes the reservation with the hold.
		expect(await redemptions(once.id)).toEqual([])
		expect(await attempt(testPayments, await confirmedBuyer(t.db), courseId, once.code)).toBe('checkout')
	})
})

describe('a code that takes the price to zero', () => {
	test('enrols without a checkout, asks the provider nothing, and records the redemption with the enrolment', async () => {
		const { id: courseId } = await course({ registration_fee: 250_000 })
		const full = await code({ percentOff: 100 })
		const buyer = await confirmedBuyer(t.db)
		const before = stripe.requests.length
		const outcome = await buy(stripePayments, buyer, courseId, full.code)
		expect(outcome.kind).toBe('enrolled')
		expect(stripe.requests.length).toBe(before)
		const enrollment = await t.db.selectFrom('enrollments').select('id').where('user_id', '=', buyer.id).executeTakeFirstOrThrow()
		expect(await redemptions(full.id)).toMatchObject([
			{ status: 'redeemed', enrollment_id: enrollment.id, price_cents: 250_000, discount_cents: 250_000 },
		])
		expect(await t.db.selectFrom('seat_holds').select('id').where('user_id', '=', buyer.id).execute()).toEqual([])
	})
})

describe("a total below the provider's minimum charge (docs/decisions/047)", () => {
	test('is waived: the preview says free, the claim enrols without a checkout and records the code with the whole price off', async () => {
		const { id: courseId } = await course({ registration_fee: 10_000 })
		const nearlyFree = await code({ amountOffCents: 9_980 })
		expect(await previewPromotionCode(t.db, { code: nearlyFree.code, courseId, priceCents: 10_000 })).toMatchObject({
			discountCents: 10_000,
			totalCents: 0,
		})
		const buyer = await confirmedBuyer(t.db)
		const before = stripe.requests.length
		const outcome = await buy(stripePayments, buyer, courseId, nearlyFree.code)
		expect(outcome.kind).toBe('enrolled')
		expect(stripe.requests.length).toBe(before)
		expect(await redemptions(nearlyFree.id)).toMatchObject([{ status: 'redeemed', price_cents: 10_000, discount_cents: 10_000 }])
		// The receipt names the code and what it took off (issue 39 point 9).
		expect(await receiptText(buyer.email)).toMatch(
			new RegExp(`Price +\\$100\\.00\nPromotion code ${nearlyFree.code} +−\\$100\\.00\nAmount paid +Free`),
		)
	})

	test('a total at the minimum is charged as it is', async () => {
		const { id: courseId } = await course({ registration_fee: 10_000 })
		const fiftyCentsLeft = await code({ amountOffCents: 9_950 })
		const outcome = await buy(stripePayments, await confirmedBuyer(t.db), courseId, fiftyCentsLeft.code)
		expect(outcome.kind).toBe('checkout')
		expect(outcome.claim.promotion).toMatchObject({ discountCents: 9_950, totalCents: 50 })
	})
})

describe('codes that cannot be used', () => {
	test('unknown, deactivated, expired, for another course, used up: refused with the reason, nothing held or counted', async () => {
		const { id: courseId } = await course()
		const { id: otherCourseId } = await course()
		const deactivated = await code({})
		expect(await deactivatePromotionCode(t.db, adminId, deactivated.id)).toBe(true)
		expect(await deactivatePromotionCode(t.db, adminId, deactivated.id)).toBe(false)
		const expired = await code({ expiresAt: new Date(Date.now() - 1000) })
		const elsewhere = await code({ courseId: otherCourseId })
		const once = await code({ maxUses: 1, percentOff: 100 })
		expect(await attempt(testPayments, await confirmedBuyer(t.db), courseId, once.code)).toBe('enrolled')

		for (const [typed, reason] of [
			['NO-SUCH-CODE', 'unknown'],
			[deactivated.code, 'inactive'],
			[expired.code, 'expired'],
			[elsewhere.code, 'wrong-course'],
			[once.code, 'used-up'],
		] as const) {
			const buyer = await confirmedBuyer(t.db)
			expect(await attempt(testPayments, buyer, courseId, typed)).toBe(reason)
			await expect(previewPromotionCode(t.db, { code: typed, courseId, priceCents: 250_000 })).rejects.toMatchObject({ reason })
			expect(await t.db.selectFrom('seat_holds').select('id').where('user_id', '=', buyer.id).execute()).toEqual([])
			expect(await t.db.selectFrom('enrollments').select('id').where('user_id', '=', buyer.id).execute()).toEqual([])
		}
		expect(
			await previewPromotionCode(t.db, { code: elsewhere.code.toLowerCase(), courseId: otherCourseId, priceCents: 1000 }),
		).toMatchObject({
			discountCents: 200,
			totalCents: 800,
		})
		const audit = await t.db.selectFrom('audit_log').select('action').where('entity', '=', 'promotion_code').execute()
		expect(audit.map((entry) => entry.action)).toContain('promotion_code.deactivate')
	})

	test('a second code with the same letters is refused, whatever the case', async () => {
		await code({ code: 'ONCEONLY' })
		expect(
			await createPromotionCode(t.db, adminId, {
				code: 'ONCEONLY',
				percentOff: 5,
				amountOffCents: null,
				courseId: null,
				expiresAt: null,
				maxUses: null,
			}),
		).toBe('code-taken')
	})
})

describe('a control character in the code field', () => {
	test('Apply and Proceed, on the payment step and the purchase form, refuse it under the field with what was typed kept, and write nothing', async () => {
		const { id: courseId } = await course()
		const good = await code({ courseId })
		const buyer = await signedInUser(t.db)
		const draftId = await saveDraftDetails(t.db, null, {
			name: 'Nul Registrant',
			email: 'nul-registrant@example.com',
			passwordHash: 'unused-hash',
		})
		await chooseDraftCourse(t.db, draftId!, courseId)
		const draftCookie = (await draftCookieHeader(draftId!)).split(';')[0]!
		const tables = ['users', 'seat_holds', 'enrollments', 'registration_payments', 'promotion_code_redemptions'] as const
		const counts = () => Promise.all(tables.map(async (table) => (await t.db.selectFrom(table).select('id').execute()).length))
		const before = await counts()
		// The good code's own letters with the character behind them: only the character stands between the text and a match.
		for (const typed of [`${good.code}\u0000`, `${good.code}\u001b[31m`]) {
			for (const intent of ['apply-code', 'agree']) {
				const fields = { intent, promotionCode: typed, agreeToTerms: 'on' }
				const answers = [
					await callRoute(agreementAction, formRequest('/register/agreement', fields, { cookie: draftCookie })),
					await callRoute(enrollAction, formRequest(`/courses/${courseId}/enroll`, fields, { cookie: buyer.cookie }), {
						id: String(courseId),
					}),
				]
				for (const answer of answers) {
					expect(answer.status).toBe(400)
					const reply = (await answer.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
					expect(reply.result.error).toEqual({ promotionCode: [PROMOTION_CODE_CHARACTERS_MESSAGE] })
					expect(reply.result.initialValue).toMatchObject({ promotionCode: typed, agreeToTerms: 'on' })
				}
			}
		}
		expect(await counts()).toEqual(before)
	})
})

describe(`uses under concurrency (${REPEATS} runs each)`, () => {
	test('40 buyers race for a code of 3 uses (seats for all): exactly 3 checkouts with the code, 37 told it is used up', async () => {
		const results = await raceTallies({ ...races, label: '40 buyers / code of 3 uses:' }, async () => {
			const { id: courseId } = await course({ capacity: 100 })
			const limited = await code({ maxUses: 3 })
			const buyers = await Promise.all(Array.from({ length: 40 }, () => confirmedBuyer(t.db)))
			const outcomes = await Promise.all(buyers.map((buyer) => attempt(testPayments, buyer, courseId, limited.code)))
			expect(await redemptions(limited.id)).toHaveLength(3)
			expect(await usesOf(limited.id)).toBe(3)
			return outcomes
		})
		for (const result of results) expect(result).toEqual({ checkout: 3, 'used-up': 37 })
	}, 300_000)

	test('40 buyers race for a 100% code of 5 uses: exactly 5 enrolments without checkout', async () => {
		const results = await raceTallies({ ...races, label: '40 buyers / 100% code of 5 uses:' }, async () => {
			const { id: courseId } = await course({ capacity: 100 })
			const free = await code({ maxUses: 5, percentOff: 100 })
			const buyers = await Promise.all(Array.from({ length: 40 }, () => confirmedBuyer(t.db)))
			const outcomes = await Promise.all(buyers.map((buyer) => attempt(testPayments, buyer, courseId, free.code)))
			const enrolled = await t.db.selectFrom('enrollments').select('id').where('course_id', '=', courseId).execute()
			expect(enrolled).toHaveLength(5)
			return outcomes
		})
		for (const result of results) expect(result).toEqual({ enrolled: 5, 'used-up': 35 })
	}, 300_000)

	test('30 registrations post the payment step at once with a code of 2 uses through Stripe: exactly 2 checkouts, 28 told, no account left behind', async () => {
		setPayments(stripePayments)
		const results = await raceTallies({ ...races, label: '30 payment-step posts / code of 2 uses:' }, async (run) => {
			const { id: courseId } = await course({ capacity: 100 })
			const limited = await code({ maxUses: 2, amountOffCents: 10_000 })
			const cookies = await Promise.all(
				Array.from({ length: 30 }, async (_, index) => {
					const draftId = await saveDraftDetails(t.db, null, {
						name: 'Racing Registrant',
						email: `racer-${run}-${index}-${++sequence}@example.com`,
						passwordHash: 'unused-hash',
					})
					await chooseDraftCourse(t.db, draftId!, courseId)
					return (await draftCookieHeader(draftId!)).split(';')[0]!
				}),
			)
			// Each registration from an address of its own, in every run: the per-address registration limit stays out of the way.
			const responses = await Promise.all(
				cookies.map((cookie, index) =>
					settle(() =>
						agreementAction({
							request: formRequest(
								'/register/agreement',
								{ intent: 'agree', agreeToTerms: 'on', promotionCode: limited.code },
								{ cookie, ip: `10.27.${run}.${index + 1}` },
							),
							params: {},
							context: {},
						} as never),
					),
				),
			)
			const refused = responses.find((response) => response.status === 400)!
			const body = (await refused.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }
			expect(body.result.error).toEqual({ promotionCode: [PROMOTION_CODE_MESSAGES['used-up']] })
			expect(body.result.initialValue).toMatchObject({ promotionCode: limited.code, agreeToTerms: 'on' })
			const used = await redemptions(limited.id)
			expect(used).toHaveLength(2)
			const sessions = [...stripe.sessions.values()].filter((session) => used.some((row) => row.checkout_session_id === session.id))
			expect(sessions.map((session) => session.amount_total)).toEqual([240_000, 240_000])
			const accounts = await t.db.selectFrom('users').select('id').where('email', 'like', `racer-${run}-%`).execute()
			expect(accounts).toHaveLength(2)
			return responses.map(checkoutOrStatus)
		})
		for (const result of results) expect(result).toEqual({ checkout: 2, '400': 28 })
	}, 300_000)
})

describe(`waitlist offers claimed with a code of 2 uses, all at once (${REPEATS} runs)`, () => {
	test('6 people offered a freed seat each claim at /waitlist/places/:token with the code: exactly 2 checkouts with it, 4 told it is used up and still holding their offer', async () => {
		const results = await raceTallies({ ...races, label: '6 offer claims / code of 2 uses:' }, async (run) => {
			const { id: courseId } = await course({ capacity: 6 })
			const limited = await code({ maxUses: 2 })
			const offered = await Promise.all(
				Array.from({ length: 6 }, async (_, index) => {
					const person = await signedInUser(t.db, { name: `Offered ${index}`, email: `offered-${run}-${index}-${++sequence}@example.com` })
					const token = `offer-${run}-${index}-${sequence}`
					const entry = await insertWaitlistEntry(t.db, {
						course_id: courseId,
						name: `Offered ${index}`,
						email: person.email,
						position: index + 1,
						status: 'offered',
						offer_token_hash: hashToken(token),
						offered_at: new Date(),
						offer_expires_at: new Date(Date.now() + 3_600_000),
					})
					return { ...person, token, entryId: entry.id }
				}),
			)
			const responses = await Promise.all(
				offered.map((person, index) =>
					settle(() =>
						callRoute(
							placeAction,
							formRequest(
								`/waitlist/places/${person.token}`,
								{ intent: 'claim', agreeToTerms: 'on', promotionCode: limited.code },
								{ cookie: person.cookie, ip: `10.39.${run}.${index + 1}` },
							),
							{ token: person.token },
						),
					),
				),
			)
			const refused = responses.find((response) => response.status === 400)!
			const body = (await refused.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }
			expect(body.result.error).toEqual({ promotionCode: [PROMOTION_CODE_MESSAGES['used-up']] })
			expect(body.result.initialValue).toMatchObject({ promotionCode: limited.code })
			expect(await redemptions(limited.id)).toHaveLength(2)
			expect(await usesOf(limited.id)).toBe(2)
			const entries = await t.db.selectFrom('waitlist_entries').select('status').where('course_id', '=', courseId).execute()
			expect(tally(entries.map((entry) => entry.status))).toEqual({ claimed: 2, offered: 4 })
			return responses.map(checkoutOrStatus)
		})
		for (const result of results) expect(result).toEqual({ checkout: 2, '400': 4 })
	}, 300_000)
})

describe("a signed-in student's purchase form (/courses/:id/enroll)", () => {
	type Reply = {
		result: { status?: string; error?: Record<string, string[]>; initialValue?: Record<string, unknown> }
		preview: { code: string; totalCents: number; discountCents: number } | null
	}
	const post = (courseId: number, fields: Record<string, string>, cookie: string, ip?: string) =>
		callRoute(enrollAction, formRequest(`/courses/${courseId}/enroll`, fields, { cookie, ip }), { id: String(courseId) })

	async function footprint(userId: string, promotionCodeId: number) {
		return {
			holds: (await t.db.selectFrom('seat_holds').select('id').where('user_id', '=', userId).execute()).length,
			enrollments: (await t.db.selectFrom('enrollments').select('id').where('user_id', '=', userId).execute()).length,
			payments: (await t.db.selectFrom('registration_payments').select('id').where('user_id', '=', userId).execute()).length,
			uses: (await redemptions(promotionCodeId)).length,
		}
	}

	test('Apply prices a good code without a ticked box and reserves nothing; refused codes say why, keep what was typed, write nothing', async () => {
		setPayments(stripePayments)
		const { id: courseId } = await course({ registration_fee: 250_000 })
		const { id: otherCourseId } = await course()
		const good = await code({ percentOff: 20, courseId })
		const elsewhere = await code({ courseId: otherCourseId })
		const buyer = await signedInUser(t.db)
		const before = stripe.requests.length

		const applied = await post(courseId, { intent: 'apply-code', promotionCode: ` ${good.code.toLowerCase()} ` }, buyer.cookie)
		expect(applied.status).toBe(200)
		expect(((await applied.json()) as Reply).preview).toEqual({
			code: good.code,
			description: '20% off',
			priceCents: 250_000,
			discountCents: 50_000,
			totalCents: 200_000,
			plan: null,
			planRefusal: null,
		})

		const empty = await post(courseId, { intent: 'apply-code', promotionCode: '' }, buyer.cookie)
		expect(empty.status).toBe(400)
		expect(((await empty.json()) as Reply).result.error).toEqual({ promotionCode: ['Enter a promotion code to apply'] })

		const unknown = await post(courseId, { intent: 'apply-code', promotionCode: 'NO-SUCH-CODE', agreeToTerms: 'on' }, buyer.cookie)
		expect(unknown.status).toBe(400)
		const unknownReply = (await unknown.json()) as Reply
		expect(unknownReply.result.error).toEqual({ promotionCode: [PROMOTION_CODE_MESSAGES.unknown] })
		expect(unknownReply.result.initialValue).toMatchObject({ promotionCode: 'NO-SUCH-CODE', agreeToTerms: 'on' })
		expect(unknownReply.preview).toBeNull()

		// Buying with a code for another course: refused on the form, box and code kept, no seat held.
		const wrong = await post(courseId, { intent: 'agree', agreeToTerms: 'on', promotionCode: elsewhere.code }, buyer.cookie)
		expect(wrong.status).toBe(400)
		const wrongReply = (await wrong.json()) as Reply
		expect(wrongReply.result.error).toEqual({ promotionCode: [PROMOTION_CODE_MESSAGES['wrong-course']] })
		expect(wrongReply.result.initialValue).toMatchObject({ promotionCode: elsewhere.code, agreeToTerms: 'on' })

		// Buying without the box ticked is refused before any code is looked at.
		const unticked = await post(courseId, { intent: 'agree', promotionCode: good.code }, buyer.cookie)
		expect(unticked.status).toBe(400)
		expect(((await unticked.json()) as Reply).result.error).toMatchObject({ agreeToTerms: [expect.any(String)] })

		expect(stripe.requests.length).toBe(before)
		expect(await footprint(buyer.id, good.id)).toEqual({ holds: 0, enrollments: 0, payments: 0, uses: 0 })
		expect((await redemptions(elsewhere.id)).length).toBe(0)
	})

	test('buying with a code opens Stripe Checkout with its promotion code and the discounted price, the use reserved with the hold', async () => {
		setPayments(stripePayments)
		const { id: courseId } = await course({ registration_fee: 250_000 })
		const off = await code({ amountOffCents: 50_000, courseId })
		const buyer = await signedInUser(t.db)
		const response = await post(courseId, { intent: 'agree', agreeToTerms: 'on', promotionCode: off.code.toLowerCase() }, buyer.cookie)
		expect(response.status).toBe(303)
		const sessionId = response.headers.get('Location')!.split('/').at(-1)!
		const session = stripe.sessions.get(sessionId)!
		const promotion = [...stripe.promotionCodes.values()].find((candidate) => candidate.code === off.code)!
		expect(session).toMatchObject({
			amount_subtotal: 250_000,
			amount_total: 200_000,
			discounts: [{ promotion_code: promotion.id }],
			customer_email: buyer.email,
		})
		const hold = await t.db.selectFrom('seat_holds').select('id').where('user_id', '=', buyer.id).executeTakeFirstOrThrow()
		expect(await redemptions(off.id)).toMatchObject([{ status: 'reserved', seat_hold_id: hold.id, checkout_session_id: sessionId }])
		expect(await codedPayment(sessionId)).toEqual({
			amount_cents: 200_000,
			discount_cents: 50_000,
			promotion_code: off.code,
			status: 'pending',
		})
	})

	test('a code that makes the course free enrols at once, without asking Stripe', async () => {
		setPayments(stripePayments)
		const { id: courseId, title } = await course({ registration_fee: 250_000 })
		const free = await code({ percentOff: 100, maxUses: 1 })
		const buyer = await signedInUser(t.db)
		const before = stripe.requests.length
		const response = await post(courseId, { intent: 'agree', agreeToTerms: 'on', promotionCode: free.code }, buyer.cookie)
		expect(response.headers.get('Location')).toBe('/dashboard')
		expect(await toastOf(response)).toMatchObject({ type: 'success', description: `You are enrolled in ${title}.` })
		expect(stripe.requests.length).toBe(before)
		const enrollment = await t.db.selectFrom('enrollments').select('id').where('user_id', '=', buyer.id).executeTakeFirstOrThrow()
		expect(await redemptions(free.id)).toMatchObject([{ status: 'redeemed', enrollment_id: enrollment.id }])
	})

	test('codes cannot be guessed: 40 tried at once from one address, 30 are looked up and 10 refused with 429 before any lookup, a good code included', async () => {
		const { id: courseId } = await course({ registration_fee: 250_000 })
		const good = await code({ percentOff: 50, courseId })
		const buyer = await signedInUser(t.db)
		const ip = '10.99.0.1'
		const guesses = Array.from({ length: 40 }, (_, index) => `GUESS-${index}`)
		const responses = await Promise.all(
			guesses.map((guess) => post(courseId, { intent: 'apply-code', promotionCode: guess }, buyer.cookie, ip)),
		)
		const replies = await Promise.all(
			responses.map(async (response) => ({ status: response.status, reply: (await response.json()) as Reply })),
		)
		expect(tally(replies.map(({ status }) => String(status)))).toEqual({ '400': 30, '429': 10 })
		for (const { status, reply } of replies) {
			expect(reply.result.error).toEqual({
				promotionCode: [status === 429 ? PROMOTION_CODE_ATTEMPTS_MESSAGE : PROMOTION_CODE_MESSAGES.unknown],
			})
		}
		const tooMany = await post(courseId, { intent: 'agree', agreeToTerms: 'on', promotionCode: good.code }, buyer.cookie, ip)
		expect(tooMany.status).toBe(429)
		expect(((await tooMany.json()) as Reply).result.initialValue).toMatchObject({ promotionCode: good.code, agreeToTerms: 'on' })
		expect(await footprint(buyer.id, good.id)).toEqual({ holds: 0, enrollments: 0, payments: 0, uses: 0 })
		// Another address is not held back by this one.
		const elsewhere = await post(courseId, { intent: 'apply-code', promotionCode: good.code }, buyer.cookie, '10.99.0.2')
		expect(elsewhere.status).toBe(200)
	})

	test(`30 signed-in students post the purchase form at once with a code of 2 uses (${REPEATS} runs): exactly 2 checkouts, 28 told it is used up`, async () => {
		setPayments(testPayments)
		const results = await raceTallies({ ...races, label: '30 purchase-form posts / code of 2 uses:' }, async (run) => {
			const { id: courseId } = await course({ capacity: 100 })
			const limited = await code({ maxUses: 2 })
			const buyers = await Promise.all(Array.from({ length: 30 }, () => signedInUser(t.db)))
			const responses = await Promise.all(
				buyers.map((buyer, index) =>
					post(courseId, { intent: 'agree', agreeToTerms: 'on', promotionCode: limited.code }, buyer.cookie, `10.28.${run}.${index + 1}`),
				),
			)
			for (const response of responses.filter((candidate) => candidate.status === 400)) {
				expect(((await response.json()) as Reply).result.error).toEqual({ promotionCode: [PROMOTION_CODE_MESSAGES['used-up']] })
			}
			expect(await redemptions(limited.id)).toHaveLength(2)
			expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute()).toHaveLength(2)
			return responses.map(checkoutOrStatus)
		})
		for (const result of results) expect(result).toEqual({ checkout: 2, '400': 28 })
	}, 300_000)
})

describe('the admin screen', () => {
	async function adminPost(fields: Record<string, string>) {
		const { cookie } = await signedInUser(t.db, { role: 'admin' })
		return settle(() =>
			codesAction({ request: formRequest('/dashboard/admin/promotion-codes', fields, { cookie }), params: {}, context: {} } as never),
		)
	}

	test('refuses bad input field by field, keeping what was typed, and writes nothing', async () => {
		const before = await t.db.selectFrom('promotion_codes').select('id').execute()
		const response = await adminPost({ intent: 'create', code: 'x', kind: 'percent', value: '150', maxUses: '0', validThrough: 'soon' })
		expect(response.status).toBe(400)
		const { result } = (await response.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
		expect(Object.keys(result.error).sort()).toEqual(['code', 'maxUses', 'validThrough', 'value'])
		expect(result.initialValue).toMatchObject({ code: 'x', value: '150', validThrough: 'soon' })
		const amount = await adminPost({ intent: 'create', code: 'DOLLARS', kind: 'amount', value: '-3' })
		expect(((await amount.json()) as { result: { error: Record<string, string[]> } }).result.error).toEqual({
			value: ['Enter an amount in dollars, such as 250 or 99.50'],
		})
		expect(await t.db.selectFrom('promotion_codes').select('id').execute()).toEqual(before)
	})

	test('refuses an end date before today (UTC) on its field, writing nothing; today itself is allowed', async () => {
		const before = await t.db.selectFrom('promotion_codes').select('id').execute()
		const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10)
		for (const validThrough of ['2020-12-31', day(-1)]) {
			const response = await adminPost({ intent: 'create', code: `PAST${++sequence}`, kind: 'percent', value: '10', validThrough })
			expect(response.status, validThrough).toBe(400)
			const { result } = (await response.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
			expect(result.error).toEqual({ validThrough: ['The end date cannot be in the past.'] })
			expect(result.initialValue).toMatchObject({ validThrough })
		}
		expect(await t.db.selectFrom('promotion_codes').select('id').execute()).toEqual(before)

		const code = `TODAY${++sequence}`
		const created = await adminPost({ intent: 'create', code, kind: 'percent', value: '10', validThrough: day(0) })
		expect(created.status).toBe(302)
		const row = await t.db.selectFrom('promotion_codes').select('expires_at').where('code', '=', code).executeTakeFirstOrThrow()
		expect(row.expires_at?.toISOString()).toBe(`${day(1)}T00:00:00.000Z`)

		// The day turns at midnight UTC, whatever the admin's zone: the schema reads the clock it is given.
		const form = { intent: 'create', code: 'EDGE', kind: 'percent', value: '10', validThrough: '2031-06-30' }
		expect(createPromotionCodeSchema(new Date('2031-06-30T23:59:59.999Z')).safeParse(form).success).toBe(true)
		const nextDay = createPromotionCodeSchema(new Date('2031-07-01T00:00:00.000Z')).safeParse(form)
		expect(nextDay.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([[['validThrough'], PAST_END_DATE_MESSAGE]])
	})

	test('creates a code (upper case, valid through the end of the UTC day), refuses its twin, deactivates it', async () => {
		const { id: courseId } = await course()
		const created = await adminPost({
			intent: 'create',
			code: 'summer-99',
			kind: 'amount',
			value: '99.50',
			courseId: String(courseId),
			validThrough: '2031-06-30',
			maxUses: '10',
		})
		expect(created.status).toBe(302)
		const row = await t.db.selectFrom('promotion_codes').selectAll().where('code', '=', 'SUMMER-99').executeTakeFirstOrThrow()
		expect(row).toMatchObject({ amount_off_cents: 9950, percent_off: null, course_id: courseId, max_uses: 10 })
		expect(row.expires_at?.toISOString()).toBe('2031-07-01T00:00:00.000Z')
		const twin = await adminPost({ intent: 'create', code: 'Summer-99', kind: 'percent', value: '10' })
		expect(twin.status).toBe(400)
		expect(((await twin.json()) as { result: { error: Record<string, string[]> } }).result.error).toEqual({
			code: ['A promotion code with these letters already exists'],
		})
		const deactivated = await adminPost({ intent: 'deactivate', promotionCodeId: String(row.id) })
		expect(deactivated.status).toBe(302)
		expect((await toastOf(deactivated))?.title).toBe('Promotion code deactivated')
		const again = await adminPost({ intent: 'deactivate', promotionCodeId: String(row.id) })
		expect((await toastOf(again))?.title).toBe('Failed to deactivate promotion code')
	})

	test('the enrolments list shows what was paid and the code used, a code-made-free enrolment included', async () => {
		const { id: courseId, title } = await course({ registration_fee: 100_000 })
		const half = await code({ percentOff: 50 })
		const full = await code({ percentOff: 100 })
		const payer = await confirmedBuyer(t.db)
		const outcome = await buy(testPayments, payer, courseId, half.code)
		if (outcome.kind !== 'checkout') throw new Error('expected a checkout')
		await testPayments.markPaid(outcome.sessionId)
		await fulfil(t.db, testPayments, outcome.sessionId)
		const freeRider = await confirmedBuyer(t.db)
		await buy(testPayments, freeRider, courseId, full.code)
		const { enrollments } = await listEnrollments(t.db, { id: adminId, isAdmin: true }, { query: title })
		expect(enrollments.find((row) => row.studentEmail === payer.email)?.paid).toEqual({
			paidCents: 50_000,
			promotionCode: half.code,
			discountCents: 50_000,
		})
		expect(enrollments.find((row) => row.studentEmail === freeRider.email)?.paid).toEqual({
			paidCents: 0,
			promotionCode: full.code,
			discountCents: 100_000,
		})
	})
})
