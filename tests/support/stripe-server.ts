import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

/**
 * A local stand-in for the parts of the Stripe HTTP API the app uses
 * (Checkout Sessions: create, retrieve, expire; Refunds: create, list; Coupons
 * and Promotion Codes: create, retrieve; for payment plans, Subscriptions: retrieve, cancel;
 * Subscription Schedules: create from a subscription, retrieve, update; Invoice
 * Payments: list; Billing Portal Configurations: list, create; Sessions: create), so that the real `stripe` SDK is
 * exercised over HTTP. It checks what Stripe checks and the app relies on: the
 * secret key, the expires_at window, idempotency keys, never refunding more than
 * was paid, one active promotion code per code, and a session's `discounts`
 * priced the way Stripe prices them. Idempotency keys behave as Stripe's: the same key
 * replays the first answer, while that first request is still running another one with it
 * gets 409 `idempotency_key_in_use` (the SDK retries it), and the same key with other
 * parameters is refused with `idempotency_error`.
 *
 * A subscription checkout, once paid, makes a customer, a subscription and its first invoice.
 * The stand-in's clock for a subscription is its billing periods: `billNext` makes the invoice
 * of the next period (dated then) at the amount its schedule's phase says, or ends the
 * subscription when a schedule with `end_behavior: 'cancel'` has run out, as Stripe would. A subscription
 * whose collection is paused (`pause_collection`, behaviour `keep_as_draft` only) bills its periods as
 * drafts that charge nobody (`auto_advance` off); finalizing one makes it open, to be paid as any other.
 */
export type StandInSession = {
	id: string
	object: 'checkout.session'
	mode: string
	status: 'open' | 'complete' | 'expired'
	payment_status: 'paid' | 'unpaid'
	amount_total: number
	amount_subtotal: number
	total_details: { amount_discount: number; amount_shipping: number; amount_tax: number }
	discounts: Array<{ coupon: string | null; promotion_code: string | null }>
	currency: string
	customer_email: string | null
	customer_details: { email: string | null } | null
	client_reference_id: string | null
	metadata: Record<string, string>
	expires_at: number
	success_url: string
	cancel_url: string
	url: string | null
	created: number
	/** Set when the session is paid, as Stripe does (a payment-mode session's). */
	payment_intent: string | null
	/** A subscription-mode session's, once paid. */
	subscription: string | null
	customer: string | null
	invoice: string | null
}

export type StandInPrice = {
	id: string
	object: 'price'
	currency: string
	product: string
	unit_amount: number
	recurring: { interval: string; interval_count: number } | null
	type: 'one_time' | 'recurring'
}

export type StandInSubscription = {
	id: string
	object: 'subscription'
	customer: string
	status: 'active' | 'past_due' | 'canceled'
	metadata: Record<string, string>
	description: string | null
	schedule: string | null
	items: { object: 'list'; data: Array<{ id: string; object: 'subscription_item'; price: StandInPrice; quantity: number }> }
	billing_cycle_anchor: number
	start_date: number
	ended_at: number | null
	latest_invoice: string | null
	pause_collection: { behavior: 'keep_as_draft'; resumes_at: number | null } | null
}

export type StandInSchedulePhase = {
	start_date: number
	end_date: number
	items: Array<{ price: string; quantity: number }>
	/** How many billing periods the phase lasts: the stand-in counts periods, not seconds. */
	periods: number
}

export type StandInSchedule = {
	id: string
	object: 'subscription_schedule'
	subscription: string
	customer: string
	end_behavior: 'release' | 'cancel'
	metadata: Record<string, string>
	phases: StandInSchedulePhase[]
	status: 'active' | 'released' | 'completed'
}

export type StandInInvoice = {
	id: string
	object: 'invoice'
	customer: string
	status: 'draft' | 'open' | 'paid'
	/** Off for the drafts of a paused collection: Stripe neither finalizes nor charges them on its own. */
	auto_advance: boolean
	amount_due: number
	amount_paid: number
	currency: string
	created: number
	attempt_count: number
	billing_reason: 'subscription_create' | 'subscription_cycle'
	parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: Record<string, string> } }
	lines: {
		object: 'list'
		has_more: false
		data: Array<{
			id: string
			object: 'line_item'
			amount: number
			period: { start: number; end: number }
			parent: { type: 'subscription_item_details' | 'invoice_item_details' }
		}>
	}
	/** Set when paid: the PaymentIntent behind it. */
	payment_intent: string | null
	/** The billing period (0 = the checkout's) the invoice bills. */
	period_index: number
}

export type StandInRefund = {
	id: string
	object: 'refund'
	amount: number
	currency: string
	payment_intent: string
	charge: string
	reason: string | null
	status: 'succeeded' | 'pending' | 'failed'
	metadata: Record<string, string>
	created: number
}

export type StandInCoupon = {
	id: string
	object: 'coupon'
	percent_off: number | null
	amount_off: number | null
	currency: string | null
	duration: string
	name: string | null
	metadata: Record<string, string>
	valid: boolean
	times_redeemed: number
	created: number
}

export type StandInPromotionCode = {
	id: string
	object: 'promotion_code'
	active: boolean
	code: string
	promotion: { type: 'coupon'; coupon: string }
	metadata: Record<string, string>
	max_redemptions: number | null
	expires_at: number | null
	times_redeemed: number
	created: number
}

export type RecordedRequest = {
	method: string
	path: string
	headers: http.IncomingHttpHeaders
	body: Record<string, unknown>
	/** The query string of a GET (list filters). */
	query: Record<string, string>
}

