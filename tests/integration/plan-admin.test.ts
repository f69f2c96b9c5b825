/**
 * Pay in instalments, the admin's side and the money (issue 41, docs/decisions/063): every
 * instalment paid after the checkout is a payment of its own with one receipt; the test checkout's
 * job charges due instalments once across processes; the admin cancels the rest (the student stays
 * enrolled), marks an instalment paid outside, pauses and resumes, each once under a double submit
 * and audited; refunding a plan cancels what is left and refunds what was paid in one action
 * through decision 036's path, freeing the seat when the enrolment ends.
 */
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { applyEnrollmentStatus, removeEnrollment } from '#app/models/enrollment/enrollments-admin.server.ts'
import { courseAccess } from '#app/models/materials/materials.server.ts'
import { fulfil } from '#app/models/payments/payments.server.ts'
import { chargeDueInstalments, recordInstalmentFailed, recordInstalmentPaid } from '#app/models/payments/plan-purchases.server.ts'
import { changePlan, chargeInstalmentNow, refundPlan } from '#app/models/payments/plan-purchases-admin.server.ts'
import { sendInstalmentReceipt } from '#app/models/payments/plan-purchases-emails.server.ts'
import { refundPayment } from '#app/models/payments/refunds.server.ts'
import { action as planRefundAction } from '#app/routes/admin/course-plan-refund.tsx'
import { action as plansAction } from '#app/routes/admin/course-plans.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { holdAndOpenCheckout } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertCourseWithPlan, insertUser } from '#tests/support/fixtures.ts'
import { mailsStartingWith } from '#tests/support/outbox.ts'
import { planAudits, planInstalments, planRow } from '#tests/support/plan-rows.ts'
import { formRequest, sessionCookieFor, settle } from '#tests/support/requests.ts'

const t = useTestDatabase()
const testCard = new TestCheckoutPayments(() => t.db)
const DAY = 86_400_000

/**
 * A student who bought a $2,500 course (capacity 1) on its plan through the test checkout: $2,600
 * in three payments ($866.68 paid at the checkout, then $866.66 twice a month apart).
 */
async function boughtPlan() {
	const course = await insertCourseWithPlan(t.db, { capacity: 1 })
	const email = `plan-${course.id}@example.com`
	const buyer = await insertUser(t.db, { email, name: 'Paula Plan' })
	const { sessionId } = await holdAndOpenCheckout(t.db, testCard, { user: { id: buyer, email }, courseId: course.id, paymentPlan: true })
	await testCard.markPaid(sessionId)
	await fulfil(t.db, testCard, sessionId)
	const plan = await t.db.selectFrom('plan_purchases').selectAll().where('checkout_session_id', '=', sessionId).executeTakeFirstOrThrow()
	const instalments = await planInstalments(t.db, plan.id)
	const admin = await insertUser(t.db, { role: 'admin' })
	return { course, buyer, email, admin, plan, instalmentIds: instalments.map((row) => row.id), enrollmentId: plan.enrollment_id! }
}

const instalmentStatuses = async (planId: number) => (await planInstalments(t.db, planId)).map((row) => row.status)
const enrollmentStatus = async (enrollmentId: number) =>
	(await t.db.selectFrom('enrollments').select('status').where('id', '=', enrollmentId).executeTakeFirstOrThrow()).status
const instalmentPayments = (instalmentIds: number[]) =>
	t.db
		.selectFrom('registration_payments')
		.selectAll()
		.where('plan_instalment_id', 'in', instalmentIds)
		.orderBy('plan_instalment_id')
		.execute()

