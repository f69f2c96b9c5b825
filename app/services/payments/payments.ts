import type { RefundReason as DbRefundReason } from '#db/types.ts'

/**
 * A hosted card checkout, as the rest of the app sees it. Two adapters:
 * Stripe Checkout (STRIPE_SECRET_KEY set) and the built-in test checkout.
 */
export type CheckoutMetadata = {
	userId: string
	courseId: string
}

/** A promotion code's discount, applied by the provider the way Stripe applies a coupon. */
export type CheckoutDiscount = {
	code: string
	percentOff: number | null
	amountOffCents: number | null
	/** The provider's own promotion code (Stripe's `promo_…`); null for the test checkout. */
	providerPromotionCodeId: string | null
}

/**
 * What a discount takes off a one-item price, in cents, as Stripe computes a coupon: a
 * percentage rounded to the nearest cent, an amount never more than the price.
 */
export function checkoutDiscountCents(priceCents: number, discount: Pick<CheckoutDiscount, 'percentOff' | 'amountOffCents'>) {
	if (discount.percentOff !== null) return Math.min(priceCents, Math.round((priceCents * discount.percentOff) / 100))
	return Math.min(priceCents, discount.amountOffCents ?? 0)
}

/**
 * The smallest total the provider charges in US dollars (Stripe's minimum charge amount): a code
 * that leaves less is waived and the enrolment is free (docs/decisions/047).
 */
export const MINIMUM_CHARGE_CENTS = 50

export type NewCheckoutSession = {
	/** The list price in cents, read from the database by the caller, never from a form. */
	amountCents: number
	/** Taken off amountCents by the provider; the total must stay above zero. */
	discount?: CheckoutDiscount
	currency: 'usd'
	/** What the customer buys: the course title. */
	description: string
	customerEmail: string
	metadata: CheckoutMetadata
	/** When the session (and the seat hold behind it) ends. */
	expiresAt: Date
	/** Absolute URLs; '{CHECKOUT_SESSION_ID}' in successUrl is replaced by the session id. */
	successUrl: string
	cancelUrl: string
	/** Makes a retried creation return the same session instead of a second one. */
	idempotencyKey: string
	/**
	 * Bought on a payment plan (docs/decisions/054): `amountCents` is its first payment, and a provider
	 * that collects plans itself (Stripe) sells the rest as a subscription. Null for paying in full.
	 */
	plan?: CheckoutPlan | null
}

/** A plan's payments as the checkout sells them: the first at checkout, then one a month, in order. */
export type CheckoutPlan = {
	/** What the buyer's statement and invoices name: the course and "payment plan". */
	productName: string
	/** Each payment's amount in cents (the discount already spread, if any); the first is the deposit on a deposit plan. */
	payments: Array<{ amountCents: number; isDeposit: boolean }>
}

export type CheckoutSession = {
	id: string
	/** Where to send the customer: Stripe's hosted page or the test checkout page. */
	url: string | null
	status: 'open' | 'complete' | 'expired'
	paymentStatus: 'paid' | 'unpaid' | 'no_payment_required'
	amountTotal: number | null
	/** Before the discount. */
	amountSubtotal: number | null
	amountDiscount: number
	currency: string | null
	customerEmail: string | null
	metadata: Partial<CheckoutMetadata>
	/** The payment refunds go against once paid (Stripe's PaymentIntent; the test checkout's session); null before. */
	paymentIntentId: string | null
	/** The provider's subscription that collects the rest of a plan (Stripe); null otherwise. */
	subscriptionId: string | null
}

/** Stripe's refund reasons (db/types.ts); the admin's own words stay in the app's records. */
export type RefundReason = DbRefundReason

export type RefundMetadata = {
	/** The app's payment_refunds row: a refund found at the provider is matched to the one the app asked for. */
	refundId: string
	paymentId: string
}

export type NewRefund = {
	paymentIntentId: string
	amountCents: number
	reason: RefundReason
	metadata: RefundMetadata
	/** Makes a retried request the same refund instead of a second one. */
	idempotencyKey: string
}

