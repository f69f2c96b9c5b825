import Stripe from 'stripe'
import {
	type CheckoutEvent,
	type CheckoutPlan,
	type CheckoutSession,
	type NewCheckoutSession,
	type NewRefund,
	type PaymentProvider,
	type PlanCollector,
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

function toCheckoutSession(session: Stripe.Checkout.Session, paymentIntentId = idOf(session.payment_intent)): CheckoutSession {
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
		paymentIntentId,
		subscriptionId: idOf(session.subscription),
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

/** The start of the period an invoice bills: its subscription line's, else when it was made (a first invoice of one-off items). */
function billedAt(invoice: Stripe.Invoice) {
	const line = invoice.lines?.data.find((candidate) => candidate.parent?.type === 'subscription_item_details')
	return new Date((line?.period.start ?? invoice.created) * 1000)
}

/** The metadata that marks the customer portal configuration the app made for plans. */
const PLAN_PORTAL_PURPOSE = 'payment-plans'

/** A subscription in these states bills no more. */
const ENDED_SUBSCRIPTION: string[] = ['canceled', 'incomplete_expired']

/** The same instant a calendar month later in UTC, on the month's last day when it is shorter (as Stripe anchors a billing cycle). */
function monthLater(instant: Date) {
	const later = new Date(instant)
	later.setUTCDate(1)
	later.setUTCMonth(later.getUTCMonth() + 1)
	const lastDate = new Date(Date.UTC(later.getUTCFullYear(), later.getUTCMonth() + 1, 0)).getUTCDate()
	later.setUTCDate(Math.min(instant.getUTCDate(), lastDate))
	return later
}

/**
 * A plan's checkout (docs/decisions/054, 062): a subscription whose monthly price is the plan's last
 * payment, plus a one-off item for what the first invoice carries besides it (the deposit, or an even
 * split's leftover cents). A deposit plan's billing cycle starts a month on, so its first invoice is the
 * deposit alone.
 */
function planCheckoutItems(input: NewCheckoutSession, plan: CheckoutPlan) {
	const [first, ...later] = plan.payments
	if (!first || later.length === 0) throw new Error('A plan has a first payment and at least one later one.')
	const monthly = later.at(-1)!.amountCents
	const oneOff = first.isDeposit ? first.amountCents : first.amountCents - monthly
	const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = [
		{
			quantity: 1,
			price_data: {
				currency: input.currency,
				unit_amount: monthly,
				product_data: { name: plan.productName },
				recurring: { interval: 'month' },
			},
		},
	]
	if (oneOff > 0) {
		lineItems.push({
			quantity: 1,
			price_data: {
				currency: input.currency,
				unit_amount: oneOff,
				product_data: { name: first.isDeposit ? `${plan.productName}: deposit` : `${plan.productName}: first payment` },
			},
		})
	}
	const subscriptionData: Stripe.Checkout.SessionCreateParams.SubscriptionData = {
		description: plan.productName,
		metadata: input.metadata,
		...(first.isDeposit
			? { billing_cycle_anchor: Math.floor(monthLater(new Date()).getTime() / 1000), proration_behavior: 'none' as const }
			: {}),
	}
	return { lineItems, subscriptionData }
}

/** Consecutive equal amounts as one phase each: [866, 866, 867] → [{866 × 2}, {867 × 1}]. */
function runsOf(amounts: number[]) {
	const runs: Array<{ amountCents: number; months: number }> = []
	for (const amountCents of amounts) {
		const last = runs.at(-1)
		if (last?.amountCents === amountCents) last.months += 1
		else runs.push({ amountCents, months: 1 })
	}
	return runs
}

function isMissingResource(error: unknown) {
	return error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode === 404 || error.code === 'resource_missing')
}

/** Stripe Checkout through the official SDK. */
export class StripePayments implements PaymentProvider {
	readonly name = 'stripe'
	readonly webhooks: WebhookVerifier
	readonly plans: PlanCollector
	readonly #stripe: Stripe
	#portalConfiguration: Promise<string> | undefined

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
					case 'invoice.paid':
					case 'invoice.payment_failed': {
						const invoice = event.data.object
						const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription)
						// A $0 invoice (a proration, a credit) collected nothing: it pays no instalment.
						const collectedNothing = event.type === 'invoice.paid' && invoice.amount_paid === 0
						if (!subscriptionId || collectedNothing) return { type: 'ignored', eventType: event.type }
						return { type: event.type, invoiceId: invoice.id, subscriptionId, billedAt: billedAt(invoice) }
					}
					case 'customer.subscription.updated':
					case 'customer.subscription.deleted': {
						const subscription = event.data.object
						return {
							type: 'subscription.changed',
							eventType: event.type,
							subscriptionId: subscription.id,
							ended: event.type === 'customer.subscription.deleted' || ENDED_SUBSCRIPTION.includes(subscription.status),
						}
					}
					default:
						return { type: 'ignored', eventType: event.type }
				}
			},
		}
		this.plans = {
			schedulePlan: (input) => this.#schedulePlan(input),
			paymentIntentOfInvoice: (invoiceId) => this.#paymentIntentOfInvoice(invoiceId),
			cancelSubscription: async (subscriptionId) => {
				const subscription = await stripe.subscriptions.retrieve(subscriptionId)
				if (ENDED_SUBSCRIPTION.includes(subscription.status)) return
				try {
					await stripe.subscriptions.cancel(subscriptionId)
				} catch (error) {
					// Another request cancelled it meanwhile (a retry, the job): it is cancelled, as asked.
					if (!isMissingResource(error)) throw error
					const again = await stripe.subscriptions.retrieve(subscriptionId)
					if (!ENDED_SUBSCRIPTION.includes(again.status)) throw error
				}
			},
			pauseCollection: async (subscriptionId) => {
				const subscription = await stripe.subscriptions.retrieve(subscriptionId)
				if (ENDED_SUBSCRIPTION.includes(subscription.status) || subscription.pause_collection) return
				// keep_as_draft: the months of the pause are billed as drafts, charged when the plan resumes (docs/decisions/063).
				await stripe.subscriptions.update(subscriptionId, { pause_collection: { behavior: 'keep_as_draft' } })
			},
			resumeCollection: async (subscriptionId) => {
				const subscription = await stripe.subscriptions.retrieve(subscriptionId)
				if (ENDED_SUBSCRIPTION.includes(subscription.status)) return
				if (subscription.pause_collection) await stripe.subscriptions.update(subscriptionId, { pause_collection: '' })
				// The drafts the pause kept (auto_advance off) are finalized with automatic collection: Stripe charges them now.
				for await (const invoice of stripe.invoices.list({ subscription: subscriptionId, status: 'draft', limit: 100 })) {
					if (invoice.auto_advance) continue
					try {
						await stripe.invoices.finalizeInvoice(invoice.id!, { auto_advance: true })
					} catch (error) {
						// Another request (the follow-up job) finalized it meanwhile: it is collected, as asked.
						if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error
						if ((await stripe.invoices.retrieve(invoice.id!)).status === 'draft') throw error
					}
				}
			},
			updateCardUrl: async ({ subscriptionId, returnUrl }) => {
				const subscription = await stripe.subscriptions.retrieve(subscriptionId)
				this.#portalConfiguration ??= this.#planPortalConfiguration().catch((error) => {
					this.#portalConfiguration = undefined
					throw error
				})
				const portal = await stripe.billingPortal.sessions.create({
					customer: idOf(subscription.customer)!,
					configuration: await this.#portalConfiguration,
					return_url: returnUrl,
				})
				return portal.url
			},
		}
	}

	/**
	 * The subscription follows a schedule that bills the plan's later payments, one phase per run of
	 * equal amounts, and then cancels it (`end_behavior: 'cancel'`; 'release' would bill for ever). The
	 * current phase (the period the checkout paid) is kept as Stripe made it. A schedule already set
	 * for this plan is left alone; the idempotency keys make a retried call the same call.
	 */
	async #schedulePlan({ planPurchaseId, subscriptionId, laterPayments }: Parameters<PlanCollector['schedulePlan']>[0]) {
		const subscription = await this.#stripe.subscriptions.retrieve(subscriptionId)
		const existing = idOf(subscription.schedule)
		const schedule = existing
			? await this.#stripe.subscriptionSchedules.retrieve(existing)
			: await this.#stripe.subscriptionSchedules.create(
					{ from_subscription: subscriptionId },
					{ idempotencyKey: `plan-purchase-${planPurchaseId}-schedule` },
				)
		if (schedule.end_behavior === 'cancel' && schedule.metadata?.planPurchaseId === String(planPurchaseId)) return
		const current = schedule.phases[0]
		const item = subscription.items.data[0]
		if (!current || !item) throw new Error(`Subscription ${subscriptionId} has no phase or item to schedule.`)
		const product = idOf(item.price.product)!
		await this.#stripe.subscriptionSchedules.update(
			schedule.id,
			{
				end_behavior: 'cancel',
				metadata: { planPurchaseId: String(planPurchaseId) },
				proration_behavior: 'none',
				phases: [
					{ start_date: current.start_date, end_date: current.end_date, items: [{ price: item.price.id, quantity: 1 }] },
					...runsOf(laterPayments).map((run) => ({
						items: [
							run.amountCents === item.price.unit_amount
								? { price: item.price.id, quantity: 1 }
								: {
										price_data: {
											currency: item.price.currency,
											product,
											unit_amount: run.amountCents,
											recurring: { interval: 'month' as const },
										},
										quantity: 1,
									},
						],
						duration: { interval: 'month' as const, interval_count: run.months },
						proration_behavior: 'none' as const,
					})),
				],
			},
			{ idempotencyKey: `plan-purchase-${planPurchaseId}-phases` },
		)
	}

	/**
	 * The customer portal a plan's buyer is sent to: update the card and see the invoices, never cancel
	 * or change the subscription (that would end or alter the plan the school sold; the app's rules
	 * and its admin decide that). Made once per account, found again by its metadata.
	 */
	async #planPortalConfiguration() {
		for await (const configuration of this.#stripe.billingPortal.configurations.list({ active: true, limit: 100 })) {
			if (configuration.metadata?.purpose === PLAN_PORTAL_PURPOSE) return configuration.id
		}
		const created = await this.#stripe.billingPortal.configurations.create(
			{
				name: 'Payment plans',
				metadata: { purpose: PLAN_PORTAL_PURPOSE },
				features: {
					payment_method_update: { enabled: true },
					invoice_history: { enabled: true },
					subscription_cancel: { enabled: false },
					subscription_update: { enabled: false },
					customer_update: { enabled: false },
				},
			},
			{ idempotencyKey: `${PLAN_PORTAL_PURPOSE}-portal-configuration` },
		)
		return created.id
	}

	async #paymentIntentOfInvoice(invoiceId: string) {
		const payments = await this.#stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 1 })
		return idOf(payments.data[0]?.payment.payment_intent)
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
		const plan = input.plan ? planCheckoutItems(input, input.plan) : null
		const session = await this.#stripe.checkout.sessions.create(
			{
				customer_email: input.customerEmail,
				client_reference_id: input.metadata.userId,
				...(plan
					? // A plan's amounts are final (a discount already spread over them, decision 054): no Stripe coupon.
						{ mode: 'subscription', line_items: plan.lineItems, subscription_data: plan.subscriptionData }
					: {
							mode: 'payment',
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
							payment_intent_data: { metadata: input.metadata },
						}),
				metadata: input.metadata,
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
			const session = await this.#stripe.checkout.sessions.retrieve(sessionId)
			// A subscription's first payment is its first invoice's; the session itself has no PaymentIntent.
			const invoiceId = session.mode === 'subscription' && session.payment_status === 'paid' ? idOf(session.invoice) : null
			return toCheckoutSession(session, invoiceId ? await this.#paymentIntentOfInvoice(invoiceId) : idOf(session.payment_intent))
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