describe('every instalment paid is a payment with one receipt', () => {
	test('ten deliveries of one payment at once record one payment row and queue one receipt, which a refund can reach', async () => {
		const { email, plan, instalmentIds, enrollmentId, admin } = await boughtPlan()
		const charge = await testCard.chargeSavedCard({
			amountCents: 86_666,
			description: 'Instalment 2',
			customerEmail: email,
			idempotencyKey: 'test-delivery',
		})
		const outcomes = await Promise.all(
			Array.from({ length: 10 }, () =>
				recordInstalmentPaid(t.db, { planId: plan.id, instalmentId: instalmentIds[1]!, paymentIntentId: charge.id }),
			),
		)
		expect(outcomes.filter((outcome) => outcome === 'recorded')).toHaveLength(1)
		const [payment, ...others] = await instalmentPayments(instalmentIds)
		expect(others).toEqual([])
		expect(payment).toMatchObject({
			checkout_session_id: null,
			plan_instalment_id: instalmentIds[1],
			enrollment_id: null,
			amount_cents: 86_666,
			status: 'paid',
			payment_intent_id: charge.id,
			customer_email: email,
		})
		const receipts = await mailsStartingWith(t.db, email, 'Payment received: ')
		expect(receipts).toHaveLength(1)
		expect(receipts[0]!.text_body).toContain('Instalment 2 of 3')
		expect(receipts[0]!.text_body).toContain('$866.66')
		// A retried job or webhook that queued it again: the outbox takes the instalment's receipt once.
		await sendInstalmentReceipt(t.db, {
			planId: plan.id,
			instalmentId: instalmentIds[1]!,
			to: email,
			paidAt: new Date(),
			paymentReference: charge.id,
		})
		expect(await mailsStartingWith(t.db, email, 'Payment received: ')).toHaveLength(1)

		// Refunded on its own through decision 036's path: the student stays enrolled, the plan runs on.
		const refund = await refundPayment(t.db, testCard, {
			paymentId: payment!.id,
			actorId: admin,
			amountCents: 86_666,
			reason: 'requested_by_customer',
			note: 'Charged twice by mistake',
			unenroll: false,
			requestKey: 'instalment-refund-key-1',
		})
		expect(refund).toMatchObject({ kind: 'refunded', fullyRefunded: true, enrollmentEnded: false })
		expect(await enrollmentStatus(enrollmentId)).toBe('active')
		expect((await planRow(t.db, plan.id)).status).toBe('active')
	})
})

describe('the test checkout charges instalments on their due dates', () => {
	test('nothing before its day; on its day five parallel runs charge it once, with one payment and one receipt', async () => {
		const { email, plan, instalmentIds } = await boughtPlan()
		const due = await t.db.selectFrom('plan_instalments').select('due_on').where('id', '=', instalmentIds[1]!).executeTakeFirstOrThrow()
		// Noon UTC of the day before (in New York, still the day before) and of the due day.
		const dayBefore = new Date(`${due.due_on}T12:00:00Z`).getTime() - DAY
		expect(await chargeDueInstalments(t.db, testCard, new Date(dayBefore))).toBe(0)
		const onTheDay = new Date(dayBefore + DAY)
		const runs = await Promise.all(Array.from({ length: 5 }, () => chargeDueInstalments(t.db, testCard, onTheDay)))
		expect(runs.reduce((sum, count) => sum + count, 0)).toBe(1)
		expect(await instalmentStatuses(plan.id)).toEqual(['paid', 'paid', 'scheduled'])
		expect(await instalmentPayments(instalmentIds)).toHaveLength(1)
		const charges = await t.db
			.selectFrom('test_checkout_sessions')
			.select('id')
			.where('idempotency_key', '=', `plan-instalment-${instalmentIds[1]}`)
			.execute()
		expect(charges).toHaveLength(1)
		expect(await mailsStartingWith(t.db, email, 'Payment received: ')).toHaveLength(1)
	})

	test('a plan the admin paused, or whose enrolment ended, is not charged', async () => {
		const paused = await boughtPlan()
		await changePlan(t.db, testCard, { adminId: paused.admin, courseId: paused.course.id, planId: paused.plan.id, intent: 'pause' })
		const ended = await boughtPlan()
		await t.db.updateTable('enrollments').set({ status: 'inactive' }).where('id', '=', ended.enrollmentId).execute()
		const later = new Date(Date.now() + 70 * DAY)
		await chargeDueInstalments(t.db, testCard, later)
		expect(await instalmentStatuses(paused.plan.id)).toEqual(['paid', 'scheduled', 'scheduled'])
		expect(await instalmentStatuses(ended.plan.id)).toEqual(['paid', 'scheduled', 'scheduled'])
	})
})

