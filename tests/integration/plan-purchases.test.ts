/**
 * Pay in instalments, the purchase (issue 41, docs/decisions/054 and 059): a buyer chooses the
 * course's plan on the purchase form; the seat is held exactly as for paying in full, the test
 * checkout charges the first payment, and its fulfilment enrols and makes the plan active with its
 * schedule snapshotted. Two plan purchases for the last seat sell one seat. Then test mode's
 * "charge the next instalment now": a failure e-mails once and makes the plan past due, the pause
 * job pauses it once after the grace days (its clock passed in), and paying restores access.
 */
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { courseAccess, listAccessibleCourses } from '#app/models/materials/materials.server.ts'
import { addMonths } from '#app/models/payments/instalment-plans.ts'
import { expireCheckout, fulfil } from '#app/models/payments/payments.server.ts'
import { pauseOverduePlans, payFailedInstalments, planNoticesOf } from '#app/models/payments/plan-purchases.server.ts'
import { chargeInstalmentNow } from '#app/models/payments/plan-purchases-admin.server.ts'
import { action as enrollAction, loader as enrollLoader } from '#app/routes/register/enroll.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { holdAndOpenCheckout } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourseWithPlan, insertEnrollment, insertPlanPurchase, insertUser, planCourseToday } from '#tests/support/fixtures.ts'
import { mailsStartingWith } from '#tests/support/outbox.ts'
import { planRow } from '#tests/support/plan-rows.ts'
import { formRequest, getRequest, settle, signedInUser } from '#tests/support/requests.ts'

const t = useTestDatabase()
const testCard = new TestCheckoutPayments(() => t.db)
const APP_URL = 'http://localhost:3000'

let sequence = 0
const student = () => signedInUser(t.db)

function enroll(courseId: number, cookie: string, fields: Record<string, string>) {
	return settle(() =>
		enrollAction({
			request: formRequest(`/courses/${courseId}/enroll`, { intent: 'agree', agreeToTerms: 'on', ...fields }, { cookie }),
			params: { id: String(courseId) },
			context: new RouterContextProvider(),
		} as never),
	)
}

async function planOf(checkoutSessionId: string) {
	const purchase = await t.db
		.selectFrom('plan_purchases')
		.selectAll()
		.where('checkout_session_id', '=', checkoutSessionId)
		.executeTakeFirstOrThrow()
	const instalments = await t.db
		.selectFrom('plan_instalments')
		.select(['sequence', 'label', 'due_on', 'amount_cents', 'status'])
		.where('plan_purchase_id', '=', purchase.id)
		.orderBy('sequence')
		.execute()
	return { purchase, instalments }
}

