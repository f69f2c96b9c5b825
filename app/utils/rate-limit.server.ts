import { type Kysely, sql } from 'kysely'
import type { Database } from '#db/types.ts'

export type RateLimitRule = { limit: number; windowMs: number }

export const RATE_LIMITS = {
	/** Failed logins, per account and per client address. */
	loginFailures: { limit: 5, windowMs: 15 * 60 * 1000 },
	/** Password-reset and confirmation mails, per address. */
	accountMail: { limit: 3, windowMs: 60 * 60 * 1000 },
	registration: { limit: 10, windowMs: 60 * 60 * 1000 },
	/** Valid step-1 registration details, per address: each costs a password hash and a draft row. */
	registrationDetails: { limit: 30, windowMs: 60 * 60 * 1000 },
	waitlist: { limit: 5, windowMs: 60 * 60 * 1000 },
	contact: { limit: 5, windowMs: 60 * 60 * 1000 },
	messageSend: { limit: 60, windowMs: 60 * 1000 },
} satisfies Record<string, RateLimitRule>

export type RateLimitResult = { allowed: boolean; hits: number; retryAfterSeconds: number }

/**
 * Counts one hit in a fixed window kept in PostgreSQL, so the limit holds
 * across every app process. The upsert is atomic: concurrent hits never lose a count.
 */
export async function hitRateLimit(db: Kysely<Database>, key: string, rule: RateLimitRule): Promise<RateLimitResult> {
	const resetAt = new Date(Date.now() + rule.windowMs)
	const row = await sql<{ hits: number; reset_at: Date }>`
		INSERT INTO rate_limit_buckets (key, hits, reset_at) VALUES (${key}, 1, ${resetAt})
		ON CONFLICT (key) DO UPDATE SET
			hits = CASE WHEN rate_limit_buckets.reset_at <= now() THEN 1 ELSE rate_limit_buckets.hits + 1 END,
			reset_at = CASE WHEN rate_limit_buckets.reset_at <= now() THEN excluded.reset_at ELSE rate_limit_buckets.reset_at END
		RETURNING hits, reset_at`.execute(db)
	const { hits, reset_at } = row.rows[0]!
	return { allowed: hits <= rule.limit, hits, retryAfterSeconds: secondsUntil(reset_at) }
}

/** Reads a bucket without counting: is the limit already reached? */
export async function isRateLimited(db: Kysely<Database>, key: string, rule: RateLimitRule) {
	const row = await db
		.selectFrom('rate_limit_buckets')
		.select(['hits', 'reset_at'])
		.where('key', '=', key)
		.where('reset_at', '>', new Date())
		.executeTakeFirst()
	return row ? { limited: row.hits >= rule.limit, retryAfterSeconds: secondsUntil(row.reset_at) } : { limited: false, retryAfterSeconds: 0 }
}

export async function resetRateLimit(db: Kysely<Database>, key: string) {
	await db.deleteFrom('rate_limit_buckets').where('key', '=', key).execute()
}

export async function sweepRateLimits(db: Kysely<Database>) {
	await db.deleteFrom('rate_limit_buckets').where('reset_at', '<=', new Date()).execute()
}

function secondsUntil(date: Date) {
	return Math.max(1, Math.ceil((date.getTime() - Date.now()) / 1000))
}

/** The client address the server put on the request (see scripts/server/http.ts); never a client-supplied header. */
export function clientAddress(request: Request) {
	return request.headers.get('x-client-ip') || 'unknown'
}
