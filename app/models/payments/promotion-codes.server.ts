import { type ExpressionBuilder, type Kysely, type Selectable, sql, type Transaction } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { Database, PromotionCodesTable } from '#db/types.ts'
import { type Discount, normalizePromotionCode, type PromotionCodeRefusal, priceWithCode } from './promotion-codes.ts'

/**
 * Promotion codes and their uses (docs/decisions/037, 040). A use is counted the moment a seat is
 * claimed with the code: a `reserved` row tied to the seat hold of the checkout (it disappears
 * with the hold: expired, cancelled), or a `redeemed` row once the enrolment exists. Every count
 * happens under the code's row lock, so N allowed uses give exactly N. A payment that arrives
 * after its reservation lapsed, with the code used up meanwhile, is an `over_limit` use: the
 * money was taken, so the enrolment stands, and the admin is told.
 */

export class PromotionCodeError extends Error {
	readonly reason: PromotionCodeRefusal
	constructor(reason: PromotionCodeRefusal) {
		super(reason)
		this.reason = reason
	}
}

/** The uses that count against the limit: redeemed ones and reservations whose seat hold has not expired. */
export function usesExpression(eb: ExpressionBuilder<Database, 'promotion_codes'>) {
	return eb
		.selectFrom('promotion_code_redemptions')
		.leftJoin('seat_holds', 'seat_holds.id', 'promotion_code_redemptions.seat_hold_id')
		.select((count) => count.fn.countAll<string>().as('uses'))
		.whereRef('promotion_code_redemptions.promotion_code_id', '=', 'promotion_codes.id')
		.where((where) =>
			where.or([where('promotion_code_redemptions.status', '=', 'redeemed'), where('seat_holds.expires_at', '>', sql<Date>`now()`)]),
		)
}

/** Uses past the limit: payments that arrived after their reservation lapsed (docs/decisions/040). */
export function overLimitExpression(eb: ExpressionBuilder<Database, 'promotion_codes'>) {
	return eb
		.selectFrom('promotion_code_redemptions')
		.select((count) => count.fn.countAll<string>().as('overLimit'))
		.whereRef('promotion_code_redemptions.promotion_code_id', '=', 'promotion_codes.id')
		.where('promotion_code_redemptions.status', '=', 'over_limit')
}

const CODE_COLUMNS = [
	'id',
	'code',
	'percent_off',
	'amount_off_cents',
	'course_id',
	'expires_at',
	'max_uses',
	'deactivated_at',
	'stripe_promotion_code_id',
] as const

/** A code as its checks and its price read it: the CODE_COLUMNS of its row. */
type CodeRow = Pick<Selectable<PromotionCodesTable>, (typeof CODE_COLUMNS)[number]>

function refusalOf(row: CodeRow | undefined, courseId: number, uses: number, now: Date): PromotionCodeRefusal | null {
	if (!row) return 'unknown'
	if (row.deactivated_at) return 'inactive'
	if (row.expires_at && row.expires_at <= now) return 'expired'
	if (row.course_id !== null && row.course_id !== courseId) return 'wrong-course'
	if (row.max_uses !== null && uses >= row.max_uses) return 'used-up'
	return null
}

export type AppliedPromotionCode = {
	id: number
	code: string
	discount: Discount
	priceCents: number
	discountCents: number
	totalCents: number
	stripePromotionCodeId: string | null
}

function applied(row: CodeRow, priceCents: number): AppliedPromotionCode {
	const discount = { percentOff: row.percent_off, amountOffCents: row.amount_off_cents }
	return {
		id: row.id,
		code: row.code,
		discount,
		priceCents,
		...priceWithCode(priceCents, discount),
		stripePromotionCodeId: row.stripe_promotion_code_id,
	}
}

/** What the code would take off this course's price now; a preview only, nothing is reserved. Throws PromotionCodeError. */
export async function previewPromotionCode(db: Kysely<Database>, input: { code: string; courseId: number; priceCents: number }) {
	const row = await db
		.selectFrom('promotion_codes')
		.select([...CODE_COLUMNS, (eb) => usesExpression(eb).as('uses')])
		.where('code', '=', normalizePromotionCode(input.code))
		.executeTakeFirst()
	const refusal = refusalOf(row, input.courseId, Number(row?.uses ?? 0), new Date())
	if (refusal || !row) throw new PromotionCodeError(refusal ?? 'unknown')
	return applied(row, input.priceCents)
}

/**
 * Inside the transaction that claims the seat (after the course lock, docs/decisions/040): locks
 * the code and counts its uses in a statement of its own, so that it sees every use committed by
 * the previous lock holder. Throws PromotionCodeError.
 */
export async function lockPromotionCodeForUse(trx: Transaction<Database>, input: { code: string; courseId: number; priceCents: number }) {
	const row = await trx
		.selectFrom('promotion_codes')
		.select(CODE_COLUMNS)
		.where('code', '=', normalizePromotionCode(input.code))
		.forUpdate()
		.executeTakeFirst()
	const uses = row ? await countUses(trx, row.id) : 0
	const refusal = refusalOf(row, input.courseId, uses, new Date())
	if (refusal || !row) throw new PromotionCodeError(refusal ?? 'unknown')
	return applied(row, input.priceCents)
}

