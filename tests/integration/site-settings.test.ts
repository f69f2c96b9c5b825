import { type Kysely, sql } from 'kysely'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import {
	getLimitedTimeOffer,
	LIMITED_TIME_OFFER_KEY,
	removeLimitedTimeOffer,
	saveLimitedTimeOffer,
} from '#app/models/site-settings.server.ts'
import { DEFAULT_LIMITED_TIME_OFFER, type LimitedTimeOffer } from '#app/models/site-settings.ts'
import { loader as homeLoader } from '#app/routes/public/home.tsx'
import type { Database } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertUser } from '#tests/support/fixtures.ts'

const t = useTestDatabase()

const offer: LimitedTimeOffer = {
	title: 'Spring Cohort Special',
	discount: '20% off registration',
	items: ['Two bonus coaching calls', 'Deal analysis spreadsheet'],
	action: 'Reserve Now',
	note: 'Ends March 31.',
}

function readRow(db: Kysely<Database>) {
	return db.selectFrom('site_settings').select(['value', 'updated_by']).where('key', '=', LIMITED_TIME_OFFER_KEY).executeTakeFirst()
}

describe('limited-time offer', () => {
	const db = () => t.db

	beforeEach(async () => {
		await db().deleteFrom('site_settings').execute()
	})

	test('is the default offer until an admin touches it', async () => {
		expect(await getLimitedTimeOffer(db())).toEqual(DEFAULT_LIMITED_TIME_OFFER)
	})

	test('saves an offer, records who saved it, and reads it back', async () => {
		const adminId = await insertUser(db(), { role: 'admin' })
		const saved = await saveLimitedTimeOffer(db(), { ...offer, title: '  Spring Cohort Special  ' }, adminId)
		expect(saved).toEqual(offer)
		expect(await getLimitedTimeOffer(db())).toEqual(offer)
		expect(await readRow(db())).toEqual({ value: offer, updated_by: adminId })

		const edited = { ...offer, items: ['Only one item now'] }
		await saveLimitedTimeOffer(db(), edited, adminId)
		expect(await getLimitedTimeOffer(db())).toEqual(edited)
		const rows = await db().selectFrom('site_settings').select('key').execute()
		expect(rows).toHaveLength(1)
	})

	test('removing stores a JSON null and reads back as null; saving adds it back', async () => {
		const adminId = await insertUser(db(), { role: 'admin' })
		await removeLimitedTimeOffer(db(), adminId)
		expect(await getLimitedTimeOffer(db())).toBeNull()
		const stored = await sql<{
			kind: string
		}>`SELECT jsonb_typeof(value) AS kind FROM site_settings WHERE key = ${LIMITED_TIME_OFFER_KEY}`.execute(db())
		expect(stored.rows[0]?.kind).toBe('null')
		expect((await readRow(db()))?.updated_by).toBe(adminId)

		await saveLimitedTimeOffer(db(), offer, adminId)
		expect(await getLimitedTimeOffer(db())).toEqual(offer)
	})

	test('refuses an invalid offer and keeps the stored one', async () => {
		await saveLimitedTimeOffer(db(), offer, null)
		await expect(saveLimitedTimeOffer(db(), { ...offer, title: ' ', items: [] }, null)).rejects.toThrow()
		expect(await getLimitedTimeOffer(db())).toEqual(offer)
	})

	test('falls back to the default when the stored value is not a valid offer', async () => {
		vi.spyOn(console, 'warn').mockImplementation(() => {})
		await db()
			.insertInto('site_settings')
			.values({ key: LIMITED_TIME_OFFER_KEY, value: JSON.stringify({ title: 42 }) })
			.execute()
		expect(await getLimitedTimeOffer(db())).toEqual(DEFAULT_LIMITED_TIME_OFFER)
	})
})

describe('home page loader', () => {
	beforeEach(async () => {
		await t.db.deleteFrom('site_settings').execute()
	})

	test('passes the stored offer to the page, or null once removed', async () => {
		expect(await homeLoader()).toEqual({ offer: DEFAULT_LIMITED_TIME_OFFER })
		await saveLimitedTimeOffer(t.db, offer, null)
		expect(await homeLoader()).toEqual({ offer })
		await removeLimitedTimeOffer(t.db, null)
		expect(await homeLoader()).toEqual({ offer: null })
	})
})
