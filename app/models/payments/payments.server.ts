import type { Kysely, Transaction } from 'kysely'
import { acceptedAgreementVersion } from '#app/models/enrollment/agreement.server.ts'
import { sendEnrollmentReceipt } from '#app/models/enrollment/enrollment-emails.server.ts'
import { lockCourse, lockPublishedCourse } from '#app/models/enrollment/seat-offers.server.ts'
import {
	enrollWithinCapacity,
	liveHoldOf,
	placeSeatHold,
	releaseSeatHolds,
	SeatUnavailableError,
	sweepExpiredSeatHolds,
} from '#app/models/enrollment/seats.server.ts'
import { publishEvent } from '#app/services/events/publish.server.ts'
import type { CheckoutSession, PaymentProvider } from '#app/services/payments/payments.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import type { PlanRefusal } from './checkout.ts'
import { offeredPlan, offerWithCode, type PlanOffer } from './instalment-plans.server.ts'
import { activatePlanPurchase, closePendingPlanPurchase, recordPlanPurchase } from './plan-purchases.server.ts'
import {
	type AppliedPromotionCode,
	attachCheckoutToReservation,
	lockPromotionCodeForUse,
	recordPromotionCodeUse,
	redeemCheckoutUse,
	reservedPromotionOf,
	setStripePromotionCodeId,
} from './promotion-codes.server.ts'

/**
 * How long a seat is held for a checkout, and when the checkout session ends.
 * Stripe wants expires_at at least 30 minutes after it creates the session;
 * the extra minute covers the time between placing the hold and that call.
 */
const CHECKOUT_WINDOW_MS = 31 * 60 * 1000

export type ClaimedCourse = { id: number; title: string; registrationFee: number }

export type SeatClaim =
	| { kind: 'enrolled'; enrollmentId: number; course: ClaimedCourse; promotion: AppliedPromotionCode | null }
	| {
			kind: 'held'
			holdId: string
			expiresAt: Date
			course: ClaimedCourse
			promotion: AppliedPromotionCode | null
			/** The plan bought instead of paying in full: its first payment is the checkout's amount. */
			plan: PlanOffer | null
	  }

/** The buyer chose the payment plan and it cannot be sold: nothing was held. */
export class PlanUnavailableError extends Error {
	readonly reason: PlanRefusal
	constructor(reason: PlanRefusal) {
		super(reason)
		this.reason = reason
	}
}

/**
 * Inside a transaction: enrols at once in a free course (or one a promotion code makes free), or
 * holds a seat for the checkout of a paid one. The price is read under the course lock, from the
 * database only; a code is counted under its own lock, reserved with the hold or redeemed with the
 * enrolment (docs/decisions/037). A buyer whose checkout for the course is still open gets that
 * checkout's hold back, whatever code they typed this time: one open checkout per buyer and course
 * (docs/decisions/040). Throws SeatUnavailableError when no seat can be had, PromotionCodeError
 * when the code cannot be used.
 */
