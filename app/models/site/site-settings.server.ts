import { type Kysely, sql } from 'kysely'
import { z } from 'zod'
import type { Database } from '#db/types.ts'
import { recordAudit } from './audit-log.server.ts'
import {
	DEFAULT_LIMITED_TIME_OFFER,
	DEFAULT_SCHOOL_DETAILS,
	type LimitedTimeOffer,
	LimitedTimeOfferSchema,
	type SchoolDetails,
	SchoolDetailsSchema,
} from './site-settings.ts'

export const LIMITED_TIME_OFFER_KEY = 'limited_time_offer'
export const SCHOOL_DETAILS_KEY = 'school_details'

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

/** The school's name, address and tax id; the default (the name alone) until an admin saves them. */
export async function getSchoolDetails(db: Kysely<Database>): Promise<SchoolDetails> {
	const row = await db.selectFrom('site_settings').select('value').where('key', '=', SCHOOL_DETAILS_KEY).executeTakeFirst()
	if (!row) return DEFAULT_SCHOOL_DETAILS
	const parsed = SchoolDetailsSchema.safeParse(row.value)
	if (parsed.success) return parsed.data
	console.warn('[site-settings] the stored school details are invalid; using the default')
	return DEFAULT_SCHOOL_DETAILS
}

/**
 * Saves the school's details with an audit entry of what changed; unchanged details save nothing.
 * Saves are serialised, so each entry's "before" is what the admin actually replaced.
 */
export async function saveSchoolDetails(db: Kysely<Database>, { adminId, details }: { adminId: string; details: SchoolDetails }) {
	const after = SchoolDetailsSchema.parse(details)
	return db.transaction().execute(async (trx) => {
		await sql`SELECT pg_advisory_xact_lock(hashtext(${`site_settings:${SCHOOL_DETAILS_KEY}`}))`.execute(trx)
		const before = await getSchoolDetails(trx)
		if (before.name === after.name && before.address === after.address && before.taxId === after.taxId) {
			return { details: after, saved: false }
		}
		await writeSetting(trx, SCHOOL_DETAILS_KEY, after, adminId)
		await recordAudit(trx, {
			actorId: adminId,
			action: 'school_details.save',
			entity: 'site_setting',
			entityId: SCHOOL_DETAILS_KEY,
			details: { before, after },
		})
		return { details: after, saved: true }
	})
}

async function writeSetting(db: Kysely<Database>, key: string, value: unknown, actorId: string | null) {
	const json = JSON.stringify(value)
	await db
		.insertInto('site_settings')
		.values({ key, value: json, updated_by: actorId, updated_at: sql`now()` })
		.onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_by: actorId, updated_at: sql`now()` }))
		.execute()
}
