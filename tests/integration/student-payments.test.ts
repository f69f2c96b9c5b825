/**
 * The student's Payments section in Settings and its receipts (issue 41 point 5, docs/decisions/064):
 * every charge once, whether a plan instalment is recorded only in `plan_instalments` or also has a
 * `registration_payments` row; each plan with what is left; own data only; an empty state.
 */
import { describe, expect, test } from 'vitest'
import { addMonths } from '#app/models/payments/instalment-plans.ts'
import { fulfil } from '#app/models/payments/payments.server.ts'
import { recordInstalmentFailed, recordInstalmentPaid } from '#app/models/payments/plan-purchases.server.ts'
import { changePlan } from '#app/models/payments/plan-purchases-admin.server.ts'
import { studentPayments } from '#app/models/payments/student-payments.server.ts'
import { loader as receiptLoader } from '#app/routes/dashboard/payment-receipt.tsx'
import { loader as settingsLoader } from '#app/routes/dashboard/settings.tsx'
import { action as enrollAction } from '#app/routes/register/enroll.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourseWithPlan, insertPromotionCode, planCourseToday } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, signedInUser } from '#tests/support/requests.ts'

const t = useTestDatabase()
const payments = new TestCheckoutPayments(() => t.db)

let sequence = 0
const student = () => signedInUser(t.db)

/** A $2,500 course of 20 seats offering three equal instalments with a $100 surcharge. */
const course = () => insertCourseWithPlan(t.db, { capacity: 20 })

/** Buys through the purchase form and the test checkout: paid and fulfilled. */
async function buy(buyer: { cookie: string }, courseId: number, fields: Record<string, string>) {
	setPayments(payments)
	const response = await callRoute(
		enrollAction,
		formRequest(`/courses/${courseId}/enroll`, { intent: 'agree', agreeToTerms: 'on', ...fields }, { cookie: buyer.cookie }),
		{ id: String(courseId) },
	)
	const sessionId = response.headers.get('Location')!.replace('/test-checkout/', '')
	await payments.markPaid(sessionId)
	await fulfil(t.db, payments, sessionId)
	return sessionId
}

async function planInstalments(sessionId: string) {
	return t.db
		.selectFrom('plan_instalments')
		.innerJoin('plan_purchases', 'plan_purchases.id', 'plan_instalments.plan_purchase_id')
		.select(['plan_instalments.id', 'plan_purchases.id as planId', 'plan_instalments.payment_intent_id'])
		.where('plan_purchases.checkout_session_id', '=', sessionId)
		.orderBy('sequence')
		.execute()
}

async function receipt(cookie: string, chargeKind: string, chargeId: number | string) {
	return callRoute(receiptLoader, getRequest(`/dashboard/settings/receipts/${chargeKind}/${chargeId}`, { cookie }), {
		chargeKind,
		chargeId: String(chargeId),
	})
}