export async function claimSeat(
	trx: Transaction<Database>,
	input: {
		userId: string
		courseId: number
		promotionCode?: string | null
		/** The agreement version the form showed; the one in force when not said (docs/decisions/043). */
		agreementVersionId?: number | null
		/** Buying on the course's payment plan: the seat is held the same way, for its first payment. */
		paymentPlan?: boolean
	},
): Promise<SeatClaim> {
	if (!(await lockPublishedCourse(trx, input.courseId))) throw new SeatUnavailableError('course-not-found')
	const row = await trx
		.selectFrom('courses')
		.select(['id', 'title', 'registration_fee'])
		.where('id', '=', input.courseId)
		.executeTakeFirstOrThrow()
	const course = { id: row.id, title: row.title, registrationFee: row.registration_fee }
	const seat = { userId: input.userId, courseId: input.courseId }
	// Read under the course lock: the schedule sold is the one checked against the course's dates.
	const plan = input.paymentPlan ? await offeredPlan(trx, course.id) : null
	if (input.paymentPlan && !plan) throw new PlanUnavailableError('not-offered')
	if (course.registrationFee > 0) {
		const open = await liveHoldOf(trx, seat)
		if (open) {
			const promotion = await reservedPromotionOf(trx, open.id)
			return { kind: 'held', holdId: open.id, expiresAt: open.expires_at, course, promotion, plan: planBought(plan, promotion) }
		}
	}
	const agreementVersionId = await acceptedAgreementVersion(trx, input.agreementVersionId)
	// A free course has nothing to take off: a code typed for it is not used up. On a plan the code
	// is reckoned on the plan's total and counted under the same lock as for paying in full (docs/decisions/064).
	const promotion =
		input.promotionCode && course.registrationFee > 0
			? await lockPromotionCodeForUse(trx, {
					courseId: course.id,
					code: input.promotionCode,
					priceCents: plan?.schedule.totalCents ?? course.registrationFee,
				})
			: null
	if (course.registrationFee === 0 || promotion?.totalCents === 0) {
		const { enrollmentId } = await enrollWithinCapacity(trx, { ...seat, agreementVersionId })
		if (promotion) await recordPromotionCodeUse(trx, { ...seat, applied: promotion, use: { enrollmentId } })
		await sendEnrollmentReceipt(trx, { courseId: course.id, enrollmentId })
		await publishEvent(trx, { type: 'enrollment.changed', courseId: course.id, userId: input.userId })
		return { kind: 'enrolled', enrollmentId, course, promotion }
	}
	// Before anything is written: a code that leaves an instalment below the minimum charge holds nothing.
	const bought = planBought(plan, promotion)
	const expiresAt = new Date(Date.now() + CHECKOUT_WINDOW_MS)
	const { holdId } = await placeSeatHold(trx, { ...seat, expiresAt, agreementVersionId })
	if (promotion) await recordPromotionCodeUse(trx, { ...seat, applied: promotion, use: { seatHoldId: holdId } })
	await publishEvent(trx, { type: 'enrollment.changed', courseId: course.id, userId: input.userId })
	return { kind: 'held', holdId, expiresAt, course, promotion, plan: bought }
}

/** The plan as bought with the code, its discount spread over the instalments; throws PlanUnavailableError when that cannot be charged. */
function planBought(plan: PlanOffer | null, promotion: AppliedPromotionCode | null) {
	if (!plan || !promotion) return plan
	const discounted = offerWithCode(plan, promotion)
	if (!discounted) throw new PlanUnavailableError('code-too-large')
	return discounted
}

/**
 * A paid checkout confirms the account's address when it was paid from that address (the checkout
 * was opened with it and the provider's receipt went there): a paying student who never opened the
 * confirmation mail is not refused at their next sign-in and gets the course's e-mails (issue 39
 * point 5, docs/decisions/044).
 */
async function confirmAddressPaidFrom(trx: Transaction<Database>, { userId, paidFrom }: { userId: string; paidFrom: string | null }) {
	if (!paidFrom) return
	await trx
		.updateTable('users')
		.set({ email_confirmed_at: new Date(), updated_at: new Date() })
		.where('id', '=', userId)
		.where('email', '=', paidFrom.trim().toLowerCase())
		.where('email_confirmed_at', 'is', null)
		.execute()
}

/** The checkout could not be started; the message is the spec's inline text. */
export class CheckoutError extends Error {}

export type OpenCheckoutInput = {
	claim: Extract<SeatClaim, { kind: 'held' }>
	user: { id: string; email: string }
	appUrl: string
	/** Path the provider sends the customer back to when they give up. */
	cancelPath: string
}

/**
 * The checkout of a held seat: the one already opened for the hold, or a new session at the
 * provider, recorded with the hold and the pending payment (docs/decisions/040). The idempotency
 * key comes from the hold, so the buyer's submits that arrive together get one session from the
 * provider; no transaction stays open across the provider call. Whichever submit records first
 * wins: a later one answers with the recorded checkout (and expires its own session, should it
 * have made another). When the provider fails, a hold whose checkout never opened is released.
 */
