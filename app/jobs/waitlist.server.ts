import type { Task } from 'graphile-worker'
import { z } from 'zod'
import { sweepWaitlistOffers } from '#app/models/enrollment/waitlist.server.ts'
import { sendOfferExpiredNotices, sendSeatOffer } from '#app/models/enrollment/waitlist-emails.server.ts'
import { getDb } from '#app/utils/db.server.ts'

const OfferPayloadSchema = z.object({ entryId: z.number().int().positive(), token: z.string().min(20).max(100) })

/** E-mails one offer with its link, if it is still open. */
export const sendSeatOfferMail: Task = async (payload) => {
	await sendSeatOffer(getDb(), OfferPayloadSchema.parse(payload))
}

const ExpiredPayloadSchema = z.object({ entryIds: z.array(z.number().int().positive()).min(1).max(1000) })

/** Tells each person whose offer ran out that the seat went on. */
export const sendOfferExpiredMail: Task = async (payload) => {
	await sendOfferExpiredNotices(getDb(), ExpiredPayloadSchema.parse(payload).entryIds)
}

/** Offers whose time ran out go to the next in line; seats left free with people waiting are offered. */
export const sweepWaitlist: Task = async () => {
	await sweepWaitlistOffers(getDb())
}
