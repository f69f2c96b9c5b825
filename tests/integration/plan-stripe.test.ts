/**
 * Pay in instalments with Stripe (issue 41, docs/decisions/054 and 062), against the Stripe stand-in
 * with the real `stripe` SDK: the plan is sold as a Checkout subscription whose schedule bills the
 * later instalments and then cancels; the first payment takes the seat as a payment in full does;
 * signed `invoice.paid` / `invoice.payment_failed` / `customer.subscription.*` events drive the same
 * state machine as the test checkout (failure e-mail once, pause after the grace days, access back at
 * once on payment, completion); the update-card link opens Stripe's customer portal. The admin's
 * actions reach the subscription after their change commits (docs/decisions/063's amendment): cancel
 * the rest and refunds cancel it, pause and resume pause its collection, paid outside is refused.
 */
import { sql } from 'kysely'
import { RouterContextProvider } from 'react-router'
import { describe, expect, test, vi } from 'vitest'
import { TASKS } from '#app/jobs/index.server.ts'
import { courseAccess } from '#app/models/materials/materials.server.ts'
import { FOLLOW_PLAN_AT_PROVIDER_TASK } from '#app/models/payments/plan-endings.server.ts'
import { pauseOverduePlans } from '#app/models/payments/plan-purchases.server.ts'
import { refundPlan } from '#app/models/payments/plan-purchases-admin.server.ts'
import { refundPayment } from '#app/models/payments/refunds.server.ts'
import { action as plansAction } from '#app/routes/admin/course-plans.tsx'
import { action as planPayAction, loader as planPayLoader } from '#app/routes/dashboard/plan-pay.tsx'
import { action as enrollAction } from '#app/routes/register/enroll.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import { StripePayments } from '#app/services/payments/stripe.server.ts'
import { deliverStripeEvent } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourseWithPlan, insertUser, type PaymentPlanValues } from '#tests/support/fixtures.ts'
import { mailsStartingWith } from '#tests/support/outbox.ts'
import { planAudits, planInstalments, planRow } from '#tests/support/plan-rows.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor, settle, signedInUser, toastOf } from '#tests/support/requests.ts'
import { useStripeStandIn } from '#tests/support/stripe-stand-in.ts'

const t = useTestDatabase()
const { stripe, payments } = useStripeStandIn({ installed: true })
const DAY = 86_400_000

/** A $2,500 course ending in five months, offering a plan ($100 surcharge): three equal instalments unless told. */
const courseWithPlan = (plan: PaymentPlanValues = {}) => insertCourseWithPlan(t.db, { months: 5, plan })

/** A student chooses the course's plan on the enroll form and is sent to Stripe's checkout. */
async function openPlanCheckout(course: { id: number }) {
	const { id, email, cookie } = await signedInUser(t.db)
	const response = await settle(() =>
		enrollAction({
			request: formRequest(`/courses/${course.id}/enroll`, { intent: 'agree', agreeToTerms: 'on', paymentOption: 'plan' }, { cookie }),
			params: { id: String(course.id) },
			context: new RouterContextProvider(),
		} as never),
	)
	expect(response.status).toBe(303)
	const sessionId = response.headers.get('Location')!.split('/').at(-1)!
	expect(stripe.sessions.get(sessionId)?.mode).toBe('subscription')
	return { user: { id, email }, cookie, sessionId }
}

/** A student buys the course on its plan through the enroll form, pays on Stripe's page, and Stripe says so. */
async function buyOnPlan(course: { id: number }) {
	const { user, cookie, sessionId } = await openPlanCheckout(course)
	const session = stripe.pay(sessionId)
	expect((await deliverStripeEvent(stripe.webhook('checkout.session.completed', sessionId))).status).toBe(200)
	const plan = await t.db.selectFrom('plan_purchases').selectAll().where('checkout_session_id', '=', sessionId).executeTakeFirstOrThrow()
	return { user, cookie, sessionId, subscriptionId: session.subscription!, plan }
}

/** The plan's page's one button, which opens Stripe's customer portal. */
const openPortal = (planId: number, cookie: string) =>
	callRoute(planPayAction, formRequest(`/dashboard/plans/${planId}/pay`, {}, { cookie }), { planId: String(planId) })
