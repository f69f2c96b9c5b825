import { type Kysely, sql } from 'kysely'

/**
 * Pay in instalments, first slice (issue 41, docs/decisions/054): a course may offer one payment
 * plan besides paying in full — a deposit and N monthly instalments, or N equal monthly
 * instalments (N from 2 to 6) — with a surcharge in cents and the grace days a failed instalment
 * gets before access pauses. A plan switched off keeps its terms (`offered` false), so the grace
 * days still govern plans already bought. The rules that need the course's price and dates (the
 * deposit below the total, the last instalment before the last session) are the model's.
 */
export async function up(db: Kysely<unknown>) {
	await sql`CREATE TABLE course_payment_plans (
		course_id integer PRIMARY KEY REFERENCES courses(id) ON DELETE CASCADE,
		offered boolean NOT NULL DEFAULT true,
		kind text NOT NULL CHECK (kind IN ('deposit', 'equal')),
		deposit_cents integer CHECK (deposit_cents IS NULL OR deposit_cents >= 50),
		instalment_count integer NOT NULL CHECK (instalment_count BETWEEN 2 AND 6),
		surcharge_cents integer NOT NULL DEFAULT 0 CHECK (surcharge_cents BETWEEN 0 AND 100000000),
		grace_days integer NOT NULL DEFAULT 7 CHECK (grace_days BETWEEN 1 AND 30),
		created_at timestamptz NOT NULL DEFAULT now(),
		updated_at timestamptz NOT NULL DEFAULT now(),
		CONSTRAINT course_payment_plans_deposit_with_kind CHECK ((kind = 'deposit') = (deposit_cents IS NOT NULL))
	)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DROP TABLE course_payment_plans`.execute(db)
}
