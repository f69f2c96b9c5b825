/**
 * A promotion code on a payment plan (issue 41 point 5, docs/decisions/054 and 064): the code comes
 * off the plan's total (price and surcharge) and is spread over its instalments, which still add up;
 * the checkout charges the discounted first payment; Apply shows the plan with the code; a code that
 * leaves an instalment below the minimum charge is refused with nothing held; and the code's uses
 * hold under parallel purchases, on a plan as when paying in full.
 */
import { describe, expect, test } from 'vitest'
import { chooseDraftCourse, saveDraftDetails } from '#app/models/enrollment/registration.server.ts'
import { fulfil } from '#app/models/payments/payments.server.ts'
import { draftCookieHeader } from '#app/routes/register/+shared/draft-cookie.server.ts'
import { action as agreementAction } from '#app/routes/register/agreement.tsx'
import { action as enrollAction } from '#app/routes/register/enroll.tsx'
import { loader as completeLoader } from '#app/routes/register/registration-complete.tsx'
import { loader as checkoutLoader } from '#app/routes/register/test-checkout.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourseWithPlan, insertPromotionCode, type PaymentPlanValues } from '#tests/support/fixtures.ts'
import { mailStartingWith } from '#tests/support/outbox.ts'
import { planInstalments } from '#tests/support/plan-rows.ts'
import { callRoute, formRequest, getRequest, signedInUser } from '#tests/support/requests.ts'

const t = useTestDatabase()

let sequence = 0
const student = () => signedInUser(t.db)

/** A $2,500 course of 50 seats ending in five months; its plan three equal instalments with a $100 surcharge unless told. */
const courseWithPlan = (plan: PaymentPlanValues = {}) => insertCourseWithPlan(t.db, { capacity: 50, months: 5, plan })

async function promotionCode(values: { percentOff?: number; amountOffCents?: number; maxUses?: number } = {}) {
	return insertPromotionCode(t.db, {
		code: `PLAN${++sequence}`,
		percent_off: values.amountOffCents ? null : (values.percentOff ?? 10),
		amount_off_cents: values.amountOffCents ?? null,
		max_uses: values.maxUses ?? null,
	})
}

function enroll(courseId: number, cookie: string, fields: Record<string, string>, ip = '203.0.113.1') {
	return callRoute(
		enrollAction,
		formRequest(`/courses/${courseId}/enroll`, { intent: 'agree', agreeToTerms: 'on', ...fields }, { cookie, ip }),
		{ id: String(courseId) },
	)
}

async function planOf(checkoutSessionId: string) {
	const purchase = await t.db
		.selectFrom('plan_purchases')
		.select(['id', 'status', 'total_cents', 'promotion_code', 'discount_cents'])
		.where('checkout_session_id', '=', checkoutSessionId)
		.executeTakeFirstOrThrow()
	const instalments = await planInstalments(t.db, purchase.id)
	return { purchase, amounts: instalments.map((instalment) => instalment.amount_cents) }
}

/** A code's redemptions: the state of each and the price and discount it was reserved for. */
function redemptionsOf(promotionCodeId: number) {
	return t.db
		.selectFrom('promotion_code_redemptions')
		.select(['status', 'price_cents', 'discount_cents'])
		.where('promotion_code_id', '=', promotionCodeId)
		.execute()
}

const payments = new TestCheckoutPayments(() => t.db)