export async function openCheckout(db: Kysely<Database>, payments: PaymentProvider, input: OpenCheckoutInput) {
	const { claim, user } = input
	const recorded = await checkoutOfHold(db, claim.holdId)
	if (recorded) return recorded
	const promotion = claim.promotion
	const plan = claim.plan
	let session: CheckoutSession & { url: string }
	try {
		// On a plan the code's discount is already in the instalments (docs/decisions/054, 064): the provider charges them as they are.
		const providerDiscount = plan ? null : promotion
		let providerPromotionCodeId = providerDiscount?.stripePromotionCodeId ?? null
		if (providerDiscount && !providerPromotionCodeId) {
			providerPromotionCodeId = await payments.preparePromotionCode({
				id: providerDiscount.id,
				code: providerDiscount.code,
				...providerDiscount.discount,
			})
			if (providerPromotionCodeId) await setStripePromotionCodeId(db, providerDiscount.id, providerPromotionCodeId)
		}
		const firstPayment = plan?.schedule.payments[0]
		const created = await payments.createCheckoutSession({
			amountCents: firstPayment?.amountCents ?? promotion?.priceCents ?? claim.course.registrationFee,
			discount: providerDiscount ? { code: providerDiscount.code, ...providerDiscount.discount, providerPromotionCodeId } : undefined,
			currency: 'usd',
			description: firstPayment ? `${claim.course.title} — payment plan, ${firstPayment.label.toLowerCase()}` : claim.course.title,
			customerEmail: user.email,
			metadata: { userId: user.id, courseId: String(claim.course.id) },
			expiresAt: claim.expiresAt,
			successUrl: `${input.appUrl}/registration-complete?session_id={CHECKOUT_SESSION_ID}`,
			cancelUrl: `${input.appUrl}${input.cancelPath}`,
			// Per hold and way back: the same purchase sent again is the same session.
			idempotencyKey: `checkout-hold-${claim.holdId}${input.cancelPath}${plan ? '-plan' : ''}`,
			plan: plan ? { productName: `${claim.course.title} — payment plan`, payments: plan.schedule.payments } : null,
		})
		if (!created.url) throw new CheckoutError('Failed to get checkout URL')
		session = { ...created, url: created.url }
	} catch (error) {
		if (!(error instanceof CheckoutError)) {
			console.error('[payments] could not create a checkout session:', error instanceof Error ? error.message : error)
		}
		const opened = await releaseHoldWithoutCheckout(db, claim.holdId, claim.course.id)
		if (opened) return opened
		throw error instanceof CheckoutError ? error : new CheckoutError('Failed to create checkout session')
	}
	const answer = await transaction(db, async (trx) => {
		const hold = await trx
			.selectFrom('seat_holds')
			.select(['checkout_session_id', 'checkout_url'])
			.where('id', '=', claim.holdId)
			.where('expires_at', '>', new Date())
			.forUpdate()
			.executeTakeFirst()
		if (!hold) return null
		if (hold.checkout_session_id && hold.checkout_url) return { sessionId: hold.checkout_session_id, url: hold.checkout_url }
		await recordCheckout(trx, payments, { claim, user, session })
		return { sessionId: session.id, url: session.url }
	})
	// A session nobody will be sent to (its hold went, or another was recorded first) must not stay payable.
	if (answer?.sessionId !== session.id) await payments.expireCheckoutSession(session.id).catch(() => {})
	if (!answer) throw new CheckoutError('Failed to create checkout session')
	return answer
}

/** The checkout recorded for a hold that has not run out, if any. */
async function checkoutOfHold(db: Kysely<Database>, holdId: string) {
	const hold = await db
		.selectFrom('seat_holds')
		.select(['checkout_session_id', 'checkout_url'])
		.where('id', '=', holdId)
		.where('expires_at', '>', new Date())
		.executeTakeFirst()
	return hold?.checkout_session_id && hold.checkout_url ? { sessionId: hold.checkout_session_id, url: hold.checkout_url } : null
}