describe('buying on a plan through the test checkout', () => {
	const payments = new TestCheckoutPayments(() => t.db)

	test('the enroll page offers the plan with its amounts and dates, and the agreement says when it is paid in full', async () => {
		setPayments(payments)
		const { cookie } = await student()
		const course = await insertCourseWithPlan(t.db)
		const page = (await enrollLoader({
			request: getRequest(`/courses/${course.id}/enroll`, { cookie }),
			params: { id: String(course.id) },
			context: new RouterContextProvider(),
		} as never)) as {
			plan: { totalCents: number; paidInFullBy: string; payments: Array<{ amountCents: number; dueOn: string }> }
			agreement: { html: string }
		}
		expect(page.plan.totalCents).toBe(260_000)
		expect(page.plan.payments.map((payment) => [payment.dueOn, payment.amountCents])).toEqual([
			[planCourseToday(), 86_668],
			[addMonths(planCourseToday(), 1), 86_666],
			[addMonths(planCourseToday(), 2), 86_666],
		])
		expect(page.plan.paidInFullBy).toBe(addMonths(planCourseToday(), 2))
		expect(page.agreement.html).toContain('paid in full by')
	})

	test('the first payment holds the seat, is what the checkout charges, and its fulfilment makes the plan active', async () => {
		setPayments(payments)
		const buyer = await student()
		const course = await insertCourseWithPlan(t.db)
		const response = await enroll(course.id, buyer.cookie, { paymentOption: 'plan' })
		expect(response.status).toBe(303)
		const sessionId = response.headers.get('Location')!.replace('/test-checkout/', '')
		expect(await payments.getSession(sessionId)).toMatchObject({ amountCents: 86_668, status: 'open' })
		const hold = await t.db.selectFrom('seat_holds').select('checkout_session_id').where('course_id', '=', course.id).execute()
		expect(hold).toEqual([{ checkout_session_id: sessionId }])
		expect((await planOf(sessionId)).purchase).toMatchObject({ status: 'pending', total_cents: 260_000, enrollment_id: null })

		expect(await payments.markPaid(sessionId)).toBe(true)
		expect(await fulfil(t.db, payments, sessionId)).toMatchObject({ status: 'enrolled', userId: buyer.id })
		const { purchase, instalments } = await planOf(sessionId)
		const enrollment = await t.db
			.selectFrom('enrollments')
			.select(['id', 'status'])
			.where('course_id', '=', course.id)
			.executeTakeFirstOrThrow()
		expect(purchase).toMatchObject({ status: 'active', enrollment_id: enrollment.id, kind: 'equal' })
		expect(enrollment.status).toBe('active')
		expect(instalments).toEqual([
			{ sequence: 1, label: 'Instalment 1 of 3', due_on: planCourseToday(), amount_cents: 86_668, status: 'paid' },
			{ sequence: 2, label: 'Instalment 2 of 3', due_on: addMonths(planCourseToday(), 1), amount_cents: 86_666, status: 'scheduled' },
			{ sequence: 3, label: 'Instalment 3 of 3', due_on: addMonths(planCourseToday(), 2), amount_cents: 86_666, status: 'scheduled' },
		])
		const paid = await t.db
			.selectFrom('registration_payments')
			.select(['amount_cents', 'status'])
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow()
		expect(paid).toEqual({ amount_cents: 86_668, status: 'paid' })
	})

	test('a plan not offered is refused on the form with nothing held', async () => {
		setPayments(payments)
		const buyer = await student()
		const { cookie } = buyer
		const course = await insertCourseWithPlan(t.db)
		await t.db.updateTable('course_payment_plans').set({ offered: false }).where('course_id', '=', course.id).execute()
		const withdrawn = await enroll(course.id, cookie, { paymentOption: 'plan' })
		expect(withdrawn.status).toBe(400)
		expect(JSON.stringify(await withdrawn.json())).toContain('The payment plan is no longer offered')
		const bogus = await enroll(course.id, cookie, { paymentOption: 'monthly' })
		expect(bogus.status).toBe(400)
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', course.id).execute()).toEqual([])
		expect(await t.db.selectFrom('plan_purchases').select('id').where('course_id', '=', course.id).execute()).toEqual([])
	})

	test('an expired checkout leaves its plan expired, never active', async () => {
		const buyer = await student()
		const course = await insertCourseWithPlan(t.db)
		const { sessionId } = await holdAndOpenCheckout(t.db, payments, {
			user: buyer,
			courseId: course.id,
			paymentPlan: true,
			appUrl: APP_URL,
		})
		await payments.expireCheckoutSession(sessionId)
		await expireCheckout(t.db, sessionId)
		expect((await planOf(sessionId)).purchase.status).toBe('expired')
	})

	test('the database refuses instalments that do not add up to the total, or a number used twice', async () => {
		const course = await insertCourseWithPlan(t.db)
		const insertPlan = (amounts: number[], sequences = amounts.map((_, index) => index + 1)) =>
			t.db.transaction().execute(async (trx) => {
				const purchase = await trx
					.insertInto('plan_purchases')
					.values({
						checkout_session_id: `cs_test_${++sequence}`,
						provider: 'test',
						course_id: course.id,
						kind: 'equal',
						total_cents: 3000,
					})
					.returning('id')
					.executeTakeFirstOrThrow()
				await trx
					.insertInto('plan_instalments')
					.values(
						amounts.map((amount, index) => ({
							plan_purchase_id: purchase.id,
							sequence: sequences[index]!,
							label: 'x',
							due_on: planCourseToday(),
							amount_cents: amount,
						})),
					)
					.execute()
			})
		await expect(insertPlan([1000, 1000, 999])).rejects.toThrow(/add up to 2999 cents, not its total of 3000/)
		await expect(insertPlan([1000, 1000, 1000], [1, 2, 2])).rejects.toThrow(/plan_instalments_sequence_key/)
		await expect(insertPlan([1000, 1000, 1000])).resolves.toBeUndefined()
	})
})