describe('a promotion code on a plan', () => {
	test('comes off the plan total and is spread over the instalments; the checkout, receipt and code use say so', async () => {
		setPayments(payments)
		const buyer = await student()
		const course = await courseWithPlan()
		const code = await promotionCode({ percentOff: 10 })
		const response = await enroll(course.id, buyer.cookie, { paymentOption: 'plan', promotionCode: code.code.toLowerCase() })
		expect(response.status).toBe(303)
		const sessionId = response.headers.get('Location')!.replace('/test-checkout/', '')

		// 10% of $2,600 (price and surcharge) is $260; $2,340 in three is $780 each.
		expect(await planOf(sessionId)).toEqual({
			purchase: expect.objectContaining({ status: 'pending', total_cents: 234_000, promotion_code: code.code, discount_cents: 26_000 }),
			amounts: [78_000, 78_000, 78_000],
		})
		expect(await payments.getSession(sessionId)).toMatchObject({ amountCents: 78_000, amountDiscount: 0, promotionCode: null })
		expect(await redemptionsOf(code.id)).toEqual([{ status: 'reserved', price_cents: 260_000, discount_cents: 26_000 }])

		const page = (await (await callRoute(checkoutLoader, getRequest(`/test-checkout/${sessionId}`), { sessionId })).json()) as {
			plan: { totalCents: number; discount: unknown }
		}
		expect(page.plan).toMatchObject({ totalCents: 234_000, discount: { code: code.code, priceCents: 260_000, discountCents: 26_000 } })

		expect(await payments.markPaid(sessionId)).toBe(true)
		expect(await fulfil(t.db, payments, sessionId)).toMatchObject({ status: 'enrolled' })
		expect(await redemptionsOf(code.id)).toEqual([{ status: 'redeemed', price_cents: 260_000, discount_cents: 26_000 }])
		const paid = await t.db
			.selectFrom('registration_payments')
			.select(['amount_cents', 'discount_cents', 'promotion_code'])
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow()
		expect(paid).toEqual({ amount_cents: 78_000, discount_cents: 0, promotion_code: code.code })
		const receipt = (await (
			await callRoute(completeLoader, getRequest(`/registration-complete?session_id=${sessionId}`, { cookie: buyer.cookie }))
		).json()) as { plan: { totalCents: number; discount: unknown } }
		expect(receipt.plan).toMatchObject({ totalCents: 234_000, discount: { code: code.code, priceCents: 260_000, discountCents: 26_000 } })
		const mail = await mailStartingWith(t.db, buyer.email, 'Enrollment confirmed: ')
		for (const line of ['Plan price', '$2,600.00', `Promotion code ${code.code}`, '$2,340.00 in 3 payments', 'Paid today', '$780.00']) {
			expect(mail.text_body).toContain(line)
		}
	})

	test('a deposit stays what the admin set; the discount comes off the instalments', async () => {
		setPayments(payments)
		const buyer = await student()
		const course = await courseWithPlan({ kind: 'deposit', deposit_cents: 50_000, instalment_count: 2, surcharge_cents: 0 })
		const code = await promotionCode({ amountOffCents: 25_001 })
		const response = await enroll(course.id, buyer.cookie, { paymentOption: 'plan', promotionCode: code.code })
		const sessionId = response.headers.get('Location')!.replace('/test-checkout/', '')
		expect((await planOf(sessionId)).amounts).toEqual([50_000, 87_500, 87_499])
		expect(await payments.getSession(sessionId)).toMatchObject({ amountCents: 50_000 })
	})

	test('Apply shows the plan with the code; a code that leaves an instalment below the minimum charge is refused with nothing held', async () => {
		setPayments(payments)
		const buyer = await student()
		const course = await courseWithPlan({ kind: 'deposit', deposit_cents: 50_000, instalment_count: 2, surcharge_cents: 0 })
		const tenPercent = await promotionCode({ percentOff: 10 })
		const applied = await enroll(course.id, buyer.cookie, { intent: 'apply-code', promotionCode: tenPercent.code })
		expect(applied.status).toBe(200)
		const { preview } = (await applied.json()) as { preview: Record<string, unknown> }
		expect(preview).toMatchObject({
			totalCents: 225_000,
			plan: {
				totalCents: 225_000,
				discount: { code: tenPercent.code, priceCents: 250_000, discountCents: 25_000 },
				payments: [{ amountCents: 50_000 }, { amountCents: 87_500 }, { amountCents: 87_500 }],
			},
			planRefusal: null,
		})

		const huge = await promotionCode({ amountOffCents: 199_990 })
		const tooSmall = await enroll(course.id, buyer.cookie, { intent: 'apply-code', promotionCode: huge.code })
		expect(await tooSmall.json()).toMatchObject({
			preview: { totalCents: 50_010, plan: null, planRefusal: expect.stringContaining('pay in full') },
		})
		const refused = await enroll(course.id, buyer.cookie, { paymentOption: 'plan', promotionCode: huge.code })
		expect(refused.status).toBe(400)
		const reply = (await refused.json()) as { result: { error: Record<string, string[]> } }
		expect(reply.result.error.promotionCode?.[0]).toContain('below the smallest amount we can charge')
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', course.id).execute()).toEqual([])
		expect(await t.db.selectFrom('promotion_code_redemptions').select('id').where('promotion_code_id', '=', huge.id).execute()).toEqual([])
		expect(await t.db.selectFrom('plan_purchases').select('id').where('course_id', '=', course.id).execute()).toEqual([])
	})

	test('the wizard’s agreement step applies the code to the plan and buys it discounted', async () => {
		setPayments(payments)
		const course = await courseWithPlan()
		const code = await promotionCode({ amountOffCents: 30_000 })
		const draftId = await saveDraftDetails(t.db, null, {
			name: 'Wizard Plan Buyer',
			email: `wizard-plan-${++sequence}@example.com`,
			passwordHash: 'unused-hash',
		})
		await chooseDraftCourse(t.db, draftId!, course.id)
		const cookie = (await draftCookieHeader(draftId!)).split(';')[0]!
		const post = (fields: Record<string, string>) => callRoute(agreementAction, formRequest('/register/agreement', fields, { cookie }))

		const applied = await post({ intent: 'apply-code', promotionCode: code.code, paymentOption: 'plan' })
		// $300 off the plan's $2,600: $2,300 in three is $766.68, $766.66, $766.66.
		expect(await applied.json()).toMatchObject({
			preview: {
				totalCents: 220_000,
				plan: { totalCents: 230_000, payments: [{ amountCents: 76_668 }, { amountCents: 76_666 }, { amountCents: 76_666 }] },
			},
		})
		const bought = await post({ intent: 'agree', agreeToTerms: 'on', paymentOption: 'plan', promotionCode: code.code })
		expect(bought.status).toBe(303)
		const sessionId = bought.headers.get('Location')!.replace('/test-checkout/', '')
		expect(await planOf(sessionId)).toMatchObject({
			purchase: { total_cents: 230_000, discount_cents: 30_000, promotion_code: code.code },
			amounts: [76_668, 76_666, 76_666],
		})
	})

	test('a code that leaves nothing to pay enrols at once, whichever way the buyer chose to pay', async () => {
		setPayments(payments)
		const buyer = await student()
		const course = await courseWithPlan()
		const free = await promotionCode({ percentOff: 100 })
		const response = await enroll(course.id, buyer.cookie, { paymentOption: 'plan', promotionCode: free.code })
		expect(response.headers.get('Location')).toBe('/dashboard')
		expect(await t.db.selectFrom('enrollments').select('status').where('course_id', '=', course.id).execute()).toEqual([
			{ status: 'active' },
		])
		expect(await t.db.selectFrom('plan_purchases').select('id').where('course_id', '=', course.id).execute()).toEqual([])
	})
})

