/** A paid course's purchase as the app makes it (the seat claimed, the provider's checkout opened), and Stripe's answer delivered. */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { createUser } from '#app/models/accounts/users.server.ts'
import { claimSeat, openCheckout } from '#app/models/payments/payments.server.ts'
import { action as webhookAction } from '#app/routes/resources/stripe-webhook.ts'
import type { PaymentProvider } from '#app/services/payments/payments.ts'
import type { Database } from '#db/types.ts'
import { settle } from './requests.ts'

/** A confirmed account made as the app makes one, ready to buy: its id and e-mail address. */
export async function confirmedBuyer(db: Kysely<Database>) {
	const email = `buyer-${randomUUID()}@example.com`
	const user = await createUser(db, { email, name: 'A Buyer', passwordHash: 'unused-hash', confirmed: true })
	return { id: user.id, email }
}

/**
 * Claims a seat of a paid course for the user, which holds it while they pay (throws if the claim
 * is anything but a hold), and opens the provider's checkout for it as the purchase form does.
 * Returns the claim and the checkout (its session id and URL).
 */
export async function holdAndOpenCheckout(
	db: Kysely<Database>,
	provider: PaymentProvider,
	{
		user,
		courseId,
		paymentPlan,
		promotionCode,
		appUrl = 'http://localhost:3000',
		cancelPath = `/courses/${courseId}`,
	}: {
		user: { id: string; email: string }
		courseId: number
		paymentPlan?: boolean
		promotionCode?: string
		appUrl?: string
		cancelPath?: string
	},
) {
	const claim = await db.transaction().execute((trx) => claimSeat(trx, { userId: user.id, courseId, paymentPlan, promotionCode }))
	if (claim.kind !== 'held') throw new Error(`expected a seat hold, got ${claim.kind}`)
	return { claim, ...(await openCheckout(db, provider, { claim, user, appUrl, cancelPath })) }
}

/** Posts a Stripe event to the webhook route as Stripe sends it; with no signature, the header is left out. */
export function deliverStripeEvent({ body, signature }: { body: string; signature: string | null }) {
	const headers = new Headers({ 'Content-Type': 'application/json' })
	if (signature !== null) headers.set('Stripe-Signature', signature)
	const request = new Request('http://localhost/webhooks/stripe', { method: 'POST', body, headers })
	return settle(() => webhookAction({ request, params: {}, context: {} } as never))
}
