import { type Kysely, sql } from 'kysely'

/**
 * The built-in test checkout (the embedded stand-in for Stripe Checkout when
 * STRIPE_SECRET_KEY is unset) keeps its sessions here, so a session outlives a
 * restart and any app process can serve it. No card data is ever stored.
 */
const statements = [
	sql`CREATE TABLE test_checkout_sessions (
		id text PRIMARY KEY,
		amount_cents integer NOT NULL CHECK (amount_cents > 0),
		currency text NOT NULL DEFAULT 'usd',
		description text NOT NULL,
		customer_email text NOT NULL,
		metadata jsonb NOT NULL DEFAULT '{}',
		status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'expired')),
		payment_status text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'paid')),
		success_url text NOT NULL,
		cancel_url text NOT NULL,
		expires_at timestamptz NOT NULL,
		created_at timestamptz NOT NULL DEFAULT now(),
		completed_at timestamptz,
		CHECK ((status = 'complete') = (payment_status = 'paid'))
	)`,
	sql`CREATE INDEX test_checkout_sessions_open_expires_idx ON test_checkout_sessions (expires_at) WHERE status = 'open'`,
]

export async function up(db: Kysely<unknown>) {
	for (const statement of statements) {
		await statement.execute(db)
	}
}

export async function down(db: Kysely<unknown>) {
	await sql`DROP TABLE test_checkout_sessions`.execute(db)
}