describe('the code’s uses under parallel purchases', () => {
	test('20 buyers post at once, half on the plan, with a code of 3 uses: exactly 3 checkouts carry it, 17 are told it is used up', async () => {
		setPayments(payments)
		const course = await courseWithPlan()
		const limited = await promotionCode({ percentOff: 20, maxUses: 3 })
		const buyers = await Promise.all(Array.from({ length: 20 }, () => student()))
		const responses = await Promise.all(
			buyers.map((buyer, index) =>
				enroll(
					course.id,
					buyer.cookie,
					{ paymentOption: index % 2 ? 'plan' : 'full', promotionCode: limited.code },
					`198.51.100.${index + 1}`,
				),
			),
		)
		const statuses = responses.map((response) => response.status)
		expect(statuses.filter((status) => status === 303)).toHaveLength(3)
		expect(statuses.filter((status) => status === 400)).toHaveLength(17)
		for (const response of responses.filter((answer) => answer.status === 400)) {
			expect(JSON.stringify(await response.json())).toContain('used the maximum number of times')
		}
		const uses = await t.db.selectFrom('promotion_code_redemptions').select('status').where('promotion_code_id', '=', limited.id).execute()
		expect(uses).toEqual([{ status: 'reserved' }, { status: 'reserved' }, { status: 'reserved' }])
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', course.id).execute()).toHaveLength(3)
	})
})