describe('two plan purchases for the last seat at once', () => {
	test('one seat is held and one buyer is told the course is full', async () => {
		setPayments(new TestCheckoutPayments(() => t.db))
		const course = await insertCourseWithPlan(t.db, { capacity: 1 })
		const buyers = await Promise.all([student(), student()])
		const cookies = buyers.map((buyer) => buyer.cookie)
		const responses = await Promise.all(cookies.map((cookie) => enroll(course.id, cookie, { paymentOption: 'plan' })))
		const locations = responses.map((response) => response.headers.get('Location') ?? '')
		expect(locations.filter((location) => location.startsWith('/test-checkout/'))).toHaveLength(1)
		expect(locations.filter((location) => location === `/courses/${course.id}?dialog=waitlist`)).toHaveLength(1)
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', course.id).execute()).toHaveLength(1)
		expect(await t.db.selectFrom('plan_purchases').select('id').where('course_id', '=', course.id).execute()).toHaveLength(1)
	})
})

describe('after the purchase: instalments paid and failed, the pause and access (test mode)', () => {
	async function boughtPlan() {
		const buyer = await student()
		const course = await insertCourseWithPlan(t.db)
		const enrollment = await insertEnrollment(t.db, { userId: buyer.id, courseId: course.id })
		const plan = await insertPlanPurchase(t.db, { userId: buyer.id, courseId: course.id, enrollmentId: enrollment.id })
		const admin = await insertUser(t.db, { role: 'admin' })
		return { buyer, course, enrollment, admin, ...plan }
	}

	const reader = (userId: string) => ({ id: userId, isAdmin: false })

	test('a failed instalment makes the plan past due and e-mails the student once, with the link to update the card', async () => {
		const { buyer, course, admin, planId, instalmentIds } = await boughtPlan()
		const charge = { adminId: admin, courseId: course.id, planId, instalmentId: instalmentIds[1]!, outcome: 'fail' as const }
		// Five failed attempts at once (a retry that fails again is a failure too): one e-mail all the same.
		await Promise.all(Array.from({ length: 5 }, () => chargeInstalmentNow(t.db, testCard, charge)))
		expect(await planRow(t.db, planId)).toMatchObject({ status: 'past_due' })
		const mails = await mailsStartingWith(t.db, buyer.email, 'Payment failed: ')
		expect(mails).toHaveLength(1)
		expect(mails[0]!.text_body).toContain(`/dashboard/plans/${planId}/pay`)
		// Still within the grace period: access stays.
		expect(await courseAccess(t.db, reader(buyer.id), course.id)).toBe('full')
	})

	test('ten "succeed" charges of one instalment at once record one payment', async () => {
		const { course, admin, planId, instalmentIds } = await boughtPlan()
		const charge = { adminId: admin, courseId: course.id, planId, instalmentId: instalmentIds[1]!, outcome: 'succeed' as const }
		const outcomes = await Promise.all(Array.from({ length: 10 }, () => chargeInstalmentNow(t.db, testCard, charge)))
		expect(outcomes.filter((outcome) => outcome === 'recorded')).toHaveLength(1)
		const paid = await t.db
			.selectFrom('plan_instalments')
			.select('status')
			.where('plan_purchase_id', '=', planId)
			.orderBy('sequence')
			.execute()
		expect(paid.map((row) => row.status)).toEqual(['paid', 'paid', 'scheduled'])
		const audits = await t.db
			.selectFrom('audit_log')
			.select('action')
			.where('entity', '=', 'plan_purchase')
			.where('entity_id', '=', String(planId))
			.execute()
		expect(audits).toEqual([{ action: 'payment_plan.charge_succeeded' }])
	})

	test('a charge for another course or a made-up instalment changes nothing', async () => {
		const { admin, planId, instalmentIds } = await boughtPlan()
		const other = await insertCourseWithPlan(t.db)
		expect(
			await chargeInstalmentNow(t.db, testCard, {
				adminId: admin,
				courseId: other.id,
				planId,
				instalmentId: instalmentIds[1]!,
				outcome: 'fail',
			}),
		).toBe('not-found')
		const { planId: otherPlan } = await boughtPlan()
		expect(
			await chargeInstalmentNow(t.db, testCard, {
				adminId: admin,
				courseId: (await planRow(t.db, otherPlan)).course_id,
				planId: otherPlan,
				instalmentId: instalmentIds[1]!,
				outcome: 'fail',
			}),
		).toBe('already')
		expect((await planRow(t.db, planId)).status).toBe('active')
		expect((await planRow(t.db, otherPlan)).status).toBe('active')
	})

	test('after the grace days the job pauses the plan once across runs; access pauses; paying restores it at once', async () => {
		const { buyer, course, admin, planId, instalmentIds } = await boughtPlan()
		await chargeInstalmentNow(t.db, testCard, {
			adminId: admin,
			courseId: course.id,
			planId,
			instalmentId: instalmentIds[1]!,
			outcome: 'fail',
		})
		const failingSince = (await planRow(t.db, planId)).failing_since!
		const day = 86_400_000
		expect(await pauseOverduePlans(t.db, new Date(failingSince.getTime() + 6 * day))).toEqual([])
		const later = new Date(failingSince.getTime() + 7 * day + 1000)
		const runs = await Promise.all(Array.from({ length: 5 }, () => pauseOverduePlans(t.db, later)))
		expect(runs.flat().filter((paused) => paused.id === planId)).toHaveLength(1)
		expect(await planRow(t.db, planId)).toMatchObject({ status: 'paused', pause_reason: 'overdue' })
		expect(await courseAccess(t.db, reader(buyer.id), course.id)).toBeNull()
		expect((await listAccessibleCourses(t.db, reader(buyer.id))).map((one) => one.id)).not.toContain(course.id)
		expect(await planNoticesOf(t.db, buyer.id)).toMatchObject([{ planId, status: 'paused', overdueCents: 86_666 }])

		expect(await payFailedInstalments(t.db, testCard, { planId })).toBe(1)
		expect(await planRow(t.db, planId)).toMatchObject({ status: 'active', pause_reason: null, failing_since: null })
		expect(await courseAccess(t.db, reader(buyer.id), course.id)).toBe('full')
		expect(await planNoticesOf(t.db, buyer.id)).toEqual([])
	})

	test('alumni keep read access only once the plan is paid in full; the last instalment completes it', async () => {
		const { buyer, course, enrollment, admin, planId, instalmentIds } = await boughtPlan()
		await t.db.updateTable('enrollments').set({ status: 'completed' }).where('id', '=', enrollment.id).execute()
		expect(await courseAccess(t.db, reader(buyer.id), course.id)).toBeNull()
		for (const instalmentId of instalmentIds.slice(1)) {
			await chargeInstalmentNow(t.db, testCard, { adminId: admin, courseId: course.id, planId, instalmentId, outcome: 'succeed' })
		}
		expect((await planRow(t.db, planId)).status).toBe('completed')
		expect(await courseAccess(t.db, reader(buyer.id), course.id)).toBe('read-only')
	})
})