async function recordCheckout(
	trx: Transaction<Database>,
	payments: PaymentProvider,
	input: Pick<OpenCheckoutInput, 'claim' | 'user'> & { session: CheckoutSession & { url: string } },
) {
	const { claim, user, session } = input
	const promotion = claim.promotion
	await trx
		.updateTable('seat_holds')
		.set({ checkout_session_id: session.id, checkout_url: session.url })
		.where('id', '=', claim.holdId)
		.execute()
	await attachCheckoutToReservation(trx, { seatHoldId: claim.holdId, checkoutSessionId: session.id })
	await trx
		.insertInto('registration_payments')
		.values({
			checkout_session_id: session.id,
			provider: payments.name,
			user_id: user.id,
			course_id: claim.course.id,
			course_title: claim.course.title,
			customer_email: user.email,
			amount_cents: session.amountTotal ?? promotion?.totalCents ?? claim.course.registrationFee,
			promotion_code_id: promotion?.id ?? null,
			promotion_code: promotion?.code ?? null,
			discount_cents: session.amountDiscount,
		})
		.onConflict((conflict) => conflict.column('checkout_session_id').doNothing())
		.execute()
	if (claim.plan) {
		await recordPlanPurchase(trx, {
			checkoutSessionId: session.id,
			provider: payments.name,
			userId: user.id,
			courseId: claim.course.id,
			offer: claim.plan,
		})
	}
}

/**
 * After a failed provider call: releases the hold unless another submit of the buyer opened its
 * checkout meanwhile, which is then the answer (null when the hold went).
 */
async function releaseHoldWithoutCheckout(db: Kysely<Database>, holdId: string, courseId: number) {
	const released = await transaction(db, async (trx) => {
		const courses = await releaseSeatHolds(trx, { holdWithoutCheckout: holdId })
		if (courses.length > 0) await publishEvent(trx, { type: 'enrollment.changed', courseId })
		return courses.length > 0
	})
	return released ? null : checkoutOfHold(db, holdId)
}

/**
 * Before an unfinished account is started over by a new registration (docs/decisions/025): its
 * checkouts that could still be paid are expired at the provider, so nobody pays for a seat of an
 * account that changes hands. One that turns out to be paid already is left alone for fulfilment.
 */
export async function expireUnfinishedCheckouts(db: Kysely<Database>, payments: PaymentProvider, userId: string) {
	const pending = await db
		.selectFrom('registration_payments')
		.select('checkout_session_id')
		.where('user_id', '=', userId)
		.where('status', '=', 'pending')
		.where('checkout_session_id', 'is not', null)
		.$narrowType<{ checkout_session_id: string }>()
		.execute()
	for (const { checkout_session_id: sessionId } of pending) {
		try {
			await payments.expireCheckoutSession(sessionId)
			const session = await payments.retrieveCheckoutSession(sessionId)
			if (session?.paymentStatus !== 'paid') await expireCheckout(db, sessionId)
		} catch (error) {
			console.error('[payments] could not expire checkout', sessionId, error instanceof Error ? error.message : error)
		}
	}
}

export type CancelledCheckout = 'cancelled' | 'paid' | 'none'

/**
 * The buyer gives up their open checkout for the course (docs/decisions/040): the session is
 * expired at the provider, then its hold (and the code use it reserved) released. One that turns
 * out to be paid already is fulfilled instead. 'none' when no checkout is open.
 */
export async function cancelOpenCheckout(
	db: Kysely<Database>,
	payments: PaymentProvider,
	input: { userId: string; courseId: number },
): Promise<CancelledCheckout> {
	const sessionId = (await liveHoldOf(db, input))?.checkout_session_id
	if (!sessionId) return 'none'
	await payments.expireCheckoutSession(sessionId)
	const session = await payments.retrieveCheckoutSession(sessionId)
	if (session?.paymentStatus === 'paid') {
		await fulfil(db, payments, sessionId)
		return 'paid'
	}
	await expireCheckout(db, sessionId)
	return 'cancelled'
}

export type FulfilResult =
	| { status: 'enrolled'; userId: string; courseId: number | null; courseTitle: string }
	| { status: 'needs_refund'; userId: string | null; courseTitle: string }
	| { status: 'unpaid' }
	| { status: 'expired' }
	| { status: 'not-found' }

