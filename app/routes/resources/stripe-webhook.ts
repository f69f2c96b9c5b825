import { expireCheckout, fulfil } from '#app/models/payments/payments.server.ts'
import { collectPlanOfCheckout, recordPlanInvoice, recordPlanSubscriptionChange } from '#app/models/payments/plan-subscriptions.server.ts'
import { syncProviderRefunds } from '#app/models/payments/refunds.server.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { type CheckoutEvent, WebhookSignatureError } from '#app/services/payments/payments.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readBodyUpTo } from '#app/utils/request-body.server.ts'
import type { Route } from './+types/stripe-webhook'

/** Stripe's events are a few kilobytes; anything far larger is not from Stripe. */
const MAX_WEBHOOK_BYTES = 1024 * 1024

/** Stripe only posts; a browser that opens the address learns nothing. */
export async function loader() {
	return new Response('Method not allowed.', { status: 405, headers: { Allow: 'POST', 'Content-Type': 'text/plain' } })
}

/**
 * Stripe's events about checkouts, refunds and the subscriptions that collect payment plans. The
 * signature is checked over the raw body before anything is read from it; a bad one gets 400 and
 * changes nothing. Fulfilment (then the plan's schedule), expiry, refund syncing and a plan's
 * invoices are idempotent, so repeated and out-of-order deliveries are harmless; an event about a
 * subscription no plan has is logged and answered 200; an error answers 500 so that Stripe retries.
 */
export async function action({ request }: Route.ActionArgs) {
	const payments = getPayments()
	if (!payments.webhooks) return new Response('Not Found', { status: 404 })
	const body = await readBodyUpTo(request, MAX_WEBHOOK_BYTES)
	if (body === null) return new Response('Payload Too Large', { status: 413 })
	const rawBody = new TextDecoder().decode(body)
	let event: CheckoutEvent
	try {
		event = payments.webhooks.parse(rawBody, request.headers.get('stripe-signature'))
	} catch (error) {
		if (error instanceof WebhookSignatureError) return new Response('Invalid signature', { status: 400 })
		throw error
	}
	const db = getDb()
	try {
		if (event.type === 'checkout.completed') {
			await fulfil(db, payments, event.sessionId)
			await collectPlanOfCheckout(db, payments, event.sessionId)
		}
		if (event.type === 'checkout.expired') await expireCheckout(db, event.sessionId)
		if (event.type === 'charge.refunded') await syncProviderRefunds(db, payments, event.paymentIntentId)
		if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') await recordPlanInvoice(db, payments, event)
		if (event.type === 'subscription.changed') await recordPlanSubscriptionChange(db, event)
	} catch (error) {
		console.error('[stripe-webhook] handling failed:', error instanceof Error ? error.message : error)
		return new Response('Webhook handling failed', { status: 500 })
	}
	return Response.json({ received: true })
}
