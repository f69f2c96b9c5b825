import { getDb } from '#app/utils/db.server.ts'
import { type Env, getEnv } from '#app/utils/env.server.ts'
import type { PaymentProvider } from './payments.ts'
import { StripePayments } from './stripe.server.ts'
import { TestCheckoutPayments } from './test-checkout.server.ts'

export type { CheckoutSession, PaymentProvider } from './payments.ts'

/** Stripe Checkout when STRIPE_SECRET_KEY is set; the built-in test checkout otherwise. */
export function createPayments(env: Env): PaymentProvider {
	if (env.STRIPE_SECRET_KEY) {
		return new StripePayments({
			secretKey: env.STRIPE_SECRET_KEY,
			// env.server.ts refuses a secret key without its webhook secret.
			webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
			apiUrl: env.STRIPE_API_URL,
		})
	}
	return new TestCheckoutPayments(getDb)
}

let payments: PaymentProvider | undefined

/** The adapter, chosen once from the configuration the first time it is needed. */
export function getPayments(): PaymentProvider {
	payments ??= createPayments(getEnv())
	return payments
}

/** Lets a test run app code against an adapter of its own. */
export function setPayments(next: PaymentProvider | undefined) {
	payments = next
}