export type StripeStandIn = {
	/** The value for STRIPE_API_URL. */
	url: string
	secretKey: string
	webhookSecret: string
	sessions: Map<string, StandInSession>
	/** Every refund, in the order made, by API or in the "dashboard". */
	refunds: StandInRefund[]
	coupons: Map<string, StandInCoupon>
	promotionCodes: Map<string, StandInPromotionCode>
	subscriptions: Map<string, StandInSubscription>
	schedules: Map<string, StandInSchedule>
	invoices: Map<string, StandInInvoice>
	/** Billing portal sessions made, in order, with the configuration each was made with. */
	portalSessions: Array<{ id: string; customer: string; configuration: string | null; return_url: string | null; url: string }>
	portalConfigurations: Map<
		string,
		{
			id: string
			object: 'billing_portal.configuration'
			active: boolean
			is_default: boolean
			name: string | null
			metadata: Record<string, string>
			features: Record<string, { enabled: string }>
		}
	>
	requests: RecordedRequest[]
	/** The customer pays on the hosted page. */
	pay: (sessionId: string) => StandInSession
	/**
	 * The subscription's next billing period begins: its invoice is made at the schedule's amount and
	 * charged ('paid' or 'failed', leaving it open), or a draft while its collection is paused; null when
	 * the schedule has ended the subscription.
	 */
	billNext: (subscriptionId: string, outcome: 'paid' | 'failed') => StandInInvoice | null
	/** A retry of an open invoice (after the card was updated): it is paid now. */
	payInvoice: (invoiceId: string) => StandInInvoice
	/** Any object as a signed event of that type, as Stripe would post it. */
	event: (type: string, object: unknown) => { body: string; signature: string }
	/** A signed webhook delivery about the session (its charge for charge.refunded), as Stripe would post it. */
	webhook: (
		type: 'checkout.session.completed' | 'checkout.session.expired' | 'charge.refunded',
		sessionId: string,
	) => { body: string; signature: string }
	/** A refund made by hand in the Stripe dashboard: no API request, only the later webhook tells. */
	refundInDashboard: (sessionId: string, amount?: number) => StandInRefund
	/** The next refund creation fails on the wire (the connection drops) after the refund was made. */
	dropNextRefundAnswer: () => void
	/** The next session creation is refused, as Stripe refuses a request it cannot serve. */
	refuseNextCreate: () => void
	/**
	 * Every creation (sessions, coupons, promotion codes) answers after this many milliseconds, as
	 * Stripe's API takes a few hundred: the window in which a buyer's second submit arrives.
	 */
	setCreateLatency: (milliseconds: number) => void
	stop: () => Promise<void>
}

/** Parses Stripe's form encoding (`line_items[0][price_data][currency]=usd`) into nested objects. */
export function parseStripeForm(text: string) {
	const root: Record<string, unknown> = {}
	for (const [key, value] of new URLSearchParams(text)) {
		const parts = key.replace(/\]/g, '').split('[')
		let node = root
		parts.forEach((part, index) => {
			if (index === parts.length - 1) {
				node[part] = value
				return
			}
			node[part] ??= {}
			node = node[part] as Record<string, unknown>
		})
	}
	return root
}

type StandInLineItem = { quantity: string; price_data: { unit_amount: string; currency: string; recurring?: { interval: string } } }

function stripeError(response: http.ServerResponse, status: number, message: string, code?: string): undefined {
	response.writeHead(status, { 'Content-Type': 'application/json' })
	response.end(JSON.stringify({ error: { type: 'invalid_request_error', message, code } }))
}

/** One charge per PaymentIntent, named after it. */
function chargeOf(paymentIntent: string) {
	return `ch_${paymentIntent.slice('pi_'.length)}`
}

function json(response: http.ServerResponse, body: unknown) {
	response.writeHead(200, { 'Content-Type': 'application/json' })
	response.end(JSON.stringify(body))
}