const reader = (userId: string) => ({ id: userId, isAdmin: false })

describe('buying on a plan with Stripe', () => {
	test('the checkout is a subscription: the monthly price and the leftover cents, charged as the first payment; its schedule bills the rest and cancels', async () => {
		const course = await courseWithPlan()
		const { sessionId, subscriptionId, plan } = await buyOnPlan(course)
		const created = stripe.requests.find((request) => request.path === '/v1/checkout/sessions' && request.method === 'POST')!
		expect(created.body).toMatchObject({
			mode: 'subscription',
			line_items: {
				0: { price_data: { unit_amount: '86666', recurring: { interval: 'month' } } },
				1: { price_data: { unit_amount: '2' } },
			},
		})
		expect(created.body).not.toHaveProperty('payment_intent_data')
		expect(stripe.sessions.get(sessionId)?.amount_total).toBe(86_668)

		// The seat is taken exactly as a full payment takes it; the payment refunds go against is the first invoice's.
		const enrollment = await t.db
			.selectFrom('enrollments')
			.select(['id', 'status'])
			.where('course_id', '=', course.id)
			.executeTakeFirstOrThrow()
		expect(plan).toMatchObject({
			status: 'active',
			provider: 'stripe',
			enrollment_id: enrollment.id,
			provider_subscription_id: subscriptionId,
		})
		const firstInvoice = [...stripe.invoices.values()].find(
			(invoice) => invoice.parent.subscription_details.subscription === subscriptionId,
		)!
		const payment = await t.db
			.selectFrom('registration_payments')
			.select(['status', 'amount_cents', 'payment_intent_id'])
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow()
		expect(payment).toEqual({ status: 'paid', amount_cents: 86_668, payment_intent_id: firstInvoice.payment_intent })
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', course.id).execute()).toEqual([])

		const schedule = stripe.schedules.get(stripe.subscriptions.get(subscriptionId)!.schedule!)!
		expect(schedule).toMatchObject({ end_behavior: 'cancel', metadata: { planPurchaseId: String(plan.id) } })
		expect(schedule.phases.map((phase) => phase.periods)).toEqual([1, 2])

		// Stripe delivers again: the schedule is not touched twice.
		expect((await deliverStripeEvent(stripe.webhook('checkout.session.completed', sessionId))).status).toBe(200)
		const updates = stripe.requests.filter(
			(request) => request.path === `/v1/subscription_schedules/${schedule.id}` && request.method === 'POST',
		)
		expect(updates).toHaveLength(1)
		expect(stripe.requests.filter((request) => request.path === '/v1/subscription_schedules' && request.method === 'POST')).toHaveLength(1)
	})

	test('five deliveries of checkout.session.completed at once enrol once and put the subscription on one schedule', async () => {
		const course = await courseWithPlan()
		const { sessionId } = await openPlanCheckout(course)
		const subscriptionId = stripe.pay(sessionId).subscription!
		const event = stripe.webhook('checkout.session.completed', sessionId)
		const responses = await Promise.all(Array.from({ length: 5 }, () => deliverStripeEvent(event)))
		expect(responses.map((response) => response.status)).toEqual(Array(5).fill(200))
		expect(await t.db.selectFrom('enrollments').select('id').where('course_id', '=', course.id).execute()).toHaveLength(1)
		const schedules = [...stripe.schedules.values()].filter((schedule) => schedule.subscription === subscriptionId)
		expect(schedules).toHaveLength(1)
		expect(schedules[0]).toMatchObject({ end_behavior: 'cancel' })
		expect(schedules[0]!.phases.map((phase) => phase.periods)).toEqual([1, 2])
	})

	test('a deposit plan: the first invoice is the deposit alone, the instalments start a month on with the leftover cents first', async () => {
		const course = await courseWithPlan({ kind: 'deposit', deposit_cents: 50_000, instalment_count: 3 })
		const { sessionId, subscriptionId, plan } = await buyOnPlan(course)
		expect(stripe.sessions.get(sessionId)?.amount_total).toBe(50_000)
		const created = stripe.requests.findLast((request) => request.path === '/v1/checkout/sessions' && request.method === 'POST')!
		expect(created.body).toMatchObject({ subscription_data: { proration_behavior: 'none' } })
		expect(Number((created.body.subscription_data as { billing_cycle_anchor: string }).billing_cycle_anchor)).toBeGreaterThan(
			(Date.now() + 27 * DAY) / 1000,
		)
		const billed = [
			stripe.billNext(subscriptionId, 'paid'),
			stripe.billNext(subscriptionId, 'paid'),
			stripe.billNext(subscriptionId, 'paid'),
		]
		expect(billed.map((invoice) => invoice?.amount_paid)).toEqual([70_000, 70_000, 70_000])
		expect(stripe.billNext(subscriptionId, 'paid')).toBeNull()
		expect((await planInstalments(t.db, plan.id)).map((instalment) => instalment.amount_cents)).toEqual([50_000, 70_000, 70_000, 70_000])
	})

	test('a plan with leftover cents on an instalment after the deposit bills them in a phase of its own', async () => {
		const course = await courseWithPlan({ kind: 'deposit', deposit_cents: 50_001, instalment_count: 3 })
		const { subscriptionId, plan } = await buyOnPlan(course)
		const amounts = (await planInstalments(t.db, plan.id)).map((instalment) => instalment.amount_cents)
		expect(amounts).toEqual([50_001, 70_001, 69_999, 69_999])
		const billed = [1, 2, 3].map(() => stripe.billNext(subscriptionId, 'paid')?.amount_paid)
		expect(billed).toEqual(amounts.slice(1))
		expect(stripe.billNext(subscriptionId, 'paid')).toBeNull()
	})

	test('a plan paid after its seat was taken is flagged for refund and its subscription cancelled, so it bills no more', async () => {
		const course = await courseWithPlan()
		await t.db.updateTable('courses').set({ capacity: 1 }).where('id', '=', course.id).execute()
		const { sessionId } = await openPlanCheckout(course)
		await t.db
			.updateTable('seat_holds')
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where('checkout_session_id', '=', sessionId)
			.execute()
		await openPlanCheckout(course)
		const subscriptionId = stripe.pay(sessionId).subscription!
		const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
		expect((await deliverStripeEvent(stripe.webhook('checkout.session.completed', sessionId))).status).toBe(200)
		expect(warned).toHaveBeenCalledWith(expect.stringContaining('flagged for refund'))
		warned.mockRestore()
		const payment = await t.db
			.selectFrom('registration_payments')
			.select('status')
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow()
		expect(payment.status).toBe('needs_refund')
		const plan = await t.db
			.selectFrom('plan_purchases')
			.select('status')
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow()
		expect(plan.status).toBe('expired')
		expect(stripe.subscriptions.get(subscriptionId)).toMatchObject({ status: 'canceled', schedule: null })
		// Stripe delivers again: the subscription is already cancelled, and that is fine.
		expect((await deliverStripeEvent(stripe.webhook('checkout.session.completed', sessionId))).status).toBe(200)
	})
})