export type ProviderRefund = {
	id: string
	amountCents: number
	/** 'pending' and 'succeeded' count as refunded; the money is on its way back. */
	status: 'pending' | 'succeeded' | 'failed'
	reason: RefundReason | null
	metadata: Partial<RefundMetadata>
}

/** The provider answered and refused the refund (more than is left, a closed payment): nothing was refunded. */
export class RefundRefusedError extends Error {}

/** A signature-verified provider event that matters to enrolment. */
export type CheckoutEvent =
	| { type: 'checkout.completed'; sessionId: string }
	| { type: 'checkout.expired'; sessionId: string }
	/** Money went back on a charge, from the app or the provider's dashboard. */
	| { type: 'charge.refunded'; paymentIntentId: string }
	/** An invoice of a plan's subscription was paid or could not be charged; `billedAt` is the start of the period it bills. */
	| { type: 'invoice.paid' | 'invoice.payment_failed'; invoiceId: string; subscriptionId: string; billedAt: Date }
	/** A plan's subscription changed state at the provider; `ended` when it will bill no more (cancelled or deleted). */
	| { type: 'subscription.changed'; eventType: string; subscriptionId: string; ended: boolean }
	| { type: 'ignored'; eventType: string }

export class WebhookSignatureError extends Error {}

export interface WebhookVerifier {
	/** Verifies the signature over the raw body; throws WebhookSignatureError when it does not match. */
	parse(rawBody: string, signature: string | null): CheckoutEvent
}

export interface PaymentProvider {
	readonly name: 'stripe' | 'test'
	/**
	 * The provider's own promotion code for one of ours, created the first time it is needed
	 * (the same request again returns the same object); null when the provider has none.
	 */
	preparePromotionCode(code: { id: number; code: string; percentOff: number | null; amountOffCents: number | null }): Promise<string | null>
	createCheckoutSession(input: NewCheckoutSession): Promise<CheckoutSession>
	/** null when the provider does not know the session. */
	retrieveCheckoutSession(sessionId: string): Promise<CheckoutSession | null>
	/** Ends an open session so that it can no longer be paid; a finished one is left as it is. */
	expireCheckoutSession(sessionId: string): Promise<void>
	/** Refunds part or all of a paid payment; throws RefundRefusedError when the provider says no. */
	createRefund(input: NewRefund): Promise<ProviderRefund>
	/** Every refund of the payment, wherever it was made. */
	listRefunds(paymentIntentId: string): Promise<ProviderRefund[]>
	/** Stripe confirms payments by webhook too; the test checkout fulfils in its own page and has none. */
	readonly webhooks: WebhookVerifier | null
	/** A provider that collects a plan's later payments itself (Stripe); the test checkout charges them in the app. */
	readonly plans: PlanCollector | null
}

/** The provider's side of a plan after its checkout (docs/decisions/054). */
export interface PlanCollector {
	/**
	 * Makes the plan's subscription bill exactly `laterPayments` (one a month after the checkout's,
	 * in cents) and then end. Repeating the call with the same plan changes nothing.
	 */
	schedulePlan(input: { planPurchaseId: number; subscriptionId: string; laterPayments: number[] }): Promise<void>
	/** Stops the subscription billing at once (a plan ended or paid for a seat no longer there); one already ended is left as it is. */
	cancelSubscription(subscriptionId: string): Promise<void>
	/** Pauses the subscription's collection (the admin paused the plan): its invoices are made but not charged. Repeating it changes nothing. */
	pauseCollection(subscriptionId: string): Promise<void>
	/** Collects again after `pauseCollection`, the invoices made meanwhile included; a subscription not paused is left as it is. */
	resumeCollection(subscriptionId: string): Promise<void>
	/** The PaymentIntent that paid an invoice (a refund goes against it); null when none. */
	paymentIntentOfInvoice(invoiceId: string): Promise<string | null>
	/** A page of the provider's where the buyer updates their card and pays what is due (Stripe's customer portal). */
	updateCardUrl(input: { subscriptionId: string; returnUrl: string }): Promise<string>
}
