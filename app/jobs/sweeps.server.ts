import type { Task } from 'graphile-worker'
import { sweepExpiredRegistrations } from '#app/models/enrollment/registration.server.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { removeAbandonedUploads } from '#app/services/storage/index.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { sweepRateLimits } from '#app/utils/rate-limit.server.ts'

/** Expired registration drafts, checkouts and seat holds: the seat goes back. */
export const sweepExpiredHolds: Task = async () => {
	await sweepExpiredRegistrations(getDb(), getPayments())
}

export const sweepRateLimitCounters: Task = async () => {
	await sweepRateLimits(getDb())
}

/** Partial uploads a killed process left in the local file store. */
export const sweepAbandonedUploads: Task = async () => {
	await removeAbandonedUploads()
}
