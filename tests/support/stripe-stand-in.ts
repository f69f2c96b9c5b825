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

/**
 * Stands for an object that `beforeAll` creates, so that a file can name it at the top
 * (`const { stripe, payments } = useStripeStandIn()`) and use it in its tests as is.
 */
function startedLater<T extends object>(name: string, current: () => T | undefined): T {
	const target = () => {
		const value = current()
		if (!value) throw new Error(`${name} is used before beforeAll started it`)
		return value
	}
	return new Proxy({} as T, {
		get(_, key) {
			const real = target()
			const value: unknown = Reflect.get(real, key, real)
			return typeof value === 'function' ? value.bind(real) : value
		},
		set(_, key, value) {
			return Reflect.set(target(), key, value)
		},
		has: (_, key) => Reflect.has(target(), key),
		getPrototypeOf: () => Reflect.getPrototypeOf(target()),
	})
}
