import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

/**
 * A local stand-in for the parts of the Stripe HTTP API the app uses
 * (Checkout Sessions: create, retrieve, expire; Refunds: create, list; Coupons
 * and Promotion Codes: create, retrieve), so that the real `stripe` SDK is
 * exercised over HTTP. It checks what Stripe checks and the app relies on: the
 * secret key, the expires_at window, idempotency keys, never refunding more than
 * was paid, one active promotion code per code, and a session's `discounts`
 * priced the way Stripe prices them. Idempotency keys behave as Stripe's: the same key
 * replays the first answer, while that first request is still running another one with it
 * gets 409 `idempotency_key_in_use` (the SDK retries it), and the same key with other
 * parameters is refused with `idempotency_error`.
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
	/** Set when the session is paid, as Stripe does. */
	payment_intent: string | null
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
	requests: RecordedRequest[]
	/** The customer pays on the hosted page. */
	pay: (sessionId: string) => StandInSession
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

	function sessionOfPaymentIntent(paymentIntent: string) {
		return [...sessions.values()].find((session) => session.payment_intent === paymentIntent)
	}

	function refundedOf(paymentIntent: string) {
		return refunds
			.filter((refund) => refund.payment_intent === paymentIntent && refund.status !== 'failed')
			.reduce((sum, refund) => sum + refund.amount, 0)
	}

	/** Stripe's rules: a paid payment, an amount no larger than what is left of it (all of it when unset). */
	function makeRefund(paymentIntent: string, body: Record<string, unknown>): StandInRefund | { error: string; code: string } {
		const session = sessionOfPaymentIntent(paymentIntent)
		if (session?.payment_status !== 'paid') return { error: `No such payment_intent: '${paymentIntent}'`, code: 'resource_missing' }
		const left = session.amount_total - refundedOf(paymentIntent)
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
			currency: session.currency,
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
		if (!body.success_url || body.mode !== 'payment') return stripeError(response, 400, 'Missing required parameters.')
		const items = Object.values(
			(body.line_items ?? {}) as Record<string, { quantity: string; price_data: { unit_amount: string; currency: string } }>,
		)
		const amount = items.reduce((sum, item) => sum + Number(item.price_data.unit_amount) * Number(item.quantity), 0)
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
			url: `https://checkout.stripe.test/c/pay/${id}`,
			created: now,
			payment_intent: null,
		}
		sessions.set(id, session)
		return session
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

	return {
		url: `http://127.0.0.1:${port}`,
		secretKey,
		webhookSecret,
		sessions,
		refunds,
		coupons,
		promotionCodes,
		requests,
		pay(sessionId) {
			const session = sessions.get(sessionId)
			if (session?.status !== 'open') throw new Error(`Session ${sessionId} cannot be paid`)
			session.status = 'complete'
			session.payment_status = 'paid'
			session.customer_details = { email: session.customer_email }
			session.url = null
			session.payment_intent = `pi_${sessionId.slice('cs_test_'.length, 'cs_test_'.length + 24)}`
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
		},
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
