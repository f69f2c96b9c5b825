import { randomBytes } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { Database, TestCheckoutRefundsTable, TestCheckoutSessionsTable } from '#db/types.ts'
import {
	type CheckoutSession,
	checkoutDiscountCents,
	type NewCheckoutSession,
	type NewRefund,
	type PaymentProvider,
	type ProviderRefund,
	type RefundReason,
	RefundRefusedError,
} from './payments.ts'

export type TestCheckoutSession = CheckoutSession & {
	description: string
	amountCents: number
	promotionCode: string | null
	successUrl: string
	cancelUrl: string
	expiresAt: Date
}

/**
 * The embedded default: sessions live in the database and are paid on the
 * app's own /test-checkout page (test mode, no real charge). It has no
 * webhooks; the page fulfils through the same path the Stripe webhook uses.
 */
export class TestCheckoutPayments implements PaymentProvider {
	readonly name = 'test'
	readonly webhooks = null
	/** Later instalments are charged in the app (docs/decisions/059). */
	readonly plans = null
	readonly #db: () => Kysely<Database>

	/** Takes a getter so that the database installed later (start-up, a test) is the one used. */
	constructor(db: () => Kysely<Database>) {
		this.#db = db
	}

	/** The test checkout applies the discount itself, as Stripe applies its promotion code. */
	async preparePromotionCode() {
		return null
	}