/**
 * Turns a paid checkout into an enrollment, exactly once however often and
 * however concurrently it is called (webhook deliveries, the completion page):
 * the payment row is locked and its state decides. A payment whose seat can
 * no longer be given is recorded as needing a refund, never enrolled over
 * capacity.
 */
export async function fulfil(db: Kysely<Database>, payments: PaymentProvider, sessionId: string): Promise<FulfilResult> {
	const session = await payments.retrieveCheckoutSession(sessionId)
	if (!session) return { status: 'not-found' }
	if (session.paymentStatus !== 'paid') {
		if (session.status !== 'expired') return { status: 'unpaid' }
		await expireCheckout(db, sessionId)
		return { status: 'expired' }
	}
	return transaction(db, async (trx) => {
		// The course first, as every seat decision takes it (docs/decisions/040); then the payment row.
		const courseId = Number(session.metadata.courseId)
		if (Number.isInteger(courseId)) await lockCourse(trx, courseId)
		const payment = await lockPayment(trx, payments, session)
		if (!payment) return { status: 'not-found' } as const
		if (payment.fulfilled_at) {
			return payment.status === 'paid' && payment.user_id
				? ({ status: 'enrolled', userId: payment.user_id, courseId: payment.course_id, courseTitle: payment.course_title } as const)
				: ({ status: 'needs_refund', userId: payment.user_id, courseTitle: payment.course_title } as const)
		}
		const now = new Date()
		try {
			if (!payment.user_id || !payment.course_id) throw new SeatUnavailableError('course-not-found')
			const { enrollmentId } = await enrollWithinCapacity(trx, {
				userId: payment.user_id,
				courseId: payment.course_id,
				consumeHold: true,
			})
			await trx
				.updateTable('registration_payments')
				.set({
					status: 'paid',
					enrollment_id: enrollmentId,
					payment_intent_id: session.paymentIntentId,
					amount_cents: session.amountTotal ?? payment.amount_cents,
					discount_cents: session.amountDiscount,
					fulfilled_at: now,
					updated_at: now,
				})
				.where('id', '=', payment.id)
				.execute()
			const plan = await activatePlanPurchase(trx, {
				checkoutSessionId: sessionId,
				enrollmentId,
				paymentIntentId: session.paymentIntentId,
				subscriptionId: session.subscriptionId,
				now,
			})
			if (payment.promotion_code_id !== null) {
				// A plan's code took its discount off the plan's total, not off this first payment.
				await redeemCheckoutUse(trx, {
					promotionCodeId: payment.promotion_code_id,
					checkoutSessionId: sessionId,
					userId: payment.user_id,
					courseId: payment.course_id,
					enrollmentId,
					priceCents: plan?.priceCents ?? session.amountSubtotal ?? payment.amount_cents + payment.discount_cents,
					discountCents: plan?.discountCents ?? session.amountDiscount,
				})
			}
			await confirmAddressPaidFrom(trx, { userId: payment.user_id, paidFrom: session.customerEmail ?? payment.customer_email })
			await sendEnrollmentReceipt(trx, { courseId: payment.course_id, enrollmentId })
			await publishEvent(trx, { type: 'enrollment.changed', courseId: payment.course_id, userId: payment.user_id })
			return { status: 'enrolled', userId: payment.user_id, courseId: payment.course_id, courseTitle: payment.course_title } as const
		} catch (error) {
			if (!(error instanceof SeatUnavailableError)) throw error
			console.warn(`[payments] paid checkout ${sessionId} could not be enrolled (${error.reason}); flagged for refund`)
			await trx
				.updateTable('registration_payments')
				.set({ status: 'needs_refund', payment_intent_id: session.paymentIntentId, fulfilled_at: now, updated_at: now })
				.where('id', '=', payment.id)
				.execute()
			await closePendingPlanPurchase(trx, { checkoutSessionId: sessionId, now })
			// The hold's code reservation goes with it: a payment to be refunded uses no code.
			for (const courseId of await releaseSeatHolds(trx, { checkoutSessionId: sessionId })) {
				await publishEvent(trx, { type: 'enrollment.changed', courseId })
			}
			return { status: 'needs_refund', userId: payment.user_id, courseTitle: payment.course_title } as const
		}
	})
}