describe("the admin's changes of a plan", () => {
	test('cancel the rest: five at once cancel once (one audit entry); the student stays enrolled with access, nothing more is charged', async () => {
		const { course, buyer, admin, plan, enrollmentId } = await boughtPlan()
		const outcomes = await Promise.all(
			Array.from({ length: 5 }, () =>
				changePlan(t.db, testCard, { adminId: admin, courseId: course.id, planId: plan.id, intent: 'cancel-rest' }),
			),
		)
		expect(outcomes.filter((outcome) => outcome === 'changed')).toHaveLength(1)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'cancelled', pause_reason: null, failing_since: null })
		expect(await instalmentStatuses(plan.id)).toEqual(['paid', 'cancelled', 'cancelled'])
		expect(await planAudits(t.db, plan.id)).toEqual([{ action: 'payment_plan.cancel_rest' }])
		expect(await enrollmentStatus(enrollmentId)).toBe('active')
		expect(await courseAccess(t.db, { id: buyer, isAdmin: false }, course.id)).toBe('full')
		expect(await chargeDueInstalments(t.db, testCard, new Date(Date.now() + 70 * DAY))).toBe(0)
		// Alumni keep read access: the school asked nothing more.
		await t.db.updateTable('enrollments').set({ status: 'completed' }).where('id', '=', enrollmentId).execute()
		expect(await courseAccess(t.db, { id: buyer, isAdmin: false }, course.id)).toBe('read-only')
	})

	test('an enrolment ended or removed on Manage Enrollments ends its plan: nothing more is charged', async () => {
		const ended = await boughtPlan()
		await t.db
			.transaction()
			.execute((trx) => applyEnrollmentStatus(trx, { actorId: ended.admin, enrollmentId: ended.enrollmentId, status: 'inactive' }))
		expect(await planRow(t.db, ended.plan.id)).toMatchObject({ status: 'cancelled' })
		expect(await instalmentStatuses(ended.plan.id)).toEqual(['paid', 'cancelled', 'cancelled'])
		const removed = await boughtPlan()
		expect(await removeEnrollment(t.db, removed.admin, removed.enrollmentId)).not.toBeNull()
		expect(await planRow(t.db, removed.plan.id)).toMatchObject({ status: 'cancelled', enrollment_id: null })
		expect(await chargeDueInstalments(t.db, testCard, new Date(Date.now() + 70 * DAY))).toBe(0)
	})

	test('mark paid outside: one instalment once; marking the last completes the plan, with no payment row', async () => {
		const { course, admin, plan, instalmentIds } = await boughtPlan()
		const mark = (instalmentId: number) =>
			changePlan(t.db, testCard, { adminId: admin, courseId: course.id, planId: plan.id, intent: 'paid-outside', instalmentId })
		const outcomes = await Promise.all(Array.from({ length: 5 }, () => mark(instalmentIds[1]!)))
		expect(outcomes.filter((outcome) => outcome === 'changed')).toHaveLength(1)
		expect(await mark(instalmentIds[2]!)).toBe('changed')
		expect(await instalmentStatuses(plan.id)).toEqual(['paid', 'paid_outside', 'paid_outside'])
		expect((await planRow(t.db, plan.id)).status).toBe('completed')
		expect(await instalmentPayments(instalmentIds)).toEqual([])
		expect(await planAudits(t.db, plan.id)).toEqual([{ action: 'payment_plan.paid_outside' }, { action: 'payment_plan.paid_outside' }])
	})

	test('pause and resume: access pauses and a payment does not lift it; resuming a plan with a failure restarts its grace period', async () => {
		const { course, buyer, admin, plan, instalmentIds } = await boughtPlan()
		const change = (intent: 'pause' | 'resume') =>
			changePlan(t.db, testCard, { adminId: admin, courseId: course.id, planId: plan.id, intent })
		const paused = await Promise.all(Array.from({ length: 4 }, () => change('pause')))
		expect(paused.filter((outcome) => outcome === 'changed')).toHaveLength(1)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'paused', pause_reason: 'admin' })
		expect(await courseAccess(t.db, { id: buyer, isAdmin: false }, course.id)).toBeNull()
		await recordInstalmentFailed(t.db, { planId: plan.id, instalmentId: instalmentIds[1]! })
		await chargeInstalmentNow(t.db, testCard, {
			adminId: admin,
			courseId: course.id,
			planId: plan.id,
			instalmentId: instalmentIds[1]!,
			outcome: 'succeed',
		})
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'paused', pause_reason: 'admin' })
		await recordInstalmentFailed(t.db, { planId: plan.id, instalmentId: instalmentIds[2]! })

		const before = Date.now()
		const resumed = await Promise.all(Array.from({ length: 4 }, () => change('resume')))
		expect(resumed.filter((outcome) => outcome === 'changed')).toHaveLength(1)
		const row = await planRow(t.db, plan.id)
		expect(row).toMatchObject({ status: 'past_due', pause_reason: null })
		expect(row.failing_since!.getTime()).toBeGreaterThanOrEqual(before - 1000)
		expect(await courseAccess(t.db, { id: buyer, isAdmin: false }, course.id)).toBe('full')
		expect((await planAudits(t.db, plan.id)).map((entry) => entry.action)).toEqual([
			'payment_plan.pause',
			'payment_plan.charge_succeeded',
			'payment_plan.resume',
		])
	})

	test("another course's id in the URL finds no plan and changes nothing", async () => {
		const { admin, plan } = await boughtPlan()
		const other = await insertCourse(t.db, {})
		for (const intent of ['cancel-rest', 'pause'] as const) {
			expect(await changePlan(t.db, testCard, { adminId: admin, courseId: other.id, planId: plan.id, intent })).toBe('not-found')
		}
		expect((await planRow(t.db, plan.id)).status).toBe('active')
		expect(await planAudits(t.db, plan.id)).toEqual([])
	})

	test('the route: ten parallel "cancel the rest" posts cancel once; an instructor is sent away', async () => {
		const { course, admin, plan } = await boughtPlan()
		const cookie = await sessionCookieFor(admin)
		const post = (userCookie: string) =>
			settle(() =>
				plansAction({
					request: formRequest(
						`/dashboard/admin/courses/${course.id}/plans`,
						{ intent: 'cancel-rest', planId: String(plan.id) },
						{ cookie: userCookie },
					),
					params: { courseId: String(course.id) },
					context: new RouterContextProvider(),
				} as never),
			)
		const instructor = await insertUser(t.db, { role: 'instructor' })
		const refused = await post(await sessionCookieFor(instructor))
		expect(refused.headers.get('Location')).toBe('/dashboard')
		expect((await planRow(t.db, plan.id)).status).toBe('active')
		const responses = await Promise.all(Array.from({ length: 10 }, () => post(cookie)))
		expect(responses.every((response) => response.status === 302)).toBe(true)
		expect(await planAudits(t.db, plan.id)).toEqual([{ action: 'payment_plan.cancel_rest' }])
	})
})

