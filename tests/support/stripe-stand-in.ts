/**
 * The local Stripe stand-in (stripe-server.ts) for a test file or a describe block, set up once:
 * started before its tests, with a `StripePayments` adapter (the real SDK) pointed at it, and
 * stopped after them. `installed` makes that adapter the one the app's code reads
 * (`getPayments()`) in every test; otherwise a test calls `setPayments` itself. The app's
 * adapter is reset after every test either way.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { setPayments } from '#app/services/payments/index.server.ts'
import { StripePayments } from '#app/services/payments/stripe.server.ts'
import { startedLater } from './started-later.ts'
import { type StripeStandIn, startStripeServer } from './stripe-server.ts'

export function useStripeStandIn({ installed = false }: { installed?: boolean } = {}) {
	let server: StripeStandIn | undefined
	let adapter: StripePayments | undefined
	beforeAll(async () => {
		server = await startStripeServer()
		adapter = new StripePayments({ secretKey: server.secretKey, webhookSecret: server.webhookSecret, apiUrl: server.url })
	})
	afterAll(async () => server?.stop())
	if (installed) beforeEach(() => setPayments(adapter))
	afterEach(() => setPayments(undefined))
	return { stripe: startedLater('the Stripe stand-in', () => server), payments: startedLater('its StripePayments', () => adapter) }
}
