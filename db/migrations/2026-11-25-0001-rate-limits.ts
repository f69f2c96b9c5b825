import { type Kysely, sql } from 'kysely'

/**
 * The counters of rate-limiter-flexible's PostgreSQL store (app/utils/rate-limit.server.ts),
 * in the library's own shape: created here so that the app never creates a table at run time.
 * The key is text, not the library's varchar(255): a login key holds an e-mail address and a
 * client address. `expire` is a Unix time in milliseconds, as the library writes it.
 * The hand-written fixed-window buckets it replaces are dropped: their counts only ever live
 * an hour, so nothing worth keeping is lost.
 */
export async function up(db: Kysely<unknown>) {
	await sql`CREATE TABLE rate_limits (
		key text PRIMARY KEY,
		points integer NOT NULL DEFAULT 0,
		expire bigint
	)`.execute(db)
	await sql`CREATE INDEX rate_limits_expire_idx ON rate_limits (expire)`.execute(db)
	await sql`DROP TABLE rate_limit_buckets`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`CREATE TABLE rate_limit_buckets (
		key text PRIMARY KEY,
		hits integer NOT NULL CHECK (hits >= 0),
		reset_at timestamptz NOT NULL
	)`.execute(db)
	await sql`CREATE INDEX rate_limit_buckets_reset_idx ON rate_limit_buckets (reset_at)`.execute(db)
	await sql`DROP TABLE rate_limits`.execute(db)
}