export async function startStripeServer(): Promise<StripeStandIn> {
	const secretKey = `sk_test_${randomBytes(12).toString('hex')}`
	const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`
	const sessions = new Map<string, StandInSession>()
	const coupons = new Map<string, StandInCoupon>()
	const promotionCodes = new Map<string, StandInPromotionCode>()
	const prices = new Map<string, StandInPrice>()
	const customers = new Map<string, { id: string; object: 'customer'; email: string | null }>()
	const subscriptions = new Map<string, StandInSubscription>()
	const schedules = new Map<string, StandInSchedule>()
	const invoices = new Map<string, StandInInvoice>()
	const portalSessions: StripeStandIn['portalSessions'] = []
	const portalConfigurations: StripeStandIn['portalConfigurations'] = new Map()
	/** What a subscription checkout sold, kept until it is paid. */
	const subscriptionCheckouts = new Map<
		string,
		{
			items: Array<{ price: StandInPrice; quantity: number }>
			anchor: number | null
			metadata: Record<string, string>
			description: string | null
		}
	>()
	const requests: RecordedRequest[] = []
	const refunds: StandInRefund[] = []
	const idempotentRefunds = new Map<string, StandInRefund>()
	/** Stripe replays the first answer to a key for the same endpoint; the body it was first sent with is kept to compare. */
	const idempotent = new Map<string, { id: string; body: string }>()
	/** Keys whose first request is still being served. */
	const inFlight = new Set<string>()
	let createLatency = 0
	let refuseCreate = false
	let dropRefundAnswer = false

	/** A paid payment: a payment-mode session's, or a subscription invoice's. */
	function paymentOf(paymentIntent: string) {
		const session = [...sessions.values()].find((one) => one.payment_intent === paymentIntent && one.payment_status === 'paid')
		if (session) return { amount: session.amount_total, currency: session.currency }
		const invoice = [...invoices.values()].find((one) => one.payment_intent === paymentIntent && one.status === 'paid')
		return invoice ? { amount: invoice.amount_paid, currency: invoice.currency } : null
	}

	function refundedOf(paymentIntent: string) {
		return refunds
			.filter((refund) => refund.payment_intent === paymentIntent && refund.status !== 'failed')
			.reduce((sum, refund) => sum + refund.amount, 0)
	}

	/** Stripe's rules: a paid payment, an amount no larger than what is left of it (all of it when unset). */
	function makeRefund(paymentIntent: string, body: Record<string, unknown>): StandInRefund | { error: string; code: string } {
		const payment = paymentOf(paymentIntent)
		if (!payment) return { error: `No such payment_intent: '${paymentIntent}'`, code: 'resource_missing' }
		const left = payment.amount - refundedOf(paymentIntent)
		if (left <= 0) return { error: `Charge ${chargeOf(paymentIntent)} has already been refunded.`, code: 'charge_already_refunded' }
		const amount = body.amount === undefined ? left : Number(body.amount)
		if (!Number.isInteger(amount) || amount <= 0) return { error: 'Invalid positive integer', code: 'parameter_invalid_integer' }
		if (amount > left) {
			return {
				error: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
				code: 'amount_too_large',
			}
		}
		const refund: StandInRefund = {
			id: `re_${randomBytes(12).toString('hex')}`,
			object: 'refund',
			amount,
			currency: payment.currency,
			payment_intent: paymentIntent,
			charge: chargeOf(paymentIntent),
			reason: (body.reason as string | undefined) ?? null,
			status: 'succeeded',
			metadata: (body.metadata ?? {}) as Record<string, string>,
			created: Math.floor(Date.now() / 1000),
		}
		refunds.push(refund)
		return refund
	}

	function handleRefunds(request: http.IncomingMessage, url: URL, body: Record<string, unknown>, response: http.ServerResponse) {
		if (request.method === 'GET') {
			const paymentIntent = url.searchParams.get('payment_intent')
			const data = refunds.filter((refund) => !paymentIntent || refund.payment_intent === paymentIntent).reverse()
			return json(response, { object: 'list', url: '/v1/refunds', has_more: false, data })
		}
		if (request.method !== 'POST') return stripeError(response, 405, 'Method not allowed.')
		const key = request.headers['idempotency-key']
		const cached = typeof key === 'string' ? idempotentRefunds.get(key) : undefined
		if (cached) return json(response, cached)
		if (typeof body.payment_intent !== 'string') return stripeError(response, 400, 'Missing required param: payment_intent.')
		const made = makeRefund(body.payment_intent, body)
		if ('error' in made) return stripeError(response, 400, made.error, made.code)
		if (typeof key === 'string') idempotentRefunds.set(key, made)
		if (dropRefundAnswer) {
			dropRefundAnswer = false
			response.socket?.destroy()
			return
		}
		return json(response, made)
	}

	function createCoupon(body: Record<string, unknown>, response: http.ServerResponse) {
		const percentOff = body.percent_off === undefined ? null : Number(body.percent_off)
		const amountOff = body.amount_off === undefined ? null : Number(body.amount_off)
		if ((percentOff === null) === (amountOff === null)) {
			return stripeError(response, 400, 'You must pass exactly one of `percent_off` or `amount_off`.')
		}
		if (percentOff !== null && !(percentOff > 0 && percentOff <= 100)) return stripeError(response, 400, 'Invalid percent_off.')
		if (amountOff !== null && !(Number.isInteger(amountOff) && amountOff > 0 && body.currency)) {
			return stripeError(response, 400, '`amount_off` needs a positive integer and a `currency`.')
		}
		const coupon: StandInCoupon = {
			id: randomBytes(6).toString('hex'),
			object: 'coupon',
			percent_off: percentOff,
			amount_off: amountOff,
			currency: (body.currency as string | undefined) ?? null,
			duration: String(body.duration ?? 'once'),
			name: (body.name as string | undefined) ?? null,
			metadata: (body.metadata ?? {}) as Record<string, string>,
			valid: true,
			times_redeemed: 0,
			created: Math.floor(Date.now() / 1000),
		}
		coupons.set(coupon.id, coupon)
		return coupon
	}

	function createPromotionCode(body: Record<string, unknown>, response: http.ServerResponse) {
		const promotion = (body.promotion ?? {}) as { type?: string; coupon?: string }
		if (promotion.type !== 'coupon' || !promotion.coupon || !coupons.has(promotion.coupon)) {
			return stripeError(response, 400, `No such coupon: '${promotion.coupon}'`, 'resource_missing')
		}
		const code = String(body.code ?? randomBytes(4).toString('hex').toUpperCase())
		if ([...promotionCodes.values()].some((existing) => existing.active && existing.code.toUpperCase() === code.toUpperCase())) {
			return stripeError(response, 400, 'An active promotion code with `code` already exists.', 'duplicate_promotion_code')
		}
		const promotionCode: StandInPromotionCode = {
			id: `promo_${randomBytes(12).toString('hex')}`,
			object: 'promotion_code',
			active: body.active !== 'false',
			code,
			promotion: { type: 'coupon', coupon: promotion.coupon },
			metadata: (body.metadata ?? {}) as Record<string, string>,
			max_redemptions: body.max_redemptions === undefined ? null : Number(body.max_redemptions),
			expires_at: body.expires_at === undefined ? null : Number(body.expires_at),
			times_redeemed: 0,
			created: Math.floor(Date.now() / 1000),
		}
		promotionCodes.set(promotionCode.id, promotionCode)
		return promotionCode
	}

	/** The coupon a session's `discounts` names, checked as Stripe checks it; a string is the error. */
	function discountOf(body: Record<string, unknown>): { coupon: StandInCoupon; promotionCode: string | null } | string | null {
		const discounts = Object.values((body.discounts ?? {}) as Record<string, { coupon?: string; promotion_code?: string }>)
		if (discounts.length === 0) return null
		if (discounts.length > 1) return 'You may only specify one discount.'
		const [discount] = discounts
		if (discount?.promotion_code) {
			const promotionCode = promotionCodes.get(discount.promotion_code)
			if (!promotionCode) return `No such promotion code: '${discount.promotion_code}'`
			if (!promotionCode.active) return 'This promotion code is inactive.'
			if (promotionCode.expires_at !== null && promotionCode.expires_at <= Date.now() / 1000) return 'This promotion code has expired.'
			if (promotionCode.max_redemptions !== null && promotionCode.times_redeemed >= promotionCode.max_redemptions) {
				return 'This promotion code has been used up.'
			}
			return { coupon: coupons.get(promotionCode.promotion.coupon)!, promotionCode: promotionCode.id }
		}
		const coupon = discount?.coupon ? coupons.get(discount.coupon) : undefined
		return coupon ? { coupon, promotionCode: null } : `No such coupon: '${discount?.coupon}'`
	}

	function createSession(body: Record<string, unknown>, response: http.ServerResponse) {
		if (refuseCreate) {
			refuseCreate = false
			return stripeError(response, 400, 'The stand-in refused this request on purpose.')
		}
		const now = Math.floor(Date.now() / 1000)
		const expiresAt = Number(body.expires_at ?? now + 24 * 3600)
		if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
			return stripeError(response, 400, 'The `expires_at` timestamp must be between 30 minutes and 24 hours from now.')
		}
		if (!body.success_url || (body.mode !== 'payment' && body.mode !== 'subscription')) {
			return stripeError(response, 400, 'Missing required parameters.')
		}
		const items = Object.values((body.line_items ?? {}) as Record<string, StandInLineItem>)
		const subscription = body.mode === 'subscription' ? subscriptionCheckout(body, items) : null
		if (typeof subscription === 'string') return stripeError(response, 400, subscription)
		const amount = subscription?.amount ?? items.reduce((sum, item) => sum + Number(item.price_data.unit_amount) * Number(item.quantity), 0)
		const discount = discountOf(body)
		if (typeof discount === 'string') return stripeError(response, 400, discount)
		const coupon = discount?.coupon
		const amountDiscount = !coupon
			? 0
			: coupon.percent_off !== null
				? Math.min(amount, Math.round((amount * coupon.percent_off) / 100))
				: Math.min(amount, coupon.amount_off ?? 0)
		const id = `cs_test_${randomBytes(20).toString('hex')}`
		const session: StandInSession = {
			id,
			object: 'checkout.session',
			mode: String(body.mode),
			status: 'open',
			payment_status: 'unpaid',
			amount_total: amount - amountDiscount,
			amount_subtotal: amount,
			total_details: { amount_discount: amountDiscount, amount_shipping: 0, amount_tax: 0 },
			discounts: discount ? [{ coupon: discount.coupon.id, promotion_code: discount.promotionCode }] : [],
			currency: items[0]?.price_data.currency ?? 'usd',
			customer_email: (body.customer_email as string | undefined) ?? null,
			customer_details: null,
			client_reference_id: (body.client_reference_id as string | undefined) ?? null,
			metadata: (body.metadata ?? {}) as Record<string, string>,
			expires_at: expiresAt,
			success_url: String(body.success_url).replace('{CHECKOUT_SESSION_ID}', id),
			cancel_url: String(body.cancel_url ?? ''),
			url: `https://checkout.stripe.com/c/pay/${id}`,
			created: now,
			payment_intent: null,
			subscription: null,
			customer: null,
			invoice: null,
		}
		sessions.set(id, session)
		if (subscription) subscriptionCheckouts.set(id, subscription.sold)
		return session
	}

	function makePrice(data: { currency: string; product: string; unit_amount: number; recurring: { interval: string } | null }) {
		const price: StandInPrice = {
			id: `price_${randomBytes(12).toString('hex')}`,
			object: 'price',
			currency: data.currency,
			product: data.product,
			unit_amount: data.unit_amount,
			recurring: data.recurring ? { interval: data.recurring.interval, interval_count: 1 } : null,
			type: data.recurring ? 'recurring' : 'one_time',
		}
		prices.set(price.id, price)
		return price
	}

	/**
	 * A subscription checkout's items, checked as Stripe checks them (a recurring item, no
	 * `payment_intent_data`, an anchor in the future), and what its first invoice charges: every
	 * one-off item, and the recurring ones unless the anchor delays them without proration.
	 */
	function subscriptionCheckout(body: Record<string, unknown>, items: StandInLineItem[]) {
		if (body.payment_intent_data) return 'You can not pass `payment_intent_data` in `subscription` mode.'
		if (!items.some((item) => item.price_data.recurring)) return 'You must provide at least one recurring price in `subscription` mode.'
		const data = (body.subscription_data ?? {}) as {
			billing_cycle_anchor?: string
			proration_behavior?: string
			metadata?: Record<string, string>
			description?: string
		}
		const anchor = data.billing_cycle_anchor === undefined ? null : Number(data.billing_cycle_anchor)
		if (anchor !== null && anchor <= Date.now() / 1000) return '`billing_cycle_anchor` must be in the future.'
		const deferred = anchor !== null && data.proration_behavior === 'none'
		const sold = items.map((item) => ({
			quantity: Number(item.quantity),
			price: makePrice({
				currency: item.price_data.currency,
				product: `prod_${randomBytes(8).toString('hex')}`,
				unit_amount: Number(item.price_data.unit_amount),
				recurring: item.price_data.recurring ?? null,
			}),
		}))
		const amount = sold
			.filter((item) => !(deferred && item.price.recurring))
			.reduce((sum, item) => sum + item.price.unit_amount * item.quantity, 0)
		return { amount, sold: { items: sold, anchor, metadata: data.metadata ?? {}, description: data.description ?? null } }
	}

	/** The same instant `months` calendar months later in UTC, on the month's last day when it is shorter. */
	function monthsLater(seconds: number, months: number) {
		const instant = new Date(seconds * 1000)
		const later = new Date(instant)
		later.setUTCDate(1)
		later.setUTCMonth(later.getUTCMonth() + months)
		const lastDate = new Date(Date.UTC(later.getUTCFullYear(), later.getUTCMonth() + 1, 0)).getUTCDate()
		later.setUTCDate(Math.min(instant.getUTCDate(), lastDate))
		return Math.floor(later.getTime() / 1000)
	}

	/** Billing period `index` of a subscription: 0 from its start to its anchor, then a month each. */
	function periodOf(subscription: StandInSubscription, index: number) {
		if (index === 0)
			return {
				start: subscription.start_date,
				end:
					subscription.billing_cycle_anchor === subscription.start_date
						? monthsLater(subscription.start_date, 1)
						: subscription.billing_cycle_anchor,
			}
		const base = subscription.billing_cycle_anchor === subscription.start_date ? index : index - 1
		return { start: monthsLater(subscription.billing_cycle_anchor, base), end: monthsLater(subscription.billing_cycle_anchor, base + 1) }
	}

	function makeInvoice(
		subscription: StandInSubscription,
		index: number,
		lines: Array<{ amount: number; subscriptionItem: boolean }>,
		outcome: 'paid' | 'failed' | 'draft',
	) {
		const period = periodOf(subscription, index)
		const amount = lines.reduce((sum, line) => sum + line.amount, 0)
		const invoice: StandInInvoice = {
			id: `in_${randomBytes(12).toString('hex')}`,
			object: 'invoice',
			customer: subscription.customer,
			status: outcome === 'failed' ? 'open' : outcome,
			auto_advance: outcome !== 'draft',
			amount_due: amount,
			amount_paid: outcome === 'paid' ? amount : 0,
			currency: subscription.items.data[0]!.price.currency,
			created: period.start,
			attempt_count: 1,
			billing_reason: index === 0 ? 'subscription_create' : 'subscription_cycle',
			parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
			lines: {
				object: 'list',
				has_more: false,
				data: lines.map((line) => ({
					id: `il_${randomBytes(8).toString('hex')}`,
					object: 'line_item',
					amount: line.amount,
					period: line.subscriptionItem ? period : { start: period.start, end: period.start },
					parent: { type: line.subscriptionItem ? 'subscription_item_details' : 'invoice_item_details' },
				})),
			},
			payment_intent: outcome === 'paid' ? `pi_${randomBytes(12).toString('hex')}` : null,
			period_index: index,
		}
		invoices.set(invoice.id, invoice)
		subscription.latest_invoice = invoice.id
		if (outcome !== 'draft') subscription.status = outcome === 'paid' ? 'active' : 'past_due'
		return invoice
	}

	/** The price a subscription bills in period `index`: its schedule's phase then, or its own item; null past a schedule's end. */
	function priceFor(subscription: StandInSubscription, index: number) {
		const schedule = subscription.schedule ? schedules.get(subscription.schedule) : undefined
		if (!schedule) return subscription.items.data[0]!.price
		let first = 0
		for (const phase of schedule.phases) {
			if (index < first + phase.periods) return prices.get(phase.items[0]!.price)!
			first += phase.periods
		}
		return schedule.end_behavior === 'cancel' ? null : subscription.items.data[0]!.price
	}

	/** A schedule's phases as sent on update: each later phase's `duration` in months, or its `end_date`. */
	function phasesOf(body: Record<string, unknown>, subscription: StandInSubscription): StandInSchedulePhase[] | string {
		type Sent = {
			start_date?: string
			end_date?: string
			duration?: { interval: string; interval_count?: string }
			items?: Record<
				string,
				{
					price?: string
					quantity?: string
					price_data?: { currency: string; product: string; unit_amount: string; recurring?: { interval: string } }
				}
			>
		}
		const sent = Object.values((body.phases ?? {}) as Record<string, Sent>)
		const phases: StandInSchedulePhase[] = []
		for (const [index, phase] of sent.entries()) {
			if (phase.duration && phase.end_date) return 'You may only specify one of `end_date` and `duration`.'
			const start = index === 0 ? Number(phase.start_date) : phases[index - 1]!.end_date
			if (index === 0 && phase.start_date === undefined) return 'The first phase must have a `start_date`.'
			let periods = 1
			let end: number
			if (phase.duration) {
				if (phase.duration.interval !== 'month') return 'The stand-in bills monthly phases only.'
				periods = Number(phase.duration.interval_count ?? 1)
				end = monthsLater(start, periods)
			} else if (phase.end_date) {
				end = Number(phase.end_date)
			} else {
				return 'Each phase needs an `end_date` or a `duration`, except the last.'
			}
			const items = Object.values(phase.items ?? {}).map((item) => {
				if (item.price) return { price: item.price, quantity: Number(item.quantity ?? 1) }
				const data = item.price_data!
				if (!data.product) return null
				const price = makePrice({
					currency: data.currency,
					product: data.product,
					unit_amount: Number(data.unit_amount),
					recurring: data.recurring ?? null,
				})
				return { price: price.id, quantity: Number(item.quantity ?? 1) }
			})
			if (items.length === 0 || items.some((item) => !item || !prices.get(item.price)?.recurring)) {
				return 'Each phase needs items with a recurring `price` or `price_data` naming a `product`.'
			}
			phases.push({ start_date: start, end_date: end, items: items as StandInSchedulePhase['items'], periods })
		}
		if (phases.length === 0 || phases[0]!.start_date !== schedules.get(subscription.schedule!)?.phases[0]?.start_date) {
			return 'The current phase cannot be changed in the past.'
		}
		return phases
	}

	/** A paid subscription checkout: the customer, the subscription and its first invoice, paid. */
	function startSubscription(session: StandInSession, sold: NonNullable<ReturnType<typeof subscriptionCheckouts.get>>) {
		const now = Math.floor(Date.now() / 1000)
		const customer = { id: `cus_${randomBytes(12).toString('hex')}`, object: 'customer' as const, email: session.customer_email }
		customers.set(customer.id, customer)
		const recurring = sold.items.find((item) => item.price.recurring)!
		const subscription: StandInSubscription = {
			id: `sub_${randomBytes(12).toString('hex')}`,
			object: 'subscription',
			customer: customer.id,
			status: 'active',
			metadata: sold.metadata,
			description: sold.description,
			schedule: null,
			items: {
				object: 'list',
				data: [
					{ id: `si_${randomBytes(8).toString('hex')}`, object: 'subscription_item', price: recurring.price, quantity: recurring.quantity },
				],
			},
			billing_cycle_anchor: sold.anchor ?? now,
			start_date: now,
			ended_at: null,
			latest_invoice: null,
			pause_collection: null,
		}
		subscriptions.set(subscription.id, subscription)
		const deferred = sold.anchor !== null
		const invoice = makeInvoice(
			subscription,
			0,
			sold.items.map((item) => ({
				amount: deferred && item.price.recurring ? 0 : item.price.unit_amount * item.quantity,
				subscriptionItem: Boolean(item.price.recurring),
			})),
			'paid',
		)
		session.subscription = subscription.id
		session.customer = customer.id
		session.invoice = invoice.id
	}

	/** Subscriptions, their schedules, invoice payments and portal sessions; false when the path is none of them. */
	function handleBilling(
		request: http.IncomingMessage,
		url: URL,
		body: Record<string, unknown>,
		response: http.ServerResponse,
		replay: (create: () => { id: string } | undefined, find: (id: string) => unknown) => Promise<void>,
	) {
		const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname)
		if (subscriptionPath) {
			const subscription = subscriptions.get(decodeURIComponent(subscriptionPath[1]!))
			if (!subscription) return stripeError(response, 404, `No such subscription: '${subscriptionPath[1]}'`, 'resource_missing')
			if (request.method === 'GET') return json(response, subscription)
			if (request.method === 'POST') {
				if (subscription.status === 'canceled')
					return stripeError(response, 400, 'A canceled subscription can only update its cancellation details.')
				if (body.pause_collection === '') subscription.pause_collection = null
				else if (body.pause_collection !== undefined) {
					const pause = body.pause_collection as { behavior?: string; resumes_at?: string }
					if (pause.behavior !== 'keep_as_draft')
						return stripeError(response, 400, 'The stand-in pauses collection with keep_as_draft only.')
					subscription.pause_collection = { behavior: 'keep_as_draft', resumes_at: pause.resumes_at ? Number(pause.resumes_at) : null }
				}
				return json(response, subscription)
			}
			if (request.method !== 'DELETE') return stripeError(response, 405, 'Method not allowed.')
			if (subscription.status === 'canceled') {
				return stripeError(response, 400, `No such subscription: '${subscription.id}'`, 'resource_missing')
			}
			subscription.status = 'canceled'
			subscription.ended_at = Math.floor(Date.now() / 1000)
			return json(response, subscription)
		}
		const schedulePath = /^\/v1\/subscription_schedules(?:\/([^/]+))?$/.exec(url.pathname)
		if (schedulePath) {
			const [, scheduleId] = schedulePath
			if (!scheduleId && request.method === 'POST') {
				return replay(
					() => {
						const subscription = subscriptions.get(String(body.from_subscription))
						if (!subscription) return stripeError(response, 400, `No such subscription: '${body.from_subscription}'`, 'resource_missing')
						if (subscription.schedule) {
							return stripeError(response, 400, `Subscription ${subscription.id} already has a schedule attached to it.`)
						}
						const period = periodOf(subscription, 0)
						const schedule: StandInSchedule = {
							id: `sub_sched_${randomBytes(12).toString('hex')}`,
							object: 'subscription_schedule',
							subscription: subscription.id,
							customer: subscription.customer,
							end_behavior: 'release',
							metadata: {},
							phases: [
								{
									start_date: period.start,
									end_date: period.end,
									items: [{ price: subscription.items.data[0]!.price.id, quantity: 1 }],
									periods: 1,
								},
							],
							status: 'active',
						}
						schedules.set(schedule.id, schedule)
						subscription.schedule = schedule.id
						return schedule
					},
					(found) => schedules.get(found),
				)
			}
			const schedule = scheduleId ? schedules.get(decodeURIComponent(scheduleId)) : undefined
			if (!schedule) return stripeError(response, 404, `No such subscription_schedule: '${scheduleId}'`, 'resource_missing')
			if (request.method === 'GET') return json(response, schedule)
			return replay(
				() => {
					const phases = body.phases === undefined ? schedule.phases : phasesOf(body, subscriptions.get(schedule.subscription)!)
					if (typeof phases === 'string') return stripeError(response, 400, phases)
					if (body.end_behavior !== undefined && body.end_behavior !== 'release' && body.end_behavior !== 'cancel') {
						return stripeError(response, 400, 'Invalid end_behavior.')
					}
					schedule.phases = phases
					schedule.end_behavior = (body.end_behavior as StandInSchedule['end_behavior'] | undefined) ?? schedule.end_behavior
					schedule.metadata = { ...schedule.metadata, ...((body.metadata ?? {}) as Record<string, string>) }
					return schedule
				},
				(found) => schedules.get(found),
			)
		}
		if (url.pathname === '/v1/invoices' && request.method === 'GET') {
			const subscription = url.searchParams.get('subscription')
			const status = url.searchParams.get('status')
			const data = [...invoices.values()]
				.filter(
					(invoice) =>
						(!subscription || invoice.parent.subscription_details.subscription === subscription) && (!status || invoice.status === status),
				)
				.reverse()
			return json(response, { object: 'list', url: '/v1/invoices', has_more: false, data })
		}
		const invoicePath = /^\/v1\/invoices\/([^/]+)$/.exec(url.pathname)
		if (invoicePath && request.method === 'GET') {
			const invoice = invoices.get(decodeURIComponent(invoicePath[1]!))
			if (!invoice) return stripeError(response, 404, `No such invoice: '${invoicePath[1]}'`, 'resource_missing')
			return json(response, invoice)
		}
		const finalizePath = /^\/v1\/invoices\/([^/]+)\/finalize$/.exec(url.pathname)
		if (finalizePath && request.method === 'POST') {
			const invoice = invoices.get(decodeURIComponent(finalizePath[1]!))
			if (!invoice) return stripeError(response, 404, `No such invoice: '${finalizePath[1]}'`, 'resource_missing')
			if (invoice.status !== 'draft') return stripeError(response, 400, 'This invoice is already finalized.', 'invoice_not_editable')
			invoice.status = 'open'
			invoice.auto_advance = body.auto_advance === undefined ? invoice.auto_advance : body.auto_advance === 'true'
			return json(response, invoice)
		}
		if (url.pathname === '/v1/invoice_payments' && request.method === 'GET') {
			const invoice = invoices.get(url.searchParams.get('invoice') ?? '')
			const status = url.searchParams.get('status')
			const data =
				invoice?.payment_intent && (!status || status === 'paid')
					? [
							{
								id: `inpay_${invoice.id.slice('in_'.length)}`,
								object: 'invoice_payment',
								invoice: invoice.id,
								amount_paid: invoice.amount_paid,
								status: 'paid',
								payment: { type: 'payment_intent', payment_intent: invoice.payment_intent },
							},
						]
					: []
			return json(response, { object: 'list', url: '/v1/invoice_payments', has_more: false, data })
		}
		if (url.pathname === '/v1/billing_portal/configurations') {
			if (request.method === 'GET') {
				const active = url.searchParams.get('active')
				const data = [...portalConfigurations.values()].filter(
					(configuration) => active === null || String(configuration.active) === active,
				)
				return json(response, { object: 'list', url: '/v1/billing_portal/configurations', has_more: false, data })
			}
			return replay(
				() => {
					if (!body.features) return stripeError(response, 400, 'Missing required param: features.')
					const configuration = {
						id: `bpc_${randomBytes(12).toString('hex')}`,
						object: 'billing_portal.configuration' as const,
						active: true,
						is_default: false,
						name: (body.name as string | undefined) ?? null,
						metadata: (body.metadata ?? {}) as Record<string, string>,
						features: body.features as Record<string, { enabled: string }>,
					}
					portalConfigurations.set(configuration.id, configuration)
					return configuration
				},
				(found) => portalConfigurations.get(found),
			)
		}
		if (url.pathname === '/v1/billing_portal/sessions' && request.method === 'POST') {
			const customer = customers.get(String(body.customer))
			if (!customer) return stripeError(response, 400, `No such customer: '${body.customer}'`, 'resource_missing')
			const configuration = body.configuration === undefined ? null : portalConfigurations.get(String(body.configuration))
			if (configuration === undefined)
				return stripeError(response, 400, `No such configuration: '${body.configuration}'`, 'resource_missing')
			const id = `bps_${randomBytes(12).toString('hex')}`
			const portal = {
				id,
				customer: customer.id,
				configuration: configuration?.id ?? null,
				return_url: (body.return_url as string | undefined) ?? null,
				url: `https://billing.stripe.com/p/session/${id}`,
			}
			portalSessions.push(portal)
			return json(response, { object: 'billing_portal.session', livemode: false, created: Math.floor(Date.now() / 1000), ...portal })
		}
		return false
	}

	const server = http.createServer((request, response) => {
		let text = ''
		request.setEncoding('utf8')
		request.on('data', (chunk: string) => (text += chunk))
		request.on('end', () => {
			const url = new URL(request.url ?? '/', 'http://localhost')
			const body = parseStripeForm(text)
			requests.push({
				method: request.method ?? 'GET',
				path: url.pathname,
				headers: request.headers,
				body,
				query: Object.fromEntries(url.searchParams),
			})
			if (request.headers.authorization !== `Bearer ${secretKey}`) {
				return stripeError(response, 401, 'Invalid API Key provided.')
			}
			if (url.pathname === '/v1/refunds') return handleRefunds(request, url, body, response)
			const key = request.headers['idempotency-key']
			const replay = async (create: () => { id: string } | undefined, find: (id: string) => unknown) => {
				const slot = typeof key === 'string' ? `${url.pathname} ${key}` : null
				const cached = slot ? idempotent.get(slot) : undefined
				if (cached) {
					if (cached.body !== text) {
						return stripeError(
							response,
							400,
							'Keys for idempotent requests can only be used with the same parameters they were first used with.',
							'idempotency_error',
						)
					}
					return json(response, find(cached.id))
				}
				if (slot && inFlight.has(slot)) {
					response.writeHead(409, { 'Content-Type': 'application/json' })
					response.end(
						JSON.stringify({
							error: {
								type: 'idempotency_error',
								code: 'idempotency_key_in_use',
								message: 'There is currently another in-progress request using this Idempotent Key.',
							},
						}),
					)
					return
				}
				if (slot) inFlight.add(slot)
				try {
					if (createLatency > 0) await new Promise((resolve) => setTimeout(resolve, createLatency))
					const created = create()
					if (!created) return
					if (slot) idempotent.set(slot, { id: created.id, body: text })
					return json(response, created)
				} finally {
					if (slot) inFlight.delete(slot)
				}
			}
			const billing = handleBilling(request, url, body, response, replay)
			if (billing !== false) return billing
			const other = /^\/v1\/(coupons|promotion_codes)(?:\/([^/]+))?$/.exec(url.pathname)
			if (other) {
				const [, kind, otherId] = other
				const store: Map<string, unknown> = kind === 'coupons' ? coupons : promotionCodes
				if (!otherId && request.method === 'POST') {
					return replay(
						() => (kind === 'coupons' ? createCoupon(body, response) : createPromotionCode(body, response)),
						(found) => store.get(found),
					)
				}
				const found = otherId ? store.get(decodeURIComponent(otherId)) : undefined
				if (!found) return stripeError(response, 404, `No such ${kind}: '${otherId}'`, 'resource_missing')
				if (request.method === 'GET') return json(response, found)
				return stripeError(response, 405, 'Method not allowed.')
			}
			const match = /^\/v1\/checkout\/sessions(?:\/([^/]+))?(\/expire)?$/.exec(url.pathname)
			if (!match) return stripeError(response, 404, 'Unrecognized request URL.')
			const [, id, expire] = match
			if (!id && request.method === 'POST') {
				return replay(
					() => createSession(body, response),
					(found) => sessions.get(found),
				)
			}
			const session = id ? sessions.get(decodeURIComponent(id)) : undefined
			if (!session) return stripeError(response, 404, `No such checkout.session: '${id}'`, 'resource_missing')
			if (expire && request.method === 'POST') {
				if (session.status !== 'open') return stripeError(response, 400, 'Only open sessions can be expired.')
				session.status = 'expired'
				session.url = null
				return json(response, session)
			}
			if (request.method === 'GET' && !expire) return json(response, session)
			return stripeError(response, 405, 'Method not allowed.')
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.address() as AddressInfo
	const signer = new Stripe(secretKey)

	function signedEvent(type: string, object: unknown) {
		const body = JSON.stringify({
			id: `evt_${randomBytes(12).toString('hex')}`,
			object: 'event',
			api_version: Stripe.API_VERSION,
			created: Math.floor(Date.now() / 1000),
			type,
			livemode: false,
			pending_webhooks: 1,
			request: { id: null, idempotency_key: null },
			data: { object },
		})
		return { body, signature: signer.webhooks.generateTestHeaderString({ payload: body, secret: webhookSecret }) }
	}

	return {
		url: `http://127.0.0.1:${port}`,
		secretKey,
		webhookSecret,
		sessions,
		refunds,
		coupons,
		promotionCodes,
		subscriptions,
		schedules,
		invoices,
		portalSessions,
		portalConfigurations,
		requests,
		pay(sessionId) {
			const session = sessions.get(sessionId)
			if (session?.status !== 'open') throw new Error(`Session ${sessionId} cannot be paid`)
			session.status = 'complete'
			session.payment_status = 'paid'
			session.customer_details = { email: session.customer_email }
			session.url = null
			const sold = subscriptionCheckouts.get(sessionId)
			if (sold) startSubscription(session, sold)
			else session.payment_intent = `pi_${sessionId.slice('cs_test_'.length, 'cs_test_'.length + 24)}`
			for (const discount of session.discounts) {
				const promotionCode = discount.promotion_code ? promotionCodes.get(discount.promotion_code) : undefined
				if (promotionCode) promotionCode.times_redeemed += 1
				const coupon = discount.coupon ? coupons.get(discount.coupon) : undefined
				if (coupon) coupon.times_redeemed += 1
			}
			return session
		},
		webhook(type, sessionId) {
			const session = sessions.get(sessionId)
			if (!session) throw new Error(`Unknown session ${sessionId}`)
			const paymentIntent = session.payment_intent
			const object =
				type === 'charge.refunded' && paymentIntent
					? {
							id: chargeOf(paymentIntent),
							object: 'charge',
							amount: session.amount_total,
							amount_refunded: refundedOf(paymentIntent),
							currency: session.currency,
							payment_intent: paymentIntent,
							refunded: refundedOf(paymentIntent) >= session.amount_total,
							status: 'succeeded',
						}
					: session
			return signedEvent(type, object)
		},
		billNext(subscriptionId, outcome) {
			const subscription = subscriptions.get(subscriptionId)
			if (!subscription || subscription.status === 'canceled') throw new Error(`Subscription ${subscriptionId} bills no more`)
			const index =
				Math.max(
					...[...invoices.values()]
						.filter((one) => one.parent.subscription_details.subscription === subscriptionId)
						.map((one) => one.period_index),
				) + 1
			const price = priceFor(subscription, index)
			if (!price) {
				subscription.status = 'canceled'
				subscription.ended_at = periodOf(subscription, index).start
				const schedule = subscription.schedule ? schedules.get(subscription.schedule) : undefined
				if (schedule) schedule.status = 'completed'
				return null
			}
			// A paused collection bills the period as a draft, whatever the card would have done.
			return makeInvoice(
				subscription,
				index,
				[{ amount: price.unit_amount, subscriptionItem: true }],
				subscription.pause_collection ? 'draft' : outcome,
			)
		},
		payInvoice(invoiceId) {
			const invoice = invoices.get(invoiceId)
			if (invoice?.status !== 'open') throw new Error(`Invoice ${invoiceId} is not open`)
			invoice.status = 'paid'
			invoice.amount_paid = invoice.amount_due
			invoice.attempt_count += 1
			invoice.payment_intent = `pi_${randomBytes(12).toString('hex')}`
			const subscription = subscriptions.get(invoice.parent.subscription_details.subscription)
			if (subscription && subscription.status === 'past_due') subscription.status = 'active'
			return invoice
		},
		event: signedEvent,
		refuseNextCreate() {
			refuseCreate = true
		},
		setCreateLatency(milliseconds) {
			createLatency = milliseconds
		},
		refundInDashboard(sessionId, amount) {
			const paymentIntent = sessions.get(sessionId)?.payment_intent
			if (!paymentIntent) throw new Error(`Session ${sessionId} is not paid`)
			const made = makeRefund(paymentIntent, amount === undefined ? {} : { amount: String(amount) })
			if ('error' in made) throw new Error(made.error)
			return made
		},
		dropNextRefundAnswer() {
			dropRefundAnswer = true
		},
		stop: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve())
				// The SDK keeps connections alive; they would hold close() open.
				server.closeAllConnections()
			}),
	}
}