async function countUses(trx: Transaction<Database>, promotionCodeId: number) {
	const counted = await trx
		.selectFrom('promotion_codes')
		.select((eb) => usesExpression(eb).as('uses'))
		.where('id', '=', promotionCodeId)
		.executeTakeFirstOrThrow()
	return Number(counted.uses ?? 0)
}

/** The code use a seat hold reserved, priced as it was when the seat was claimed; null without one. */
export async function reservedPromotionOf(trx: Transaction<Database>, seatHoldId: string): Promise<AppliedPromotionCode | null> {
	const row = await trx
		.selectFrom('promotion_code_redemptions')
		.innerJoin('promotion_codes', 'promotion_codes.id', 'promotion_code_redemptions.promotion_code_id')
		.select([...CODE_COLUMNS.map((column) => `promotion_codes.${column}` as const), 'promotion_code_redemptions.price_cents'])
		.where('promotion_code_redemptions.seat_hold_id', '=', seatHoldId)
		.executeTakeFirst()
	return row ? applied(row, row.price_cents) : null
}

/** Records a use of a code locked by lockPromotionCodeForUse: reserved with a seat hold, or redeemed with an enrolment. */
export async function recordPromotionCodeUse(
	trx: Transaction<Database>,
	input: { applied: AppliedPromotionCode; userId: string; courseId: number; use: { seatHoldId: string } | { enrollmentId: number } },
) {
	const redeemed = 'enrollmentId' in input.use
	await trx
		.insertInto('promotion_code_redemptions')
		.values({
			promotion_code_id: input.applied.id,
			user_id: input.userId,
			course_id: input.courseId,
			status: redeemed ? 'redeemed' : 'reserved',
			seat_hold_id: 'seatHoldId' in input.use ? input.use.seatHoldId : null,
			enrollment_id: 'enrollmentId' in input.use ? input.use.enrollmentId : null,
			redeemed_at: redeemed ? new Date() : null,
			price_cents: input.applied.priceCents,
			discount_cents: input.applied.discountCents,
		})
		.execute()
}

/** The reservation of a hold's checkout learns its session id (the hold's row learns it at the same time). */
export async function attachCheckoutToReservation(trx: Transaction<Database>, input: { seatHoldId: string; checkoutSessionId: string }) {
	await trx
		.updateTable('promotion_code_redemptions')
		.set({ checkout_session_id: input.checkoutSessionId })
		.where('seat_hold_id', '=', input.seatHoldId)
		.execute()
}

/**
 * Fulfilment of a paid checkout opened with a code, after the enrolment consumed its seat hold
 * (and with it the reservation, in this same transaction): the use is counted again under the
 * code's lock, so it is `redeemed` when the code has room — always, while the reservation was
 * live, since it was counted — and `over_limit` when its reservation lapsed while the payment
 * was on its way and others used the code up meanwhile (docs/decisions/040). An over-the-limit
 * use is recorded in the audit log for the admin. Returns what was recorded, or null when the
 * code no longer exists.
 */
export async function redeemCheckoutUse(
	trx: Transaction<Database>,
	input: {
		promotionCodeId: number
		checkoutSessionId: string
		userId: string
		courseId: number
		enrollmentId: number
		priceCents: number
		discountCents: number
	},
) {
	// A reservation of a hold that ran out and was not swept yet counts for nothing: it gives way.
	await trx
		.deleteFrom('promotion_code_redemptions')
		.where('checkout_session_id', '=', input.checkoutSessionId)
		.where('status', '=', 'reserved')
		.execute()
	const code = await trx
		.selectFrom('promotion_codes')
		.select(['id', 'code', 'max_uses'])
		.where('id', '=', input.promotionCodeId)
		.forUpdate()
		.executeTakeFirst()
	if (!code) return null
	const uses = await countUses(trx, code.id)
	const status = code.max_uses !== null && uses >= code.max_uses ? 'over_limit' : 'redeemed'
	await trx
		.insertInto('promotion_code_redemptions')
		.values({
			promotion_code_id: code.id,
			user_id: input.userId,
			course_id: input.courseId,
			status,
			enrollment_id: input.enrollmentId,
			checkout_session_id: input.checkoutSessionId,
			redeemed_at: new Date(),
			price_cents: input.priceCents,
			discount_cents: input.discountCents,
		})
		.execute()
	if (status === 'over_limit') {
		await recordAudit(trx, {
			actorId: null,
			action: 'promotion_code.over_limit',
			entity: 'promotion_code',
			entityId: code.id,
			details: {
				code: code.code,
				maxUses: code.max_uses,
				checkoutSessionId: input.checkoutSessionId,
				userId: input.userId,
				courseId: input.courseId,
				discountCents: input.discountCents,
			},
		})
	}
	return status
}

/** Remembers Stripe's promotion code for ours; a concurrent first use may have stored the same id already. */
export async function setStripePromotionCodeId(db: Kysely<Database>, promotionCodeId: number, stripeId: string) {
	await db
		.updateTable('promotion_codes')
		.set({ stripe_promotion_code_id: stripeId })
		.where('id', '=', promotionCodeId)
		.where('stripe_promotion_code_id', 'is', null)
		.execute()
}
