import type { Task } from 'graphile-worker'
import { pauseOverduePlans } from '#app/models/payments/plan-purchases.server.ts'
import { getDb } from '#app/utils/db.server.ts'

/** Pauses the plans past due beyond their grace days, each once whichever process runs it (docs/decisions/054, 059). */
export const pauseOverduePlansTask: Task = async () => {
	await pauseOverduePlans(getDb())
}
