import type { Task } from 'graphile-worker'
import { sweepWaitlistOffers } from '#app/models/waitlist.server.ts'
import { getDb } from '#app/utils/db.server.ts'

/** Offers whose time ran out go to the next in line; seats left free with people waiting are offered. */
export const sweepWaitlist: Task = async () => {
	await sweepWaitlistOffers(getDb())
}