/**
 * What a paid checkout charged, for the page the buyer returns to (issue 39 point 9): the amount paid and,
 * when a promotion code was used, the price before it and what it took off. Null for a checkout not paid.
 */
export async function paidCheckoutAmounts(db: Kysely<Database>, checkoutSessionId: string) {
	const row = await db
		.selectFrom('registration_payments')
		.select(['amount_cents', 'discount_cents', 'currency', 'promotion_code'])
		.where('checkout_session_id', '=', checkoutSessionId)
		.where('status', '=', 'paid')
		.executeTakeFirst()
	if (!row) return null
	return {
		currency: row.currency,
		paidCents: row.amount_cents,
		discount:
			row.promotion_code && row.discount_cents > 0
				? { code: row.promotion_code, priceCents: row.amount_cents + row.discount_cents, amountOffCents: row.discount_cents }
				: null,
	}
}

/**
 * The payment row of a paid session, locked for this transaction. Normally
 * written when the checkout opened; recreated from the session's metadata if
 * that write was lost, so a payment taken is never dropped.
 */
async function lockPayment(trx: Transaction<Database>, payments: PaymentProvider, session: CheckoutSession) {
	const courseId = Number(session.metadata.courseId)
	const userId = session.metadata.userId
	if (!userId || !Number.isInteger(courseId)) return null
	const [course, user] = await Promise.all([
		trx.selectFrom('courses').select('title').where('id', '=', courseId).executeTakeFirst(),
		trx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst(),
	])
	await trx
		.insertInto('registration_payments')
		.values({
			checkout_session_id: session.id,
			provider: payments.name,
			user_id: user ? userId : null,
			course_id: course ? courseId : null,
			course_title: course?.title ?? 'Unknown Course',
			customer_email: session.customerEmail ?? user?.email ?? '',
			amount_cents: session.amountTotal ?? 0,
			currency: session.currency ?? 'usd',
		})
		.onConflict((conflict) => conflict.column('checkout_session_id').doNothing())
		.execute()
	return trx.selectFrom('registration_payments').selectAll().where('checkout_session_id', '=', session.id).forUpdate().executeTakeFirst()
}

/** An expired or abandoned checkout: the pending payment is closed and its seat hold released. */
export async function expireCheckout(db: Kysely<Database>, sessionId: string) {
	await transaction(db, async (trx) => {
		const payment = await trx
			.selectFrom('registration_payments')
			.select('course_id')
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirst()
		if (payment?.course_id) await lockCourse(trx, payment.course_id)
		await trx
			.updateTable('registration_payments')
			.set({ status: 'expired', updated_at: new Date() })
			.where('checkout_session_id', '=', sessionId)
			.where('status', '=', 'pending')
			.execute()
		await closePendingPlanPurchase(trx, { checkoutSessionId: sessionId, now: new Date() })
		for (const courseId of await releaseSeatHolds(trx, { checkoutSessionId: sessionId })) {
			await publishEvent(trx, { type: 'enrollment.changed', courseId })
		}
	})
}

/**
 * Housekeeping: test checkouts whose time is up are expired like Stripe's,
 * and expired seat holds are deleted (they stopped counting when they expired;
 * the event lets open pages refresh their seat counts).
 */
export async function sweepExpiredCheckouts(db: Kysely<Database>, payments: PaymentProvider) {
	if (payments instanceof TestCheckoutPayments) {
		for (const sessionId of await payments.expireOverdueSessions()) await expireCheckout(db, sessionId)
	}
	const courses = await db.selectFrom('seat_holds').select('course_id').distinct().where('expires_at', '<=', new Date()).execute()
	// Even a DELETE of no rows fires the public-content trigger, which empties every process's page cache.
	if (courses.length > 0) await sweepExpiredSeatHolds(db)
	for (const { course_id: courseId } of courses) await publishEvent(db, { type: 'enrollment.changed', courseId })
}
