/**
 * The limiter store (rate-limiter-flexible's PostgreSQL store run through the app's Kysely
 * handle) on both databases the app runs on: counts that arrive together, giving back,
 * forgetting and sweeping.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type DatabaseHandle, setDatabaseHandle } from '#app/utils/db.server.ts'
import { consumeRateLimit, giveBackRateLimit, RATE_LIMITS, resetRateLimit, sweepRateLimits } from '#app/utils/rate-limit.server.ts'
import { createTestDatabase } from '#tests/support/db.ts'

describe('rate limits', () => {
	let handle: DatabaseHandle
	let drop: () => Promise<void>
	beforeAll(async () => {
		const created = await createTestDatabase()
		handle = created.handle
		drop = created.drop
		setDatabaseHandle(handle)
	})
	afterAll(async () => {
		setDatabaseHandle(undefined)
		await drop()
	})

	test('of 200 requests at once, exactly the limit is allowed; the rest are told how long to wait', async () => {
		const decisions = await Promise.all(Array.from({ length: 200 }, () => consumeRateLimit('contact', 'burst')))
		const allowed = decisions.filter((decision) => decision.allowed)
		expect(allowed).toHaveLength(RATE_LIMITS.contact.points)
		for (const decision of decisions) {
			if (!decision.allowed) expect(decision.retryAfterSeconds).toBeGreaterThan(RATE_LIMITS.contact.duration - 60)
		}
		// Another key is counted apart.
		expect(await consumeRateLimit('contact', 'elsewhere')).toEqual({ allowed: true })
	})

	test('a key over its limit with a block duration is refused for that long, also by the requests counted while the block began', async () => {
		const { points, blockDuration } = RATE_LIMITS.loginFailuresPerAccountAndAddress
		const decisions = await Promise.all(Array.from({ length: 50 }, () => consumeRateLimit('loginFailuresPerAccountAndAddress', 'blocked')))
		expect(decisions.filter((decision) => decision.allowed)).toHaveLength(points)
		for (const decision of decisions) {
			if (!decision.allowed) expect(decision.retryAfterSeconds).toBeGreaterThan(blockDuration - 60)
			if (!decision.allowed) expect(decision.retryAfterSeconds).toBeLessThanOrEqual(blockDuration)
		}
		expect(await consumeRateLimit('loginFailuresPerAccountAndAddress', 'blocked')).toEqual({
			allowed: false,
			retryAfterSeconds: blockDuration,
		})
	})

	test('a point given back can be taken again; a reset forgets them all', async () => {
		for (let sent = 0; sent < RATE_LIMITS.waitlist.points; sent++) await consumeRateLimit('waitlist', 'given-back')
		expect((await consumeRateLimit('waitlist', 'given-back')).allowed).toBe(false)
		await giveBackRateLimit('waitlist', 'given-back')
		await giveBackRateLimit('waitlist', 'given-back')
		expect((await consumeRateLimit('waitlist', 'given-back')).allowed).toBe(true)
		expect((await consumeRateLimit('waitlist', 'given-back')).allowed).toBe(false)
		await resetRateLimit('waitlist', 'given-back')
		expect((await consumeRateLimit('waitlist', 'given-back')).allowed).toBe(true)
	})

	test('the sweep removes expired counters only', async () => {
		await consumeRateLimit('messageSend', 'current')
		await handle.db
			.insertInto('rate_limits')
			.values({ key: 'messageSend:expired', points: 3, expire: Date.now() - 1000 })
			.execute()
		await sweepRateLimits(handle.db)
		const keys = (await handle.db.selectFrom('rate_limits').select('key').execute()).map((row) => row.key)
		expect(keys).toContain('messageSend:current')
		expect(keys).not.toContain('messageSend:expired')
	})
})
