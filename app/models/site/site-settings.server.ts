import { type Kysely, sql } from 'kysely'
import { z } from 'zod'
import type { Database } from '#db/types.ts'
import { DEFAULT_LIMITED_TIME_OFFER, type LimitedTimeOffer, LimitedTimeOfferSchema } from './site-settings.ts'

export const LIMITED_TIME_OFFER_KEY = 'limited_time_offer'

/** A removed offer is kept, hidden, so that adding it back starts from it. */
const RemovedOfferSchema = z.object({ removed: z.literal(true), offer: LimitedTimeOfferSchema })

type StoredOffer = { shown: LimitedTimeOffer | null; last: LimitedTimeOffer }

/**
 * The stored offer: a missing row means nobody has touched it yet (the default); a removed
 * one is `{ removed: true, offer }` (a JSON null before removals kept the offer).
 */
async function readOffer(db: Kysely<Database>): Promise<StoredOffer> {
	const row = await db.selectFrom('site_settings').select('value').where('key', '=', LIMITED_TIME_OFFER_KEY).executeTakeFirst()
	if (!row) return { shown: DEFAULT_LIMITED_TIME_OFFER, last: DEFAULT_LIMITED_TIME_OFFER }
	if (row.value === null) return { shown: null, last: DEFAULT_LIMITED_TIME_OFFER }
	const removed = RemovedOfferSchema.safeParse(row.value)
	if (removed.success) return { shown: null, last: removed.data.offer }
	const parsed = LimitedTimeOfferSchema.safeParse(row.value)
	if (!parsed.success) {
		console.warn('[site-settings] the stored limited-time offer is invalid; showing the default')
		return { shown: DEFAULT_LIMITED_TIME_OFFER, last: DEFAULT_LIMITED_TIME_OFFER }
	}
	return { shown: parsed.data, last: parsed.data }
}

/** The offer, or null when an admin removed it. */
export async function getLimitedTimeOffer(db: Kysely<Database>): Promise<LimitedTimeOffer | null> {
	return (await readOffer(db)).shown
}

/** What the editor starts from: the offer shown, or the last one before it was removed. */
export async function getOfferToEdit(db: Kysely<Database>): Promise<LimitedTimeOffer> {
	return (await readOffer(db)).last
}

export async function saveLimitedTimeOffer(db: Kysely<Database>, offer: LimitedTimeOffer, actorId: string | null) {
	const value = LimitedTimeOfferSchema.parse(offer)
	await writeSetting(db, LIMITED_TIME_OFFER_KEY, value, actorId)
	return value
}

/** Hides the offer from visitors, keeping it for the next 'Add Limited Time Offer'. */
export async function removeLimitedTimeOffer(db: Kysely<Database>, actorId: string | null) {
	const { last } = await readOffer(db)
	await writeSetting(db, LIMITED_TIME_OFFER_KEY, { removed: true, offer: last }, actorId)
}

async function writeSetting(db: Kysely<Database>, key: string, value: unknown, actorId: string | null) {
	const json = JSON.stringify(value)
	await db
		.insertInto('site_settings')
		.values({ key, value: json, updated_by: actorId, updated_at: sql`now()` })
		.onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_by: actorId, updated_at: sql`now()` }))
		.execute()
}
