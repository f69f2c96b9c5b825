import { type Kysely, sql } from 'kysely'

/**
 * Pay in instalments, after the purchase (issue 41, docs/decisions/063): every instalment charged
 * after the checkout is a payment of its own, so it has a receipt and goes back through the refund
 * path of decision 036. Such a payment has no checkout session (it was charged off-session on the
 * saved card) and names its instalment instead, at most one payment per instalment. The enrolment
 * stays linked to the checkout's payment only (one payment per enrolment, as before); an
 * instalment's payment reaches it through its plan.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE registration_payments
		ALTER COLUMN checkout_session_id DROP NOT NULL,
		ADD COLUMN plan_instalment_id integer UNIQUE REFERENCES plan_instalments (id) ON DELETE SET NULL,
		ADD CONSTRAINT registration_payments_instalment_not_checkout CHECK (plan_instalment_id IS NULL OR checkout_session_id IS NULL),
		ADD CONSTRAINT registration_payments_instalment_no_enrollment CHECK (plan_instalment_id IS NULL OR enrollment_id IS NULL)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DELETE FROM registration_payments WHERE checkout_session_id IS NULL`.execute(db)
	await sql`ALTER TABLE registration_payments
		DROP COLUMN plan_instalment_id,
		ALTER COLUMN checkout_session_id SET NOT NULL`.execute(db)
}
