import { type Kysely, sql } from 'kysely'

/**
 * A promotion code on a payment plan (issue 41 point 5, docs/decisions/054 and 064): the discount
 * comes off the plan's total and is spread over its instalments, so `total_cents` is what the
 * instalments add up to after the code; the plan keeps the code as typed and what it took off, for
 * its checkout page, its receipt and the student's Payments section.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE plan_purchases
		ADD COLUMN promotion_code text,
		ADD COLUMN discount_cents integer NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
		ADD CONSTRAINT plan_purchases_discount_has_code CHECK (discount_cents = 0 OR promotion_code IS NOT NULL)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE plan_purchases DROP COLUMN promotion_code, DROP COLUMN discount_cents`.execute(db)
}