describe('refunding a plan', () => {
	async function planWithTwoPaid() {
		const bought = await boughtPlan()
		await chargeInstalmentNow(t.db, testCard, {
			adminId: bought.admin,
			courseId: bought.course.id,
			planId: bought.plan.id,
			instalmentId: bought.instalmentIds[1]!,
			outcome: 'succeed',
		})
		return bought
	}
	const paymentsOf = async (planId: number, checkoutSessionId: string) =>
		t.db
			.selectFrom('registration_payments')
			.leftJoin('plan_instalments', 'plan_instalments.id', 'registration_payments.plan_instalment_id')
			.select(['registration_payments.amount_cents', 'registration_payments.refunded_cents', 'registration_payments.status'])
			.where((eb) =>
				eb.or([
					eb('plan_instalments.plan_purchase_id', '=', planId),
					eb('registration_payments.checkout_session_id', '=', checkoutSessionId),
				]),
			)
			.orderBy('registration_payments.id')
			.execute()

	test('in whole: everything paid goes back, what is left is cancelled, the enrolment ends and its seat frees', async () => {
		const { course, email, admin, plan, enrollmentId } = await planWithTwoPaid()
		const outcome = await refundPlan(t.db, testCard, {
			courseId: course.id,
			planId: plan.id,
			actorId: admin,
			amountCents: 86_668 + 86_666,
			reason: 'requested_by_customer',
			note: 'Leaving the program',
			unenroll: false,
			requestKey: 'plan-refund-whole-0001',
		})
		expect(outcome).toEqual({ kind: 'refunded', amountCents: 173_334, enrollmentEnded: true, pending: false, providerRetrying: false })
		expect(await paymentsOf(plan.id, plan.checkout_session_id)).toEqual([
			{ amount_cents: 86_668, refunded_cents: 86_668, status: 'refunded' },
			{ amount_cents: 86_666, refunded_cents: 86_666, status: 'refunded' },
		])
		expect(await instalmentStatuses(plan.id)).toEqual(['paid', 'paid', 'cancelled'])
		expect((await planRow(t.db, plan.id)).status).toBe('cancelled')
		expect(await enrollmentStatus(enrollmentId)).toBe('inactive')
		const seats = await t.db
			.selectFrom('enrollments')
			.select('id')
			.where('course_id', '=', course.id)
			.where('status', '=', 'active')
			.execute()
		expect(seats).toEqual([])
		expect(await mailsStartingWith(t.db, email, 'Refund issued: ')).toHaveLength(2)
		expect((await planAudits(t.db, plan.id)).map((entry) => entry.action)).toEqual(['payment_plan.charge_succeeded', 'payment_plan.refund'])
	})

	test('in part: the newest payment goes back first, the rest is cancelled, and the student stays unless the admin ends it', async () => {
		const kept = await planWithTwoPaid()
		const base = { reason: 'requested_by_customer' as const, note: 'Partial refund', amountCents: 50_000 }
		expect(
			await refundPlan(t.db, testCard, {
				...base,
				courseId: kept.course.id,
				planId: kept.plan.id,
				actorId: kept.admin,
				unenroll: false,
				requestKey: 'plan-refund-part-0001',
			}),
		).toMatchObject({ kind: 'refunded', enrollmentEnded: false })
		expect(await paymentsOf(kept.plan.id, kept.plan.checkout_session_id)).toEqual([
			{ amount_cents: 86_668, refunded_cents: 0, status: 'paid' },
			{ amount_cents: 86_666, refunded_cents: 50_000, status: 'paid' },
		])
		expect(await enrollmentStatus(kept.enrollmentId)).toBe('active')
		expect((await planRow(t.db, kept.plan.id)).status).toBe('cancelled')

		const ended = await planWithTwoPaid()
		expect(
			await refundPlan(t.db, testCard, {
				...base,
				courseId: ended.course.id,
				planId: ended.plan.id,
				actorId: ended.admin,
				unenroll: true,
				requestKey: 'plan-refund-part-0002',
			}),
		).toMatchObject({ kind: 'refunded', enrollmentEnded: true })
		expect(await enrollmentStatus(ended.enrollmentId)).toBe('inactive')
	})

	test('more than was paid is refused with nothing changed', async () => {
		const { course, admin, plan } = await planWithTwoPaid()
		const outcome = await refundPlan(t.db, testCard, {
			courseId: course.id,
			planId: plan.id,
			actorId: admin,
			amountCents: 173_335,
			reason: 'requested_by_customer',
			note: 'Too much',
			unenroll: false,
			requestKey: 'plan-refund-much-0001',
		})
		expect(outcome).toEqual({ kind: 'too-much', leftCents: 173_334 })
		expect((await planRow(t.db, plan.id)).status).toBe('active')
	})

	test('the route: one confirmation sent ten times at once refunds once, across both payments; an instructor is sent away', async () => {
		const { course, admin, plan, enrollmentId } = await planWithTwoPaid()
		setPayments(testCard)
		const fields = {
			intent: 'confirm',
			requestKey: 'plan-refund-route-key-0001',
			amount: '1,000.00',
			reason: 'requested_by_customer',
			note: 'Partial, sent twice',
			afterRefund: 'keep',
		}
		const post = async (userId: string) => {
			const cookie = await sessionCookieFor(userId)
			return settle(() =>
				planRefundAction({
					request: formRequest(`/dashboard/admin/courses/${course.id}/plans/${plan.id}/refund`, fields, { cookie }),
					params: { courseId: String(course.id), planId: String(plan.id) },
					context: new RouterContextProvider(),
				} as never),
			)
		}
		const instructor = await insertUser(t.db, { role: 'instructor' })
		expect((await post(instructor)).headers.get('Location')).toBe('/dashboard')
		const responses = await Promise.all(Array.from({ length: 10 }, () => post(admin)))
		expect(responses.map((response) => response.status)).toEqual(Array(10).fill(302))
		const refunds = await t.db
			.selectFrom('payment_refunds')
			.select(['amount_cents', 'status'])
			.where('request_key', 'like', 'plan-refund-route-key-0001-%')
			.orderBy('amount_cents')
			.execute()
		expect(refunds).toEqual([
			{ amount_cents: 13_334, status: 'succeeded' },
			{ amount_cents: 86_666, status: 'succeeded' },
		])
		expect(await enrollmentStatus(enrollmentId)).toBe('active')
		expect((await planAudits(t.db, plan.id)).filter((entry) => entry.action === 'payment_plan.refund')).toHaveLength(1)
	})
})