	/** A repeated creation with the same idempotency key returns the session the first one made, as Stripe's does. */
	async createCheckoutSession(input: NewCheckoutSession) {
		const repeated = await this.#sessionOfKey(input.idempotencyKey)
		if (repeated) return repeated
		const id = `cs_test_${randomBytes(16).toString('hex')}`
		const discount = input.discount ? checkoutDiscountCents(input.amountCents, input.discount) : 0
		const row = await this.#db()
			.insertInto('test_checkout_sessions')
			.values({
				id,
				amount_cents: input.amountCents - discount,
				amount_subtotal_cents: input.discount ? input.amountCents : null,
				discount_cents: discount,
				promotion_code: input.discount?.code ?? null,
				currency: input.currency,
				description: input.description,
				customer_email: input.customerEmail,
				metadata: JSON.stringify(input.metadata),
				success_url: input.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
				cancel_url: input.cancelUrl,
				expires_at: input.expiresAt,
				idempotency_key: input.idempotencyKey,
			})
			.onConflict((conflict) => conflict.column('idempotency_key').doNothing())
			.returningAll()
			.executeTakeFirst()
		return row ? toSession(row) : ((await this.#sessionOfKey(input.idempotencyKey)) as TestCheckoutSession)
	}

	async #sessionOfKey(idempotencyKey: string) {
		const row = await this.#db()
			.selectFrom('test_checkout_sessions')
			.selectAll()
			.where('idempotency_key', '=', idempotencyKey)
			.executeTakeFirst()
		return row ? toSession(row) : null
	}

	async retrieveCheckoutSession(sessionId: string) {
		return this.getSession(sessionId)
	}

	async getSession(sessionId: string): Promise<TestCheckoutSession | null> {
		const row = await this.#db().selectFrom('test_checkout_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst()
		return row ? toSession(row) : null
	}

	async expireCheckoutSession(sessionId: string) {
		await this.#db()
			.updateTable('test_checkout_sessions')
			.set({ status: 'expired' })
			.where('id', '=', sessionId)
			.where('status', '=', 'open')
			.execute()
	}

	/** Records a successful test payment; false when the session is no longer open. */
	async markPaid(sessionId: string) {
		const result = await this.#db()
			.updateTable('test_checkout_sessions')
			.set({ status: 'complete', payment_status: 'paid', completed_at: new Date() })
			.where('id', '=', sessionId)
			.where('status', '=', 'open')
			.where('expires_at', '>', new Date())
			.executeTakeFirst()
		return Number(result.numUpdatedRows) === 1
	}

	/**
	 * Charges a plan's instalment on the card saved at checkout, off-session, as Stripe charges a
	 * subscription's invoice. Test mode has no real card: the charge succeeds, and is a paid session
	 * (its id is the payment refunds go against). A repeated key returns the charge the first made.
	 */
	async chargeSavedCard(input: { amountCents: number; description: string; customerEmail: string; idempotencyKey: string }) {
		const now = new Date()
		const row = await this.#db()
			.insertInto('test_checkout_sessions')
			.values({
				id: `cs_test_${randomBytes(16).toString('hex')}`,
				amount_cents: input.amountCents,
				currency: 'usd',
				description: input.description,
				customer_email: input.customerEmail,
				status: 'complete',
				payment_status: 'paid',
				success_url: '',
				cancel_url: '',
				expires_at: now,
				completed_at: now,
				idempotency_key: input.idempotencyKey,
			})
			.onConflict((conflict) => conflict.column('idempotency_key').doNothing())
			.returningAll()
			.executeTakeFirst()
		return row ? toSession(row) : ((await this.#sessionOfKey(input.idempotencyKey)) as TestCheckoutSession)
	}

	/**
	 * The test checkout's own refund, with Stripe's rules: only a paid session, never more than is
	 * left of it (checked under the session's row lock), and a repeated idempotency key gives the
	 * refund it made the first time. The payment is the session itself.
	 */
	async createRefund(input: NewRefund): Promise<ProviderRefund> {
		return this.#db()
			.transaction()
			.execute(async (trx) => {
				const session = await trx
					.selectFrom('test_checkout_sessions')
					.select(['amount_cents', 'payment_status'])
					.where('id', '=', input.paymentIntentId)
					.forUpdate()
					.executeTakeFirst()
				if (session?.payment_status !== 'paid') throw new RefundRefusedError('This payment cannot be refunded.')
				const repeated = await trx
					.selectFrom('test_checkout_refunds')
					.selectAll()
					.where('idempotency_key', '=', input.idempotencyKey)
					.executeTakeFirst()
				if (repeated) return toRefund(repeated)
				const { refunded } = await trx
					.selectFrom('test_checkout_refunds')
					.select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_cents'), eb.lit(0)).as('refunded'))
					.where('session_id', '=', input.paymentIntentId)
					.executeTakeFirstOrThrow()
				const left = session.amount_cents - Number(refunded)
				if (input.amountCents <= 0 || input.amountCents > left) {
					throw new RefundRefusedError(`Refund amount (${input.amountCents}) is greater than the unrefunded amount (${left}).`)
				}
				const row = await trx
					.insertInto('test_checkout_refunds')
					.values({
						id: `re_test_${randomBytes(12).toString('hex')}`,
						session_id: input.paymentIntentId,
						amount_cents: input.amountCents,
						reason: input.reason,
						metadata: JSON.stringify(input.metadata),
						idempotency_key: input.idempotencyKey,
					})
					.returningAll()
					.executeTakeFirstOrThrow()
				return toRefund(row)
			})
	}

	async listRefunds(paymentIntentId: string) {
		const rows = await this.#db()
			.selectFrom('test_checkout_refunds')
			.selectAll()
			.where('session_id', '=', paymentIntentId)
			.orderBy('created_at')
			.execute()
		return rows.map(toRefund)
	}

	/** Expires the open sessions whose time is up and returns their ids. */
	async expireOverdueSessions() {
		const rows = await this.#db()
			.updateTable('test_checkout_sessions')
			.set({ status: 'expired' })
			.where('status', '=', 'open')
			.where('expires_at', '<=', new Date())
			.returning('id')
			.execute()
		return rows.map((row) => row.id)
	}
}

function toSession(row: Selectable<TestCheckoutSessionsTable>): TestCheckoutSession {
	const expired = row.status === 'open' && row.expires_at.getTime() <= Date.now()
	return {
		id: row.id,
		url: `/test-checkout/${row.id}`,
		status: expired ? 'expired' : row.status,
		paymentStatus: row.payment_status,
		amountTotal: row.amount_cents,
		amountSubtotal: row.amount_subtotal_cents ?? row.amount_cents,
		amountDiscount: row.discount_cents,
		currency: row.currency,
		customerEmail: row.customer_email,
		metadata: { userId: row.metadata.userId, courseId: row.metadata.courseId },
		paymentIntentId: row.payment_status === 'paid' ? row.id : null,
		subscriptionId: null,
		description: row.description,
		amountCents: row.amount_cents,
		promotionCode: row.promotion_code,
		successUrl: row.success_url,
		cancelUrl: row.cancel_url,
		expiresAt: row.expires_at,
	}
}

const REFUND_REASONS: RefundReason[] = ['requested_by_customer', 'duplicate', 'fraudulent']

function toRefund(row: Selectable<TestCheckoutRefundsTable>): ProviderRefund {
	return {
		id: row.id,
		amountCents: row.amount_cents,
		status: 'succeeded',
		reason: REFUND_REASONS.find((reason) => reason === row.reason) ?? null,
		metadata: { refundId: row.metadata.refundId, paymentId: row.metadata.paymentId },
	}
}
