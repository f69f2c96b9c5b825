import Stripe from 'stripe'
import {
	type CheckoutEvent,
	type CheckoutSession,
	type NewCheckoutSession,
	type NewRefund,
	type PaymentProvider,
	type ProviderRefund,
	type RefundReason,
	RefundRefusedError,
	WebhookSignatureError,
	type WebhookVerifier,
} from './payments.ts'

export type StripeOptions = {
	secretKey: string
	webhookSecret: string
	/** Base URL of the API; tests point it at a local stand-in. Stripe's own when unset. */
	apiUrl?: string
}

/** Splits STRIPE_API_URL into the host, port and protocol options the SDK takes. */
export function stripeApiAddress(apiUrl: string) {
	const url = new URL(apiUrl)
	const protocol = url.protocol === 'http:' ? 'http' : 'https'
	return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol } as const
}

/** Stripe may add states; an unknown one counts as not finished and not paid. */
function oneOf<Known extends string, Fallback extends string>(value: string | null, known: Known[], fallback: Fallback) {
	return known.find((candidate) => candidate === value) ?? fallback
}

function toCheckoutSession(session: Stripe.Checkout.Session): CheckoutSession {
	const metadata = session.metadata ?? {}
	return {
		id: session.id,
		url: session.url,
		status: oneOf(session.status, ['complete', 'expired'], 'open'),
		paymentStatus: oneOf(session.payment_status, ['paid', 'no_payment_required'], 'unpaid'),
		amountTotal: session.amount_total,
		amountSubtotal: session.amount_subtotal,
		amountDiscount: session.total_details?.amount_discount ?? 0,
		currency: session.currency,
		customerEmail: session.customer_email ?? session.customer_details?.email ?? null,
		metadata: { userId: metadata.userId, courseId: metadata.courseId },
		paymentIntentId: idOf(session.payment_intent),
	}
}

/** Stripe sends an id or, when expanded, the object. */
function idOf(value: string | { id: string } | null | undefined) {
	if (!value) return null
	return typeof value === 'string' ? value : value.id
}

const REFUND_REASONS: RefundReason[] = ['requested_by_customer', 'duplicate', 'fraudulent']

function toProviderRefund(refund: Stripe.Refund): ProviderRefund {
	const metadata = refund.metadata ?? {}
	return {
		id: refund.id,
		amountCents: refund.amount,
		// Stripe's 'requires_action' and 'canceled' have not given the money back.
		status: refund.status === 'succeeded' || refund.status === 'pending' ? refund.status : 'failed',
		reason: REFUND_REASONS.find((reason) => reason === refund.reason) ?? null,
		metadata: { refundId: metadata.refundId, paymentId: metadata.paymentId },
	}
}

function isMissingResource(error: unknown) {
	return error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode === 404 || error.code === 'resource_missing')
}

/** Stripe Checkout through the official SDK. */
export class StripePayments implements PaymentProvider {
	readonly name = 'stripe'
	readonly webhooks: WebhookVerifier
	readonly #stripe: Stripe

	constructor(options: StripeOptions) {
		this.#stripe = new Stripe(options.secretKey, {
			maxNetworkRetries: 2,
			timeout: 20_000,
			telemetry: false,
			...(options.apiUrl ? stripeApiAddress(options.apiUrl) : {}),
		})
		const stripe = this.#stripe
		this.webhooks = {
			parse(rawBody, signature): CheckoutEvent {
				let event: Stripe.Event
				try {
					event = stripe.webhooks.constructEvent(rawBody, signature ?? '', options.webhookSecret)
				} catch {
					throw new WebhookSignatureError('The webhook signature does not match.')
				}
				switch (event.type) {
					case 'checkout.session.completed':
					case 'checkout.session.async_payment_succeeded':
						return { type: 'checkout.completed', sessionId: event.data.object.id }
					case 'checkout.session.expired':
					case 'checkout.session.async_payment_failed':
						return { type: 'checkout.expired', sessionId: event.data.object.id }
					case 'charge.refunded': {
						const paymentIntentId = idOf(event.data.object.payment_intent)
						return paymentIntentId ? { type: 'charge.refunded', paymentIntentId } : { type: 'ignored', eventType: event.type }
					}
					default:
						return { type: 'ignored', eventType: event.type }
				}
			},
		}
	}

	async preparePromotionCode(code: { id: number; code: string; percentOff: number | null; amountOffCents: number | null }) {
		const metadata = { promotionCodeId: String(code.id) }
		const coupon = await this.#stripe.coupons.create(
			{
				...(code.percentOff !== null ? { percent_off: code.percentOff } : { amount_off: code.amountOffCents ?? 0, currency: 'usd' }),
				duration: 'once',
				name: code.code,
				metadata,
			},
			{ idempotencyKey: `promotion-code-${code.id}-coupon` },
		)
		const promotionCode = await this.#stripe.promotionCodes.create(
			{ promotion: { type: 'coupon', coupon: coupon.id }, code: code.code, metadata },
			{ idempotencyKey: `promotion-code-${code.id}` },
		)
		return promotionCode.id
	}

	async createCheckoutSession(input: NewCheckoutSession) {
		if (input.discount && !input.discount.providerPromotionCodeId) throw new Error('The discount has no Stripe promotion code.')
		const session = await this.#stripe.checkout.sessions.create(
			{
				mode: 'payment',
				customer_email: input.customerEmail,
				client_reference_id: input.metadata.userId,
				line_items: [
					{
						quantity: 1,
						price_data: {
							currency: input.currency,
							unit_amount: input.amountCents,
							product_data: { name: input.description },
						},
					},
				],
				...(input.discount ? { discounts: [{ promotion_code: input.discount.providerPromotionCodeId! }] } : {}),
				metadata: input.metadata,
				payment_intent_data: { metadata: input.metadata },
				expires_at: Math.floor(input.expiresAt.getTime() / 1000),
				success_url: input.successUrl,
				cancel_url: input.cancelUrl,
			},
			// A buyer's submits that arrive together send the same key: while the first is served, Stripe answers the
			// others 409, which the SDK retries; enough tries (about 12 s of backoff) for the first to finish.
			{ idempotencyKey: input.idempotencyKey, maxNetworkRetries: 5 },
		)
		return toCheckoutSession(session)
	}

	async retrieveCheckoutSession(sessionId: string) {
		try {
			return toCheckoutSession(await this.#stripe.checkout.sessions.retrieve(sessionId))
		} catch (error) {
			if (isMissingResource(error)) return null
			throw error
		}
	}

	async expireCheckoutSession(sessionId: string) {
		const session = await this.retrieveCheckoutSession(sessionId)
		if (session?.status !== 'open') return
		await this.#stripe.checkout.sessions.expire(sessionId)
	}

	async createRefund(input: NewRefund) {
		try {
			const refund = await this.#stripe.refunds.create(
				{
					payment_intent: input.paymentIntentId,
					amount: input.amountCents,
					reason: input.reason,
					metadata: input.metadata,
				},
				{ idempotencyKey: input.idempotencyKey },
			)
			return toProviderRefund(refund)
		} catch (error) {
			// An answer from Stripe (too much, already refunded): nothing was refunded. Anything else is unknown.
			if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError) {
				throw new RefundRefusedError(error.message)
			}
			throw error
		}
	}

	async listRefunds(paymentIntentId: string) {
		const refunds: ProviderRefund[] = []
		for await (const refund of this.#stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })) {
			refunds.push(toProviderRefund(refund))
		}
		return refunds
	}
}