describe('the Payments section', () => {
	test('is empty for a student who paid nothing, and Settings says so', async () => {
		const buyer = await student()
		expect(await studentPayments(t.db, buyer.id)).toEqual({ charges: [], plans: [] })
		const page = await (await callRoute(settingsLoader, getRequest('/dashboard/settings', { cookie: buyer.cookie }))).json()
		expect(page.payments).toEqual({ charges: [], plans: [] })
	})

	test('a payment in full with a code and a partial refund: the charge, its discount and refund, and its receipt', async () => {
		const buyer = await student()
		const { id: courseId, title } = await course()
		const code = await insertPromotionCode(t.db, { code: `FULL${++sequence}`, percent_off: 20 })
		const sessionId = await buy(buyer, courseId, { promotionCode: code.code })
		await t.db.updateTable('registration_payments').set({ refunded_cents: 50_000 }).where('checkout_session_id', '=', sessionId).execute()

		const { charges, plans } = await studentPayments(t.db, buyer.id)
		expect(plans).toEqual([])
		expect(charges).toEqual([
			expect.objectContaining({
				kind: 'payment',
				courseTitle: title,
				description: 'Paid in full',
				amountCents: 200_000,
				discount: { code: code.code, amountOffCents: 50_000 },
				refundedCents: 50_000,
			}),
		])
		const page = await (await receipt(buyer.cookie, 'payment', charges[0]!.id)).json()
		expect(page.receipt).toMatchObject({ priceCents: 250_000, amountCents: 200_000, refundedCents: 50_000, reference: sessionId })
	})

	test('a plan: each instalment charged once from either source, what is left, and the update-card link when one failed', async () => {
		const buyer = await student()
		const { id: courseId } = await course()
		const code = await insertPromotionCode(t.db, { code: `PLAN${++sequence}`, percent_off: 10 })
		const sessionId = await buy(buyer, courseId, { paymentOption: 'plan', promotionCode: code.code })
		const [first, second, third] = await planInstalments(sessionId)

		// The first payment is the checkout's row and its instalment: listed once, from the checkout.
		let listed = await studentPayments(t.db, buyer.id)
		expect(listed.charges.map((charge) => [charge.kind, charge.description, charge.amountCents])).toEqual([
			['payment', 'Payment plan: Instalment 1 of 3', 78_000],
		])
		expect(listed.plans).toEqual([
			expect.objectContaining({
				status: 'active',
				paidCount: 1,
				count: 3,
				totalCents: 234_000,
				paidCents: 78_000,
				remainingCents: 156_000,
				discount: { code: code.code, priceCents: 260_000, discountCents: 26_000 },
				next: { label: 'Instalment 2 of 3', dueOn: addMonths(planCourseToday(), 1), amountCents: 78_000, failed: false },
				updateCardPath: null,
			}),
		])
		expect((await receipt(buyer.cookie, 'instalment', first!.id)).status).toBe(404)

		// A later instalment charged is a payment of its own (docs/decisions/063): listed once, from that row.
		await recordInstalmentPaid(t.db, { planId: second!.planId, instalmentId: second!.id, paymentIntentId: 'pi_test_second' })
		listed = await studentPayments(t.db, buyer.id)
		expect(listed.charges.map((charge) => [charge.kind, charge.description])).toEqual([
			['payment', 'Payment plan: Instalment 2 of 3'],
			['payment', 'Payment plan: Instalment 1 of 3'],
		])
		expect((await (await receipt(buyer.cookie, 'payment', listed.charges[0]!.id)).json()).receipt).toMatchObject({
			amountCents: 78_000,
			reference: 'pi_test_second',
			paidBy: buyer.email,
		})
		expect((await receipt(buyer.cookie, 'instalment', second!.id)).status).toBe(404)
		expect(listed.plans[0]).toMatchObject({ paidCount: 2, remainingCents: 78_000 })

		await recordInstalmentFailed(t.db, { planId: third!.planId, instalmentId: third!.id })
		listed = await studentPayments(t.db, buyer.id)
		expect(listed.plans[0]).toMatchObject({
			status: 'past_due',
			next: { label: 'Instalment 3 of 3', failed: true },
			updateCardPath: `/dashboard/plans/${third!.planId}/pay`,
		})

		// Money the school took another way has no payment row: listed from the instalment, with its receipt.
		expect(
			await changePlan(t.db, payments, {
				adminId: buyer.id,
				courseId,
				planId: third!.planId,
				intent: 'paid-outside',
				instalmentId: third!.id,
			}),
		).toBe('changed')
		listed = await studentPayments(t.db, buyer.id)
		expect(listed.charges.map((charge) => [charge.kind, charge.description])).toEqual([
			['instalment', 'Payment plan: Instalment 3 of 3'],
			['payment', 'Payment plan: Instalment 2 of 3'],
			['payment', 'Payment plan: Instalment 1 of 3'],
		])
		expect((await receipt(buyer.cookie, 'instalment', third!.id)).status).toBe(200)
		expect(listed.plans[0]).toMatchObject({ status: 'completed', remainingCents: 0 })
	})

	test('another student’s charge, or an id that is not a charge, has no receipt', async () => {
		const buyer = await student()
		const other = await student()
		const { id: courseId } = await course()
		const sessionId = await buy(buyer, courseId, { paymentOption: 'plan' })
		const [first, second] = await planInstalments(sessionId)
		const admin = await student()
		expect(
			await changePlan(t.db, payments, {
				adminId: admin.id,
				courseId,
				planId: second!.planId,
				intent: 'paid-outside',
				instalmentId: second!.id,
			}),
		).toBe('changed')
		const { charges } = await studentPayments(t.db, buyer.id)
		const payment = charges.find((charge) => charge.kind === 'payment')!
		expect((await receipt(buyer.cookie, 'payment', payment.id)).status).toBe(200)
		expect((await receipt(buyer.cookie, 'instalment', second!.id)).status).toBe(200)
		for (const [kind, id] of [
			['payment', payment.id],
			['instalment', second!.id],
		] as const) {
			expect((await receipt(other.cookie, kind, id)).status).toBe(404)
		}
		expect(await studentPayments(t.db, other.id)).toEqual({ charges: [], plans: [] })
		for (const [kind, id] of [
			['refund', payment.id],
			['payment', `${payment.id}.0`],
			['instalment', first!.id + 1_000_000],
		] as const) {
			expect((await receipt(buyer.cookie, kind, id)).status).toBe(404)
		}
	})
})