describe('a Stripe plan after the purchase', () => {
	test('an instalment fails, access pauses after the grace days, paying on Stripe restores it, the last completes the plan', async () => {
		const course = await courseWithPlan()
		const { user, cookie, subscriptionId, plan } = await buyOnPlan(course)
		const firstInvoice = stripe.invoices.get(stripe.subscriptions.get(subscriptionId)!.latest_invoice!)!
		// The first invoice's own event: the checkout paid it already; it is only linked, and no second receipt goes.
		expect((await deliverStripeEvent(stripe.event('invoice.paid', firstInvoice))).status).toBe(200)
		expect((await planInstalments(t.db, plan.id))[0]).toMatchObject({ status: 'paid', provider_invoice_id: firstInvoice.id })
		expect(await mailsStartingWith(t.db, user.email, 'Payment received')).toHaveLength(0)

		const failed = stripe.billNext(subscriptionId, 'failed')!
		const failure = stripe.event('invoice.payment_failed', failed)
		for (const _ of [1, 2]) expect((await deliverStripeEvent(failure)).status).toBe(200)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'past_due' })
		expect((await planInstalments(t.db, plan.id)).map((instalment) => instalment.status)).toEqual(['paid', 'failed', 'scheduled'])
		const failureMails = await mailsStartingWith(t.db, user.email, 'Payment failed')
		expect(failureMails).toHaveLength(1)
		expect(failureMails[0]!.text_body).toContain(`/dashboard/plans/${plan.id}/pay`)
		expect((await deliverStripeEvent(stripe.event('customer.subscription.updated', stripe.subscriptions.get(subscriptionId)))).status).toBe(
			200,
		)
		expect(await courseAccess(t.db, reader(user.id), course.id)).toBe('full')

		const failingSince = (await planRow(t.db, plan.id)).failing_since!
		expect(await pauseOverduePlans(t.db, new Date(failingSince.getTime() + 6 * DAY))).toEqual([])
		await pauseOverduePlans(t.db, new Date(failingSince.getTime() + 7 * DAY + 1000))
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'paused', pause_reason: 'overdue' })
		expect(await courseAccess(t.db, reader(user.id), course.id)).toBeNull()

		// The e-mail's link: the plan's page, whose button opens Stripe's customer portal for this customer.
		const page = await planPayLoader({
			request: getRequest(`/dashboard/plans/${plan.id}/pay`, { cookie }),
			params: { planId: String(plan.id) },
		} as never)
		expect(page).toMatchObject({ portal: true, overdueCents: 86_666 })
		const portal = await openPortal(plan.id, cookie)
		expect(portal.status).toBe(303)
		const opened = stripe.portalSessions.at(-1)!
		expect(portal.headers.get('Location')).toBe(opened.url)
		expect(opened).toMatchObject({
			customer: stripe.subscriptions.get(subscriptionId)!.customer,
			return_url: 'http://localhost:3000/dashboard',
		})
		// The portal updates the card and shows invoices; it never lets the student cancel or change the plan.
		expect(stripe.portalConfigurations.get(opened.configuration!)?.features).toEqual({
			payment_method_update: { enabled: 'true' },
			invoice_history: { enabled: 'true' },
			subscription_cancel: { enabled: 'false' },
			subscription_update: { enabled: 'false' },
			customer_update: { enabled: 'false' },
		})
		// A second visit uses the same configuration: one is made per account.
		await openPortal(plan.id, cookie)
		expect(stripe.portalSessions.at(-1)!.configuration).toBe(opened.configuration)
		expect(stripe.portalConfigurations.size).toBe(1)

		// The card updated, Stripe's retry pays the invoice: access is back at once, and a receipt goes.
		const paid = stripe.payInvoice(failed.id)
		expect((await deliverStripeEvent(stripe.event('invoice.paid', paid))).status).toBe(200)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'active', pause_reason: null, failing_since: null })
		expect(await courseAccess(t.db, reader(user.id), course.id)).toBe('full')
		expect((await planInstalments(t.db, plan.id))[1]).toMatchObject({
			status: 'paid',
			provider_invoice_id: paid.id,
			payment_intent_id: paid.payment_intent,
		})
		const receipts = await mailsStartingWith(t.db, user.email, 'Payment received')
		expect(receipts).toHaveLength(1)
		expect(receipts[0]!.text_body).toContain('Instalment 2 of 3')

		const last = stripe.billNext(subscriptionId, 'paid')!
		expect(last.amount_paid).toBe(86_666)
		expect((await deliverStripeEvent(stripe.event('invoice.paid', last))).status).toBe(200)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'completed' })
		// The schedule has run out: Stripe cancels the subscription, and the plan stays paid in full.
		expect(stripe.billNext(subscriptionId, 'paid')).toBeNull()
		expect(await deliverStripeEvent(stripe.event('customer.subscription.deleted', stripe.subscriptions.get(subscriptionId)))).toMatchObject(
			{
				status: 200,
			},
		)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'completed' })
	})

	test('ten deliveries of one invoice.paid at once record one payment and send one receipt', async () => {
		const { user, subscriptionId, plan } = await buyOnPlan(await courseWithPlan())
		const invoice = stripe.billNext(subscriptionId, 'paid')!
		const event = stripe.event('invoice.paid', invoice)
		const responses = await Promise.all(Array.from({ length: 10 }, () => deliverStripeEvent(event)))
		expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200))
		expect((await planInstalments(t.db, plan.id)).map((instalment) => [instalment.status, instalment.provider_invoice_id])).toEqual([
			['paid', null],
			['paid', invoice.id],
			['scheduled', null],
		])
		expect(await mailsStartingWith(t.db, user.email, 'Payment received')).toHaveLength(1)
	})

	test('an invoice that collected nothing pays no instalment', async () => {
		const { subscriptionId, plan } = await buyOnPlan(await courseWithPlan())
		const nothing = { ...stripe.billNext(subscriptionId, 'paid')!, id: 'in_zero', amount_paid: 0, amount_due: 0 }
		expect((await deliverStripeEvent(stripe.event('invoice.paid', nothing))).status).toBe(200)
		expect((await planInstalments(t.db, plan.id)).map((instalment) => instalment.status)).toEqual(['paid', 'scheduled', 'scheduled'])
	})

	test('an invoice paying an instalment already marked paid outside Stripe is logged for a refund and changes nothing', async () => {
		const { subscriptionId, plan } = await buyOnPlan(await courseWithPlan())
		await t.db
			.updateTable('plan_instalments')
			.set({ status: 'paid_outside', paid_at: new Date() })
			.where('plan_purchase_id', '=', plan.id)
			.where('sequence', '=', 2)
			.execute()
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
		const invoice = stripe.billNext(subscriptionId, 'paid')!
		for (const _ of [1, 2]) expect((await deliverStripeEvent(stripe.event('invoice.paid', invoice))).status).toBe(200)
		expect(warn.mock.calls.filter(([message]) => String(message).includes('already paid outside Stripe'))).toHaveLength(1)
		warn.mockRestore()
		expect((await planInstalments(t.db, plan.id))[1]).toMatchObject({ status: 'paid_outside', provider_invoice_id: invoice.id })
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'active' })
	})

	test('Stripe ending the subscription early cancels what is left; a failed instalment stays owed and the plan past due', async () => {
		const early = await buyOnPlan(await courseWithPlan())
		expect(
			(
				await deliverStripeEvent(
					stripe.event('customer.subscription.deleted', { ...stripe.subscriptions.get(early.subscriptionId), status: 'canceled' }),
				)
			).status,
		).toBe(200)
		expect(await planRow(t.db, early.plan.id)).toMatchObject({ status: 'cancelled' })
		expect((await planInstalments(t.db, early.plan.id)).map((instalment) => instalment.status)).toEqual(['paid', 'cancelled', 'cancelled'])

		const owing = await buyOnPlan(await courseWithPlan())
		expect((await deliverStripeEvent(stripe.event('invoice.payment_failed', stripe.billNext(owing.subscriptionId, 'failed')))).status).toBe(
			200,
		)
		const cancelled = { ...stripe.subscriptions.get(owing.subscriptionId), status: 'canceled' }
		expect((await deliverStripeEvent(stripe.event('customer.subscription.updated', cancelled))).status).toBe(200)
		expect(await planRow(t.db, owing.plan.id)).toMatchObject({ status: 'past_due' })
		expect((await planInstalments(t.db, owing.plan.id)).map((instalment) => instalment.status)).toEqual(['paid', 'failed', 'cancelled'])
		// The student pays what was owed (the invoice stays payable): the plan ends cancelled, never paid in full.
		const owed = stripe.invoices.get(stripe.subscriptions.get(owing.subscriptionId)!.latest_invoice!)!
		expect((await deliverStripeEvent(stripe.event('invoice.paid', stripe.payInvoice(owed.id)))).status).toBe(200)
		expect(await planRow(t.db, owing.plan.id)).toMatchObject({ status: 'cancelled', failing_since: null })
	})

	test('an event about a subscription no plan has is logged and answered 200, and nothing is written', async () => {
		const { subscriptionId, plan } = await buyOnPlan(await courseWithPlan())
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
		const stranger = { ...stripe.billNext(subscriptionId, 'paid')!, id: 'in_stranger' }
		stranger.parent = { type: 'subscription_details', subscription_details: { subscription: 'sub_unknown', metadata: {} } }
		const counts = () =>
			Promise.all(
				(['plan_purchases', 'plan_instalments', 'email_outbox', 'registration_payments'] as const).map((table) =>
					t.db
						.selectFrom(table)
						.select((eb) => eb.fn.countAll<string>().as('n'))
						.executeTakeFirstOrThrow(),
				),
			)
		const before = await counts()
		const planBefore = await planRow(t.db, plan.id)
		for (const event of [
			stripe.event('invoice.paid', stranger),
			stripe.event('invoice.payment_failed', stranger),
			stripe.event('customer.subscription.updated', { ...stripe.subscriptions.get(subscriptionId), id: 'sub_unknown' }),
			stripe.event('customer.subscription.deleted', { ...stripe.subscriptions.get(subscriptionId), id: 'sub_unknown', status: 'canceled' }),
		]) {
			expect((await deliverStripeEvent(event)).status).toBe(200)
		}
		expect(await counts()).toEqual(before)
		expect(await planRow(t.db, plan.id)).toEqual(planBefore)
		expect(warn.mock.calls.filter(([message]) => String(message).includes('sub_unknown'))).toHaveLength(4)
		warn.mockRestore()
	})

	test("the update-card page is the student's own: another student's Stripe plan is not found, and nothing is opened", async () => {
		const { plan } = await buyOnPlan(await courseWithPlan())
		const { cookie } = await signedInUser(t.db)
		const before = stripe.portalSessions.length
		const page = await settle(() =>
			planPayLoader({ request: getRequest(`/dashboard/plans/${plan.id}/pay`, { cookie }), params: { planId: String(plan.id) } } as never),
		)
		expect(page.status).toBe(404)
		const post = await openPortal(plan.id, cookie)
		expect(post.status).toBe(404)
		expect(stripe.portalSessions.length).toBe(before)
	})
})

