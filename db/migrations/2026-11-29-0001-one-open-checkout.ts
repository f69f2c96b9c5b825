import { type Kysely, sql } from 'kysely'

/**
 * One open checkout per buyer and course (docs/decisions/040). The seat hold keeps its checkout's
 * address, so a repeated purchase submit answers with it without asking the provider again. A use
 * of a promotion code may be recorded `over_limit`: a payment that arrived after its reservation
 * lapsed while the code was used up meanwhile (the money was taken; the admin is told). The test
 * checkout remembers the idempotency key a session was created with, as Stripe does.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE seat_holds ADD COLUMN checkout_url text CHECK (checkout_url IS NULL OR checkout_session_id IS NOT NULL)`.execute(db)
	await sql`ALTER TABLE promotion_code_redemptions
		DROP CONSTRAINT promotion_code_redemptions_status_check,
		DROP CONSTRAINT promotion_code_redemptions_check2,
		ADD CONSTRAINT promotion_code_redemptions_status_check CHECK (status IN ('reserved', 'redeemed', 'over_limit')),
		ADD CONSTRAINT promotion_code_redemptions_redeemed_at_check CHECK ((status IN ('redeemed', 'over_limit')) = (redeemed_at IS NOT NULL))`.execute(
		db,
	)
	await sql`ALTER TABLE test_checkout_sessions ADD COLUMN idempotency_key text UNIQUE`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE test_checkout_sessions DROP COLUMN idempotency_key`.execute(db)
	await sql`DELETE FROM promotion_code_redemptions WHERE status = 'over_limit'`.execute(db)
	await sql`ALTER TABLE promotion_code_redemptions
		DROP CONSTRAINT promotion_code_redemptions_status_check,
		DROP CONSTRAINT promotion_code_redemptions_redeemed_at_check,
		ADD CONSTRAINT promotion_code_redemptions_status_check CHECK (status IN ('reserved', 'redeemed')),
		ADD CONSTRAINT promotion_code_redemptions_check2 CHECK ((status = 'redeemed') = (redeemed_at IS NOT NULL))`.execute(db)
	await sql`ALTER TABLE seat_holds DROP COLUMN checkout_url`.execute(db)
}
