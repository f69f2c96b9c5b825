import type { Task } from 'graphile-worker'
import { z } from 'zod'
import { makeDocumentPreview, markPreviewFailed, requestDocumentPreviews } from '#app/models/materials/document-previews.server.ts'
import { getDocumentConverter } from '#app/services/documents/converter.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { getDb } from '#app/utils/db.server.ts'

const PayloadSchema = z.object({ itemId: z.number().int().positive() })

/** Converts one Office material to its PDF preview; the last failed attempt marks it failed. */
export const makePreview: Task = async (payload, helpers) => {
	const { itemId } = PayloadSchema.parse(payload)
	try {
		await makeDocumentPreview(getDb(), getStorage(), getDocumentConverter(), itemId)
	} catch (error) {
		if (helpers.job.attempts >= helpers.job.max_attempts) await markPreviewFailed(getDb(), itemId)
		throw error
	}
}

/**
 * At start-up: Office files that have no preview yet (seeded, uploaded before previews
 * existed, or stored while no converter was installed) get one asked for.
 */
export const requestMissingPreviews: Task = async () => {
	await getDb()
		.transaction()
		.execute((trx) => requestDocumentPreviews(trx, { retryUnavailable: getDocumentConverter() !== null }))
}