describe("the admin's actions on a Stripe plan", () => {
	/** The admin posts one of the plans page's forms, as the browser does. */
	async function postPlanAction(course: { id: number }, cookie: string, fields: Record<string, string>) {
		return settle(() =>
			plansAction({
				request: formRequest(`/dashboard/admin/courses/${course.id}/plans`, fields, { cookie }),
				params: { courseId: String(course.id) },
				context: new RouterContextProvider(),
			} as never),
		)
	}
	const adminCookie = async () => {
		const admin = await insertUser(t.db, { role: 'admin' })
		return { admin, cookie: await sessionCookieFor(admin) }
	}
	const requestsTo = (method: string, path: string) =>
		stripe.requests.filter((request) => request.method === method && request.path === path).length
	const followUpJobs = async (planId: number) =>
		(
			await sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker.jobs
				WHERE task_identifier = ${FOLLOW_PLAN_AT_PROVIDER_TASK} AND key = ${`${FOLLOW_PLAN_AT_PROVIDER_TASK}:${planId}`}`.execute(t.db)
		).rows[0]!.n
	/** The follow-up job's task, run as the job system would run it. */
	const runFollowUp = (planId: number) => TASKS[FOLLOW_PLAN_AT_PROVIDER_TASK]!({ planId }, {} as never)
	/** The subscription stays active until the follow-up job queued with the change runs; then it is cancelled and bills no more. */
	async function expectCancelledByFollowUp(planId: number, subscriptionId: string) {
		expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('active')
		expect(await followUpJobs(planId)).toBe(1)
		await runFollowUp(planId)
		expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled')
		expect(() => stripe.billNext(subscriptionId, 'paid')).toThrow('bills no more')
	}

	test('cancel the rest: ten at once cancel once, the subscription is cancelled after the commit and Stripe bills nothing more', async () => {
		const course = await courseWithPlan()
		const { subscriptionId, plan } = await buyOnPlan(course)
		const { cookie } = await adminCookie()
		const responses = await Promise.all(
			Array.from({ length: 10 }, () => postPlanAction(course, cookie, { intent: 'cancel-rest', planId: String(plan.id) })),
		)
		expect(responses.map((response) => response.status)).toEqual(Array(10).fill(302))
		const toasts = await Promise.all(responses.map(toastOf))
		expect(toasts.filter((toast) => toast?.type === 'success')).toHaveLength(1)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'cancelled' })
		expect((await planInstalments(t.db, plan.id)).map((instalment) => instalment.status)).toEqual(['paid', 'cancelled', 'cancelled'])
		expect(await planAudits(t.db, plan.id)).toEqual([{ action: 'payment_plan.cancel_rest' }])

		expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled')
		expect(requestsTo('DELETE', `/v1/subscriptions/${subscriptionId}`)).toBe(1)
		expect(() => stripe.billNext(subscriptionId, 'paid')).toThrow('bills no more')
		// The follow-up job, queued with the change, finds the subscription cancelled and asks nothing more.
		expect(await followUpJobs(plan.id)).toBe(1)
		await runFollowUp(plan.id)
		expect(requestsTo('DELETE', `/v1/subscriptions/${subscriptionId}`)).toBe(1)
	})

	test('Stripe unreachable: the rest is cancelled here, the admin is told Stripe has not confirmed it, and the job cancels it later', async () => {
		const course = await courseWithPlan()
		const { subscriptionId, plan } = await buyOnPlan(course)
		const { cookie } = await adminCookie()
		const unreachable = new StripePayments({
			secretKey: stripe.secretKey,
			webhookSecret: stripe.webhookSecret,
			apiUrl: 'http://127.0.0.1:9',
		})
		setPayments(unreachable)
		const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
		const response = await postPlanAction(course, cookie, { intent: 'cancel-rest', planId: String(plan.id) })
		expect(logged.mock.calls.some(([message]) => String(message).includes(`did not follow plan ${plan.id}`))).toBe(true)
		logged.mockRestore()
		expect(await toastOf(response)).toMatchObject({
			type: 'warning',
			title: 'The rest of the plan is cancelled. The student stays enrolled. Stripe has not confirmed it yet.',
		})
		setPayments(payments)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'cancelled' })
		await expectCancelledByFollowUp(plan.id, subscriptionId)
	}, 30_000)

	test('refunding the plan cancels the subscription before the money goes back; five sends at once refund and cancel once', async () => {
		const course = await courseWithPlan()
		const { subscriptionId, plan } = await buyOnPlan(course)
		const admin = await insertUser(t.db, { role: 'admin' })
		const outcomes = await Promise.all(
			Array.from({ length: 5 }, () =>
				refundPlan(t.db, payments, {
					courseId: course.id,
					planId: plan.id,
					actorId: admin,
					amountCents: 86_668,
					reason: 'requested_by_customer',
					note: 'Left the program',
					unenroll: false,
					requestKey: `stripe-plan-refund-${plan.id}`,
				}),
			),
		)
		// Sends that find the first one's refund under way answer it pending; none leaves Stripe billing.
		for (const outcome of outcomes) expect(outcome).toMatchObject({ kind: 'refunded', amountCents: 86_668, providerRetrying: false })
		expect(outcomes.filter((outcome) => outcome.kind === 'refunded' && outcome.enrollmentEnded)).toHaveLength(1)
		expect(stripe.refunds.filter((refund) => refund.amount === 86_668)).toHaveLength(1)
		expect(stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled')
		expect(requestsTo('DELETE', `/v1/subscriptions/${subscriptionId}`)).toBe(1)
		expect(() => stripe.billNext(subscriptionId, 'paid')).toThrow('bills no more')
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'cancelled' })
	})

	test("a refund that ends the enrolment from the enrolment's own dialog cancels the subscription through the follow-up job", async () => {
		const course = await courseWithPlan()
		const { subscriptionId, sessionId, plan } = await buyOnPlan(course)
		const admin = await insertUser(t.db, { role: 'admin' })
		const payment = await t.db
			.selectFrom('registration_payments')
			.select('id')
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow()
		const refund = await refundPayment(t.db, payments, {
			paymentId: payment.id,
			actorId: admin,
			amountCents: 86_668,
			reason: 'requested_by_customer',
			note: 'Given back',
			unenroll: false,
			requestKey: `enrollment-refund-${plan.id}`,
		})
		expect(refund).toMatchObject({ kind: 'refunded', enrollmentEnded: true })
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'cancelled' })
		// Never from inside the refund's transaction: the job, queued with it, asks Stripe.
		await expectCancelledByFollowUp(plan.id, subscriptionId)
	})

	test("pause keeps the month's invoice as a draft that charges nobody; resume collects it, and four sends at once change once", async () => {
		const course = await courseWithPlan()
		const { user, subscriptionId, plan } = await buyOnPlan(course)
		const { cookie } = await adminCookie()
		const send = (intent: 'pause' | 'resume') =>
			Promise.all(Array.from({ length: 4 }, () => postPlanAction(course, cookie, { intent, planId: String(plan.id) })))
		const path = `/v1/subscriptions/${subscriptionId}`
		const updates = () => stripe.requests.filter((request) => request.method === 'POST' && request.path === path)

		const paused = await send('pause')
		expect((await Promise.all(paused.map(toastOf))).filter((toast) => toast?.type === 'success')).toHaveLength(1)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'paused', pause_reason: 'admin' })
		expect(stripe.subscriptions.get(subscriptionId)?.pause_collection).toEqual({ behavior: 'keep_as_draft', resumes_at: null })
		expect(updates()).toHaveLength(1)
		expect(await courseAccess(t.db, reader(user.id), course.id)).toBeNull()

		// The month passes while paused: Stripe makes the invoice as a draft and charges nothing, so no event comes.
		const draft = stripe.billNext(subscriptionId, 'paid')!
		expect(draft).toMatchObject({ status: 'draft', auto_advance: false, amount_paid: 0 })
		expect((await planInstalments(t.db, plan.id))[1]).toMatchObject({ status: 'scheduled' })

		const resumed = await send('resume')
		expect((await Promise.all(resumed.map(toastOf))).filter((toast) => toast?.type === 'success')).toHaveLength(1)
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'active', pause_reason: null })
		expect(stripe.subscriptions.get(subscriptionId)?.pause_collection).toBeNull()
		expect(updates()).toHaveLength(2)
		expect(stripe.invoices.get(draft.id)).toMatchObject({ status: 'open', auto_advance: true })
		expect(await planAudits(t.db, plan.id)).toEqual([{ action: 'payment_plan.pause' }, { action: 'payment_plan.resume' }])

		// Stripe charges the finalized invoice: it pays the instalment of the month the pause kept.
		expect((await deliverStripeEvent(stripe.event('invoice.paid', stripe.payInvoice(draft.id)))).status).toBe(200)
		expect((await planInstalments(t.db, plan.id))[1]).toMatchObject({ status: 'paid', provider_invoice_id: draft.id })
		expect(await courseAccess(t.db, reader(user.id), course.id)).toBe('full')
		// The follow-up job finds Stripe as the plan is: nothing more to ask.
		await runFollowUp(plan.id)
		expect(updates()).toHaveLength(2)
	})

	test('the provider followed twice at once (the request and its job) pauses once and finalizes each draft once, without an error', async () => {
		const { subscriptionId, plan } = await buyOnPlan(await courseWithPlan())
		await Promise.all([payments.plans.pauseCollection(subscriptionId), payments.plans.pauseCollection(subscriptionId)])
		const draft = stripe.billNext(subscriptionId, 'paid')!
		await Promise.all([payments.plans.resumeCollection(subscriptionId), payments.plans.resumeCollection(subscriptionId)])
		expect(stripe.invoices.get(draft.id)).toMatchObject({ status: 'open', auto_advance: true })
		expect(stripe.subscriptions.get(subscriptionId)?.pause_collection).toBeNull()
		expect(await planRow(t.db, plan.id)).toMatchObject({ status: 'active' })
	})

	test('mark paid outside is refused on a Stripe plan with a clear message: Stripe would still charge that instalment', async () => {
		const course = await courseWithPlan()
		const { plan } = await buyOnPlan(course)
		const { cookie } = await adminCookie()
		const instalment = await t.db
			.selectFrom('plan_instalments')
			.select('id')
			.where('plan_purchase_id', '=', plan.id)
			.where('sequence', '=', 2)
			.executeTakeFirstOrThrow()
		const response = await postPlanAction(course, cookie, {
			intent: 'paid-outside',
			planId: String(plan.id),
			instalmentId: String(instalment.id),
		})
		expect(response.status).toBe(302)
		expect(await toastOf(response)).toMatchObject({ type: 'error', title: 'Stripe collects this plan: cancel the rest instead.' })
		expect((await planInstalments(t.db, plan.id))[1]).toMatchObject({ status: 'scheduled' })
		expect(await planAudits(t.db, plan.id)).toEqual([])
		expect(await followUpJobs(plan.id)).toBe(0)
	})
})
