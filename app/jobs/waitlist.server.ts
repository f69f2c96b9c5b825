import type { Task } from 'graphile-worker'
import { z } from 'zod'
import { sweepWaitlistOffers } from '#app/models/enrollment/waitlist.server.ts'
import { sendSeatOffer } from '#app/models/enrollment/waitlist-emails.server.ts'
import { getDb } from '#app/utils/db.server.ts'

const OfferPayloadSchema = z.object({ entryId: z.number().int().positive(), token: z.string().min(20).max(100) })

/** E-mails one offer with its link, if it is still open. */
export const sendSeatOfferMail: Task = async (payload) => {
	await sendSeatOffer(getDb(), OfferPayloadSchema.parse(payload))
}

/** Offers whose time ran out go to the next in line; seats left free with people waiting are offered. */
export const sweepWaitlist: Task = async () => {
	await sweepWaitlistOffers(getDb())
}
