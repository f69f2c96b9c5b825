import { CompiledQuery, type Kysely } from 'kysely'
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible'
import type { Database } from '#db/types.ts'
import { getDb } from './db.server.ts'

const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * Every limit, in rate-limiter-flexible's terms: `points` per `duration` seconds, and with
 * `blockDuration` a key that goes over is refused for that long. The login limits and why they
 * are what they are: docs/decisions/020-login-limits.md.
 */
export const RATE_LIMITS = {
	/** Consecutive failed logins for one account from one address (reset by a successful login). */
	loginFailuresPerAccountAndAddress: { points: 5, duration: DAY, blockDuration: 15 * MINUTE },
	/** Failed logins for one account from browsers it has never signed in from, whatever their address. */
	loginFailuresPerAccount: { points: 20, duration: DAY },
	/** Failed logins for one account from browsers it has signed in from before (the trusted-device cookie). */
	loginFailuresPerAccountOnTrustedDevices: { points: 20, duration: DAY },
	/** Failed logins from one address, whatever the account. */
	loginFailuresPerAddress: { points: 100, duration: DAY },
	/** Password-reset and confirmation mails, per account (its e-mail address). */
	accountMail: { points: 3, duration: HOUR },
	/** Accounts created per address. */
	registration: { points: 10, duration: HOUR },
	/** Valid step-1 registration details, per address: each costs a password hash and a draft row. */
	registrationDetails: { points: 30, duration: HOUR },
	waitlist: { points: 5, duration: HOUR },
	contact: { points: 5, duration: HOUR },
	/** Promotion codes looked up (applied or bought with), per address: codes cannot be guessed by trying many. */
	promotionCodeAttempts: { points: 30, duration: HOUR },
	/** Messages per user. */
	messageSend: { points: 60, duration: MINUTE },
	/** "Download my data" archives per user (docs/decisions/067): each reads every row and file of theirs. */
	personalDataDownload: { points: 5, duration: HOUR },
	/** Discussions started and replies posted in a course's community, per user (docs/decisions/060). */
	communityPost: { points: 10, duration: MINUTE },
} satisfies Record<string, { points: number; duration: number; blockDuration?: number }>

export type RateLimitName = keyof typeof RATE_LIMITS

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/**
 * rate-limiter-flexible's PostgreSQL store speaks to anything with a pg-style `query`. This one
 * runs the library's statements through the app's Kysely handle, so the limits work on the
 * PostgreSQL pool and on the embedded database alike, and in tests on whichever database the
 * test installed (the handle is looked up per statement). The library names its statements
 * for pg's prepared-statement cache; the name is not needed here.
 */
const storeClient = {
	async query({ text, values }: { text: string; values?: unknown[] }) {
		const result = await getDb().executeQuery(CompiledQuery.raw(text, values ?? []))
		return {
			rows: result.rows,
			rowCount: result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows),
		}
	},
}

const limiters = new Map<RateLimitName, RateLimiterPostgres>()

function limiter(name: RateLimitName) {
	let found = limiters.get(name)
	if (!found) {
		found = new RateLimiterPostgres({
			...RATE_LIMITS[name],
			keyPrefix: name,
			storeClient,
			// 'client': one object with query(), used as it is (no pool to acquire from).
			storeType: 'client',
			// The table is the migration's (db/migrations/2026-11-25-0001-rate-limits.ts), never created at run time.
			tableName: 'rate_limits',
			tableCreated: true,
			// Expired rows are swept with the app's other housekeeping (sweepRateLimits), not by a timer per limiter.
			clearExpiredByTimeout: false,
		})
		limiters.set(name, found)
	}
	return found
}

/**
 * Takes one point for `key` and then decides: the library's single atomic upsert counts the
 * request and returns the new count, so requests that arrive together are counted one by
 * one and never more of them than the limit are allowed. A refused request keeps its point.
 */
export async function consumeRateLimit(name: RateLimitName, key: string): Promise<RateLimitDecision> {
	try {
		await limiter(name).consume(key)
		return { allowed: true }
	} catch (error) {
		if (!(error instanceof RateLimiterRes)) throw error
		// A request counted while the one that crossed the limit was still starting the block sees
		// the rest of the whole window; the block that is starting ends sooner.
		const rule = RATE_LIMITS[name]
		const msBeforeNext = 'blockDuration' in rule ? Math.min(error.msBeforeNext, rule.blockDuration * 1000) : error.msBeforeNext
		return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) }
	}
}

/** Gives back a point taken by a request that turned out not to count (a login that succeeded). */
export async function giveBackRateLimit(name: RateLimitName, key: string) {
	await limiter(name).reward(key)
}

/** Forgets every point of `key` (consecutive failures end with a success). */
export async function resetRateLimit(name: RateLimitName, key: string) {
	await limiter(name).delete(key)
}

/** Deletes expired counters, which count as nothing already; run with the periodic sweep. */
export async function sweepRateLimits(db: Kysely<Database>) {
	await db.deleteFrom('rate_limits').where('expire', '<', Date.now()).execute()
}

/** The client address the server put on the request (see scripts/server/http.ts); never a client-supplied header. */
export function clientAddress(request: Request) {
	return request.headers.get('x-client-ip') || 'unknown'
}
