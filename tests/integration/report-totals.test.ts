/**
 * The payments export adds up to the overview (issue 43's "an export's rows add up to the overview's
 * figures for the same range", docs/decisions/065 and 066 as amended 2026-11-29): for one admin and
 * one range, the export's lines summed — gross, discount, refund, net — are the overview's paid plus
 * discounts, discounts, refunded and net. The money is made through the app's own paths (checkouts
 * of the test provider, a promotion code, a plan's instalment charged and one paid outside, refunds
 * and a refused one), then dated at the range's edges and near midnight in New York.
 */
import { randomUUID } from 'node:crypto'
import { parse } from 'csv-parse/sync'
import { sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { addMonths, dayInZone } from '#app/models/payments/instalment-plans.ts'
import { fulfil } from '#app/models/payments/payments.server.ts'
import { markInstalmentPaidOutside, recordInstalmentPaid } from '#app/models/payments/plan-purchases.server.ts'
import { refundPayment } from '#app/models/payments/refunds.server.ts'
import { paymentColumns } from '#app/models/reports/exports.ts'
import type { OverviewFigures } from '#app/models/reports/overview.ts'
import { loader as overviewLoader } from '#app/routes/admin/overview.tsx'
import { loader as paymentsLoader } from '#app/routes/resources/payments-export.ts'
import { type PaymentProvider, RefundRefusedError } from '#app/services/payments/payments.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { holdAndOpenCheckout } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertPaymentPlan, insertPromotionCode, insertUser } from '#tests/support/fixtures.ts'
import { planInstalments } from '#tests/support/plan-rows.ts'
import { callRoute, getRequest, signedInUser } from '#tests/support/requests.ts'

const t = useTestDatabase()
const testCard = new TestCheckoutPayments(() => t.db)
/** The test provider, refusing every refund (a card closed since). */
const refusingCard: PaymentProvider = Object.assign(Object.create(testCard), {
	createRefund: async () => {
		throw new RefundRefusedError('The card was closed.')
	},
})
const NEW_YORK = 'America/New_York'
const RANGE = 'from=2026-03-01&to=2026-03-31'
/** New York's March: from 1 March 00:00 EST to 1 April 00:00 EDT. */
const MARCH_STARTS = '2026-03-01T05:00:00Z'
const APRIL_STARTS = '2026-04-01T04:00:00Z'
const secondBefore = (instant: string) => new Date(new Date(instant).getTime() - 1000)

let admin: string

/** A student's checkout through the test provider, paid and fulfilled; the payment row, dated `paidAt`. */
async function buy(courseId: number, paidAt: Date, options: { promotionCode?: string; paymentPlan?: boolean } = {}) {
	const email = `buyer-${randomUUID()}@example.com`
	const userId = await insertUser(t.db, { email, name: 'Paying Student' })
	const { sessionId } = await holdAndOpenCheckout(t.db, testCard, {
		user: { id: userId, email },
		courseId,
		...options,
		appUrl: 'http://localhost',
		cancelPath: '/',
	})
	await testCard.markPaid(sessionId)
	expect(await fulfil(t.db, testCard, sessionId)).toMatchObject({ status: 'enrolled' })
	return t.db
		.updateTable('registration_payments')
		.set({ fulfilled_at: paidAt })
		.where('checkout_session_id', '=', sessionId)
		.returningAll()
		.executeTakeFirstOrThrow()
}

/** A refund the admin makes through the provider, dated `madeAt`; its outcome. */
async function refund(paymentId: number, amountCents: number, madeAt: Date, provider: PaymentProvider = testCard) {
	const requestKey = randomUUID()
	const outcome = await refundPayment(t.db, provider, {
		paymentId,
		actorId: admin,
		amountCents,
		reason: 'requested_by_customer',
		note: 'Changed plans',
		unenroll: false,
		requestKey,
	})
	await sql`UPDATE payment_refunds SET created_at = ${madeAt}, updated_at = ${madeAt} WHERE request_key = ${requestKey}`.execute(t.db)
	return outcome.kind
}

/** Gross, discount, refund and net of the admin's payments export, summed, in cents. */
async function exportTotals(cookie: string, timeZone: string) {
	const response = await callRoute(paymentsLoader, getRequest(`/dashboard/admin/exports/payments.csv?${RANGE}`, { cookie }))
	expect(response.status).toBe(200)
	const [header, ...lines] = parse(await response.text()) as string[][]
	expect(header).toEqual(paymentColumns(timeZone))
	const sum = (column: string) => lines.reduce((total, line) => total + Math.round(Number(line[header!.indexOf(column)]) * 100), 0)
	return { lines, totals: { gross: sum('Gross'), discount: sum('Discount'), refund: sum('Refund'), net: sum('Net') } }
}

/** The admin's overview's paid, discounts, refunded and net over its periods, in cents. */
async function overviewTotals(cookie: string) {
	const response = await callRoute(overviewLoader, getRequest(`/dashboard/admin/overview?${RANGE}&group=week`, { cookie }))
	expect(response.status).toBe(200)
	const { overview } = (await response.json()) as { overview: OverviewFigures }
	const total = (figure: 'paidCents' | 'discountCents' | 'refundedCents' | 'netCents') =>
		overview.periods.reduce((sum, period) => sum + period.money![figure], 0)
	return { paid: total('paidCents'), discounts: total('discountCents'), refunded: total('refundedCents'), net: total('netCents') }
}

/**
 * The overview counts `paid` with March's $200 of discounts and $1,400 refunded, and the export's
 * totals agree with it: gross is what was paid before the discounts.
 */
function expectTotals({
	overview,
	totals,
	paid,
}: {
	overview: Awaited<ReturnType<typeof overviewTotals>>
	totals: Awaited<ReturnType<typeof exportTotals>>['totals']
	paid: number
}) {
	expect(overview).toEqual({ paid, discounts: 20_000, refunded: 140_000, net: paid - 140_000 })
	expect(totals).toEqual({
		gross: overview.paid + overview.discounts,
		discount: overview.discounts,
		refund: overview.refunded,
		net: overview.net,
	})
}

describe('the payments export and the overview', () => {
	let planAmounts: number[]

	beforeAll(async () => {
		admin = await insertUser(t.db, { role: 'admin' })
		const today = dayInZone(new Date(), NEW_YORK)
		const dates = { time_zone: NEW_YORK, start_date: today, end_date: addMonths(today, 6), capacity: 50 }
		const course = await insertCourse(t.db, { title: 'Flip 101', registration_fee: 100_000, ...dates })
		const planned = await insertCourse(t.db, { title: 'Mentorship', registration_fee: 240_000, ...dates })
		await insertPaymentPlan(t.db, { courseId: planned.id, instalment_count: 4 })
		const code = await insertPromotionCode(t.db, { code: `SPRING${randomUUID().slice(0, 6).toUpperCase()}`, percent_off: 20 })

		// Paid in full at New York's last second of February (1 March in UTC), refunded in full on 2 March.
		const february = await buy(course.id, secondBefore(MARCH_STARTS))
		expect(await refund(february.id, 100_000, new Date('2026-03-02T14:00:00Z'))).toBe('refunded')
		// At March's first second, refunded in part mid-month; a refused refund changes nothing.
		const first = await buy(course.id, new Date(MARCH_STARTS))
		expect(await refund(first.id, 40_000, new Date('2026-03-15T16:00:00Z'))).toBe('refunded')
		expect(await refund(first.id, 10_000, new Date('2026-03-16T16:00:00Z'), refusingCard)).toBe('refused')
		// With the promotion code: $200 off.
		const coded = await buy(course.id, new Date('2026-03-10T15:00:00Z'), { promotionCode: code.code })
		expect([coded.amount_cents, coded.discount_cents]).toEqual([80_000, 20_000])
		// At March's last second (1 April in UTC), refunded in part at April's first.
		const last = await buy(course.id, secondBefore(APRIL_STARTS))
		expect(await refund(last.id, 30_000, new Date(APRIL_STARTS))).toBe('refunded')
		await buy(course.id, new Date(APRIL_STARTS))

		// A plan of four: its checkout at 22:00 on 1 March in New York (2 March in UTC), the second
		// charged at 23:30 on 31 March, the third paid outside, the fourth still to pay.
		const planPayment = await buy(planned.id, new Date('2026-03-02T03:00:00Z'), { paymentPlan: true })
		const plan = await t.db
			.selectFrom('plan_purchases')
			.select('id')
			.where('checkout_session_id', '=', planPayment.checkout_session_id)
			.executeTakeFirstOrThrow()
		const instalments = await planInstalments(t.db, plan.id)
		planAmounts = instalments.map((instalment) => instalment.amount_cents)
		const charge = await testCard.chargeSavedCard({
			amountCents: planAmounts[1]!,
			description: 'Instalment 2',
			customerEmail: planPayment.customer_email,
			idempotencyKey: `report-totals-${instalments[1]!.id}`,
		})
		const secondPaidAt = new Date('2026-04-01T03:30:00Z')
		expect(
			await recordInstalmentPaid(t.db, {
				planId: plan.id,
				instalmentId: instalments[1]!.id,
				paymentIntentId: charge.id,
				now: secondPaidAt,
			}),
		).toBe('recorded')
		expect(
			await markInstalmentPaidOutside(t.db, { planId: plan.id, instalmentId: instalments[2]!.id, now: new Date('2026-03-20T12:00:00Z') }),
		).toBe('changed')
	})

	test("add up for an admin in New York: the same money events, on New York's days", async () => {
		const viewer = await signedInUser(t.db, { role: 'admin' })
		await t.db.updateTable('profiles').set({ time_zone: NEW_YORK }).where('id', '=', viewer.id).execute()
		const { lines, totals } = await exportTotals(viewer.cookie, NEW_YORK)
		const overview = await overviewTotals(viewer.cookie)

		// Checked by hand: March's first second to its last, the plan's three payments, the two refunds of March.
		const [planFirst, planSecond, planOutside] = planAmounts as [number, number, number, number]
		const paid = 100_000 + 80_000 + 100_000 + planFirst + planSecond + planOutside
		expectTotals({ overview, totals, paid })
		const columns = paymentColumns(NEW_YORK)
		const cell = (name: string) => lines.map((line) => line[columns.indexOf(name)])
		expect(cell(`Date (${NEW_YORK})`)).toEqual([
			'2026-03-01 00:00:00',
			'2026-03-01 22:00:00',
			'2026-03-02 09:00:00',
			'2026-03-10 11:00:00',
			'2026-03-15 12:00:00',
			'2026-03-20 08:00:00',
			'2026-03-31 23:30:00',
			'2026-03-31 23:59:59',
		])
		expect(cell('Type')).toEqual([
			'Payment',
			'Payment',
			'Refund',
			'Payment',
			'Refund',
			'Plan instalment paid outside',
			'Plan instalment',
			'Payment',
		])
		expect(cell('Plan payment')).toEqual(['', '1 of 4', '', '', '', '3 of 4', '2 of 4', ''])
	})

	test('add up for an admin without a time zone, on UTC days, which move the edges', async () => {
		const viewer = await signedInUser(t.db, { role: 'admin' })
		const { totals } = await exportTotals(viewer.cookie, 'UTC')
		const overview = await overviewTotals(viewer.cookie)

		// In UTC, February's last payment falls in March, and March's last one and the second instalment in April.
		const [planFirst, , planOutside] = planAmounts as [number, number, number, number]
		const paid = 100_000 + 100_000 + 80_000 + planFirst + planOutside
		expectTotals({ overview, totals, paid })
	})
})
