/**
 * PDF previews of Office documents, made on the server by a job so that no private file goes
 * to a third party (docs/decisions/028). A preview belongs to one stored file: `preview_for_key`
 * names it, so a replaced file gets a preview of its own and a late job for the old one
 * changes nothing.
 */
import { type Kysely, sql } from 'kysely'
import type { DocumentConverter } from '#app/services/documents/converter.server.ts'
import { addJob } from '#app/services/jobs/queue.server.ts'
import type { FileStorage } from '#app/services/storage/storage.ts'
import type { Database } from '#db/types.ts'
import { fileTypeOf, isOfficeKind, OFFICE_CONTENT_TYPES, OFFICE_EXTENSIONS, storedFileName } from './materials.ts'
import { previewKeyOf, unsharedKeys } from './stored-files.server.ts'

export const MAKE_PREVIEW_TASK = 'make-document-preview'

/**
 * Asks for a preview of every Office file (of these weeks, or all) whose current file has
 * none yet, in the caller's transaction: the items are marked pending and a job is added
 * for each. `retryUnavailable` also asks again for those marked when no converter was found.
 */
export async function requestDocumentPreviews(
	db: Kysely<Database>,
	{ weekIds, retryUnavailable = false }: { weekIds?: number[]; retryUnavailable?: boolean } = {},
) {
	if (weekIds?.length === 0) return 0
	const officeFile = sql<boolean>`(storage_key ~* ${`\\.(${OFFICE_EXTENSIONS.join('|')})$`} OR mime_type = ANY(${OFFICE_CONTENT_TYPES}))`
	let query = db
		.selectFrom('material_items')
		.select(['id', 'storage_key', 'mime_type'])
		.where('storage_key', 'is not', null)
		.where(officeFile)
		.where((eb) =>
			eb.or([
				eb('preview_for_key', 'is', null),
				eb('preview_for_key', '<>', eb.ref('storage_key')),
				...(retryUnavailable ? [eb('preview_status', '=', 'unavailable')] : []),
			]),
		)
	if (weekIds) query = query.where('material_id', 'in', weekIds)
	const candidates = (await query.execute()).filter((item) =>
		isOfficeKind(fileTypeOf(storedFileName(item.storage_key!), item.mime_type).kind),
	)
	if (candidates.length === 0) return 0
	await db
		.updateTable('material_items')
		.set((eb) => ({ preview_status: 'pending', preview_for_key: eb.ref('storage_key') }))
		.where(
			'id',
			'in',
			candidates.map((item) => item.id),
		)
		.execute()
	for (const item of candidates) {
		await addJob(db, MAKE_PREVIEW_TASK, { itemId: item.id }, { jobKey: `${MAKE_PREVIEW_TASK}:${item.id}`, maxAttempts: 3 })
	}
	return candidates.length
}

export type PreviewOutcome = 'ready' | 'unavailable' | 'missing' | 'skipped'

/**
 * The job: converts an item's current file and stores the PDF. Throws when the conversion
 * fails, so the job system tries again; `markPreviewFailed` records the last failure.
 */
export async function makeDocumentPreview(
	db: Kysely<Database>,
	storage: FileStorage,
	converter: DocumentConverter | null,
	itemId: number,
): Promise<PreviewOutcome> {
	const item = await db
		.selectFrom('material_items')
		.select(['storage_key', 'mime_type', 'preview_status', 'preview_for_key'])
		.where('id', '=', itemId)
		.executeTakeFirst()
	const key = item?.storage_key
	if (!key || item.preview_for_key !== key || item.preview_status === 'ready') return 'skipped'
	const setStatus = (status: 'ready' | 'unavailable' | 'failed') =>
		db
			.updateTable('material_items')
			.set({ preview_status: status })
			.where('id', '=', itemId)
			.where('preview_for_key', '=', key)
			.returning('id')
			.executeTakeFirst()
	if (!converter) {
		await setStatus('unavailable')
		return 'unavailable'
	}
	const object = await storage.get(key)
	if (!object) {
		await setStatus('failed')
		return 'missing'
	}
	const chunks: Uint8Array[] = []
	for await (const chunk of object.body) chunks.push(chunk as Uint8Array)
	const pdf = await converter.toPdf(Buffer.concat(chunks), storedFileName(key))
	await storage.put(previewKeyOf(key), pdf, { contentType: 'application/pdf' })
	// The file was replaced or deleted while it was converted: this preview belongs to nothing, unless another
	// course's copy of the item still shows it.
	if (!(await setStatus('ready')) && (await unsharedKeys(db, [key])).length > 0) await storage.delete(previewKeyOf(key))
	return 'ready'
}

/** After the last attempt failed: the viewer falls back to the online viewer and the download. */
export async function markPreviewFailed(db: Kysely<Database>, itemId: number) {
	await db
		.updateTable('material_items')
		.set({ preview_status: 'failed' })
		.where('id', '=', itemId)
		.where('preview_status', '=', 'pending')
		.execute()
}
