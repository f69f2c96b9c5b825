import { type Kysely, sql } from 'kysely'
import type { Database } from '#db/types.ts'
import { DEFAULT_LIMITED_TIME_OFFER, type LimitedTimeOffer, LimitedTimeOfferSchema } from './site-settings.ts'

export const LIMITED_TIME_OFFER_KEY = 'limited_time_offer'

/**
 * The offer, or null when an admin removed it. A missing row means nobody has
 * touched it yet (the default); a stored JSON null means removed.
 */
export async function getLimitedTimeOffer(db: Kysely<Database>): Promise<LimitedTimeOffer | null> {
	const row = await db.selectFrom('site_settings').select('value').where('key', '=', LIMITED_TIME_OFFER_KEY).executeTakeFirst()
	if (!row) return DEFAULT_LIMITED_TIME_OFFER
	if (row.value === null) return null
	const parsed = LimitedTimeOfferSchema.safeParse(row.value)
	if (!parsed.success) {
		console.warn('[site-settings] the stored limited-time offer is invalid; showing the default')
		return DEFAULT_LIMITED_TIME_OFFER
	}
	return parsed.data
}

export async function saveLimitedTimeOffer(db: Kysely<Database>, offer: LimitedTimeOffer, actorId: string | null) {
	const value = LimitedTimeOfferSchema.parse(offer)
	await writeSetting(db, LIMITED_TIME_OFFER_KEY, value, actorId)
	return value
}

export async function removeLimitedTimeOffer(db: Kysely<Database>, actorId: string | null) {
	await writeSetting(db, LIMITED_TIME_OFFER_KEY, null, actorId)
}

async function writeSetting(db: Kysely<Database>, key: string, value: unknown, actorId: string | null) {
	const json = JSON.stringify(value)
	await db
		.insertInto('site_settings')
		.values({ key, value: json, updated_by: actorId, updated_at: sql`now()` })
		.onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_by: actorId, updated_at: sql`now()` }))
		.execute()
}
