import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { type Insertable, type Kysely, sql } from 'kysely'
import { RefusedFileTypeError, sniffType } from '#app/models/messaging/attachments.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { addJob } from '#app/services/jobs/queue.server.ts'
import type { FileStorage } from '#app/services/storage/index.server.ts'
import { materialKey } from '#app/services/storage/keys.ts'
import { MultipartError, UploadTooLargeError } from '#app/utils/multipart.server.ts'
import { readHead } from '#app/utils/stream-head.server.ts'
import type { Database, MaterialCategory, MaterialItemsTable, MaterialType } from '#db/types.ts'
import { requestDocumentPreviews } from './document-previews.server.ts'
import { COURSE_UPDATE_TASK, type CourseUpdate } from './materials.ts'
import { unsharedKeys, withPreviewKeys } from './stored-files.server.ts'
import {
	ALLOWED_FILES_TEXT,
	duplicateFileMessage,
	RECOMMENDED_VIDEO_MB,
	tooLargeMessage,
	UPLOAD_MESSAGES,
	type UploadValues,
} from './uploads.ts'

/** Enough for file-type to recognise every format it knows, office documents included. */
const SNIFF_BYTES = 64 * 1024

type AllowedType = { extensions: string[]; video?: boolean; contentType?: (extension: string) => string }

const LEGACY_OFFICE: Record<string, string> = {
	doc: 'application/msword',
	xls: 'application/vnd.ms-excel',
	ppt: 'application/vnd.ms-powerpoint',
}
const TEXT: Record<string, string> = { txt: 'text/plain', csv: 'text/csv' }

/** What may be uploaded, by the type sniffed from the bytes, with the file names each may carry. */
const ALLOWED_TYPES: Record<string, AllowedType> = {
	'application/pdf': { extensions: ['pdf'] },
	'image/jpeg': { extensions: ['jpg', 'jpeg'] },
	'image/png': { extensions: ['png'] },
	'image/gif': { extensions: ['gif'] },
	'image/webp': { extensions: ['webp'] },
	'video/mp4': { extensions: ['mp4', 'm4v'], video: true },
	'video/x-m4v': { extensions: ['mp4', 'm4v'], video: true },
	'video/webm': { extensions: ['webm'], video: true },
	'video/quicktime': { extensions: ['mov'], video: true },
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { extensions: ['docx'] },
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { extensions: ['xlsx'] },
	'application/vnd.openxmlformats-officedocument.presentationml.presentation': { extensions: ['pptx'] },
	// Word, Excel and PowerPoint 97–2003 share one container format: the name tells them apart.
	'application/x-cfb': { extensions: Object.keys(LEGACY_OFFICE), contentType: (extension) => LEGACY_OFFICE[extension]! },
	'text/plain': { extensions: Object.keys(TEXT), contentType: (extension) => TEXT[extension]! },
}
const ALLOWED_EXTENSIONS = new Set(Object.values(ALLOWED_TYPES).flatMap((type) => type.extensions))

/** A file, or an upload, the site refuses; `message` is for the person who sent it. */
export class UploadRefusal extends Error {
	override name = 'UploadRefusal'
	readonly status: number
	readonly field: string | undefined
	constructor(message: string, status: number, field?: string) {
		super(message)
		this.status = status
		this.field = field
	}
}

/** The store failed while writing a file: nothing of the upload is kept. */
class StorageWriteError extends Error {
	override name = 'StorageWriteError'
	readonly fileName: string
	constructor(fileName: string, cause: unknown) {
		super(`Could not store ${fileName}`, { cause })
		this.fileName = fileName
	}
}

export type CheckedType = { contentType: string; type: MaterialType }

function extensionOf(fileName: string) {
	const dot = fileName.lastIndexOf('.')
	return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : ''
}

/**
 * Decides a file's type from its first bytes, never from the browser's claim: it must be an
 * allowed type whose content matches the file's extension (a `.pdf` holding HTML is refused);
 * SVG, HTML and scripts never pass.
 */
async function checkFileType(head: Uint8Array, fileName: string, { videoOnly = false } = {}): Promise<CheckedType> {
	if (head.length === 0) throw new UploadRefusal(`"${fileName}" is empty.`, 400)
	const extension = extensionOf(fileName)
	if (!ALLOWED_EXTENSIONS.has(extension)) {
		throw new UploadRefusal(`"${fileName}" is not an allowed file type. Allowed: ${ALLOWED_FILES_TEXT}.`, 415)
	}
	let detected: string
	try {
		detected = await sniffType(head, fileName)
	} catch (error) {
		if (error instanceof RefusedFileTypeError) {
			throw new UploadRefusal(`"${fileName}" cannot be uploaded: its content is a web page or SVG image, which is not allowed.`, 415)
		}
		throw error
	}
	const allowed = ALLOWED_TYPES[detected]
	if (!allowed?.extensions.includes(extension)) {
		throw new UploadRefusal(`"${fileName}" is not a valid .${extension} file: its content does not match its name.`, 415)
	}
	if (videoOnly && !allowed.video) {
		throw new UploadRefusal(`"${fileName}" is not a video. Class recordings must be MP4, WebM or MOV files (or a YouTube link).`, 415)
	}
	return { contentType: allowed.contentType?.(extension) ?? detected, type: allowed.video ? 'video' : 'document' }
}

/** Sniffs a file as it streams in, then streams it into storage under `key`. */
export async function storeCheckedFile(
	storage: FileStorage,
	{ fileName, stream, key, videoOnly }: { fileName: string; stream: Readable; key: string; videoOnly?: boolean },
) {
	const { head, rest } = await readHead(stream, SNIFF_BYTES)
	const checked = await checkFileType(head, fileName, { videoOnly })
	try {
		const { size } = await storage.put(key, rest, { contentType: checked.contentType })
		return { key, ...checked, size }
	} catch (error) {
		if (error instanceof UploadTooLargeError || error instanceof MultipartError) throw error
		throw new StorageWriteError(fileName, error)
	}
}

/** Reads a file part to its end without keeping it (the parser still counts its bytes). */
export async function discardFile(stream: Readable) {
	stream.resume()
	await finished(stream)
}

/**
 * Removes files whose rows are gone or were never written, but for those another material item
 * still uses (a course run again shares them: unsharedKeys); a failure is logged and leaves an orphan.
 */
export async function removeStoredFiles(db: Kysely<Database>, storage: FileStorage, keys: string[]) {
	if (keys.length === 0) return
	try {
		const unshared = await unsharedKeys(db, keys)
		if (unshared.length > 0) await storage.deleteMany(withPreviewKeys(unshared))
	} catch (error) {
		console.error('[uploads] could not delete stored files', keys, error)
	}
}

/**
 * A stored file's display title: the name it was uploaded with, without any folders or control
 * characters (PostgreSQL refuses a NUL in text).
 */
export function fileTitle(fileName: string) {
	return (
		(fileName.split(/[/\\]/).pop() ?? '')
			.replace(/\p{Cc}/gu, '')
			.trim()
			.slice(0, 300) || 'Untitled file'
	)
}

/**
 * What went wrong while receiving a multipart form, in words for the person who sent it.
 * `fileName` is the file that was arriving when it happened; `known` is false when the
 * cause is not one we can name (the spec's generic message is used then).
 */
export function describeUploadError(error: unknown, { fileName, maxUploadMb }: { fileName: string | undefined; maxUploadMb: number }) {
	if (error instanceof UploadTooLargeError) {
		return { status: 413, message: tooLargeMessage(fileName ?? 'The file', maxUploadMb), field: undefined, known: true }
	}
	if (error instanceof UploadRefusal) return { status: error.status, message: error.message, field: error.field, known: true }
	if (error instanceof MultipartError) {
		return { status: 400, message: `The upload could not be read (${error.message}). Please try again.`, field: undefined, known: true }
	}
	if (error instanceof StorageWriteError) {
		console.error('[uploads] storage write failed', error.cause)
		const message = `The file storage could not save "${error.fileName}", so nothing was saved. Please try again later.`
		return { status: 503, message, field: undefined, known: true }
	}
	console.error('[uploads] upload failed', error)
	return { status: 500, message: UPLOAD_MESSAGES.generic, field: undefined, known: false }
}

export type StoredMaterial = {
	key: string
	title: string
	category: MaterialCategory
	contentType: string
	type: MaterialType
	size: number
}

/** Where an upload's files go: the course and the week (existing, or a week id reserved for it). */
export type UploadTarget = { courseId: number; weekId: number; existingTitles: Set<string> }

export type UploadSuccess = {
	courseId: number
	weekNumber: number
	/** Files and links added; 0 when only the week's details were saved. */
	added: number
	/** Videos above the recommended size: uploaded, with a warning. */
	largeVideos: Array<{ name: string; sizeBytes: number }>
}

/**
 * The week an upload's files go to: the course's week of that number, or a new week id taken
 * from the sequence now so that the files' keys can carry it before the row exists. Null when
 * the course does not exist.
 */
export async function findUploadTarget(
	db: Kysely<Database>,
	{ courseId, weekNumber }: { courseId: number; weekNumber: number },
): Promise<UploadTarget | null> {
	const course = await db.selectFrom('courses').select('id').where('id', '=', courseId).executeTakeFirst()
	if (!course) return null
	const week = await db
		.selectFrom('course_materials')
		.select('id')
		.where('course_id', '=', courseId)
		.where('week_number', '=', weekNumber)
		.orderBy('id')
		.executeTakeFirst()
	if (week) {
		const titles = await db.selectFrom('material_items').select('title').where('material_id', '=', week.id).execute()
		return { courseId, weekId: week.id, existingTitles: new Set(titles.map((row) => row.title.toLowerCase())) }
	}
	const { rows } = await sql<{ id: number }>`SELECT nextval(pg_get_serial_sequence('course_materials', 'id'))::integer AS id`.execute(db)
	return { courseId, weekId: rows[0]!.id, existingTitles: new Set() }
}

/**
 * Streams one file of an upload into storage under the target week, refusing a second file of
 * the same name (in the week or in this upload; `namesInUpload` collects them).
 */
export async function storeMaterialFile(
	storage: FileStorage,
	target: UploadTarget,
	{
		category,
		fileName,
		stream,
		namesInUpload,
	}: { category: MaterialCategory; fileName: string; stream: Readable; namesInUpload: Set<string> },
): Promise<StoredMaterial> {
	const title = fileTitle(fileName)
	const folded = title.toLowerCase()
	if (target.existingTitles.has(folded) || namesInUpload.has(folded)) throw new UploadRefusal(duplicateFileMessage(title), 409)
	namesInUpload.add(folded)
	const key = materialKey(target.courseId, target.weekId, category, fileName)
	const saved = await storeCheckedFile(storage, { fileName: title, stream, key, videoOnly: category === 'recording' })
	return { ...saved, title, category }
}

/**
 * Writes an upload whose files are stored: ONE transaction writes the week and its items. An
 * upload into an existing week number of the course adds to that week (its topic and, when
 * given, its Zoom link take the new values). Throws UploadRefusal when the course is gone or
 * a file of the same name arrived meanwhile; the caller removes the stored files then.
 */
export async function saveMaterialUpload(
	db: Kysely<Database>,
	{
		adminId,
		upload,
		files,
		reservedWeek,
	}: { adminId: string; upload: UploadValues; files: StoredMaterial[]; reservedWeek: UploadTarget | null },
): Promise<UploadSuccess> {
	const added = await db.transaction().execute(async (trx) => {
		const course = await trx.selectFrom('courses').select('id').where('id', '=', upload.courseId).forUpdate().executeTakeFirst()
		if (!course) throw new UploadRefusal('The selected course no longer exists.', 404)
		const zoomLink = upload.addZoom ? upload.zoomLink : undefined
		let week = await trx
			.selectFrom('course_materials')
			.select('id')
			.where('course_id', '=', upload.courseId)
			.where('week_number', '=', upload.weekNumber)
			.orderBy('id')
			.executeTakeFirst()
		if (week) {
			await trx
				.updateTable('course_materials')
				.set({ topic: upload.topic, updated_at: new Date(), ...(zoomLink ? { zoom_link: zoomLink } : {}) })
				.where('id', '=', week.id)
				.execute()
		} else {
			// The files already carry the reserved week id in their keys; use it unless another
			// week took it meanwhile (then the keys merely name a different week).
			const reservedId = reservedWeek && reservedWeek.courseId === upload.courseId ? reservedWeek.weekId : undefined
			const taken = reservedId
				? await trx.selectFrom('course_materials').select('id').where('id', '=', reservedId).executeTakeFirst()
				: undefined
			week = await trx
				.insertInto('course_materials')
				.values({
					...(reservedId && !taken ? { id: reservedId } : {}),
					course_id: upload.courseId,
					week_number: upload.weekNumber,
					topic: upload.topic,
					zoom_link: zoomLink ?? null,
				})
				.returning('id')
				.executeTakeFirstOrThrow()
		}
		const weekId = week.id
		// Another upload may have added a file of the same name since the check before storing.
		const titles = await trx.selectFrom('material_items').select('title').where('material_id', '=', weekId).execute()
		const existing = new Set(titles.map((row) => row.title.toLowerCase()))
		const duplicate = files.find((file) => existing.has(file.title.toLowerCase()))
		if (duplicate) throw new UploadRefusal(duplicateFileMessage(duplicate.title), 409)

		const items: Array<Insertable<MaterialItemsTable>> = files.map((file) => ({
			material_id: weekId,
			title: file.title,
			type: file.type,
			category: file.category,
			storage_key: file.key,
			mime_type: file.contentType,
			size_bytes: file.size,
		}))
		if (upload.youtubeUrl) {
			items.push({
				material_id: weekId,
				title: `YouTube: ${upload.topic}`.slice(0, 300),
				type: 'video',
				category: 'recording',
				file_url: upload.youtubeUrl,
			})
		}
		if (items.length > 0) await trx.insertInto('material_items').values(items).execute()
		const recordings = items.filter((item) => item.category === 'recording').map((item) => item.title)
		if (recordings.length > 0) {
			await addJob(trx, COURSE_UPDATE_TASK, { kind: 'recordings-added', weekId, titles: recordings } satisfies CourseUpdate)
		}
		await requestDocumentPreviews(trx, { weekIds: [weekId] })
		await recordAudit(trx, {
			actorId: adminId,
			action: 'materials.upload',
			entity: 'course_material',
			entityId: weekId,
			details: {
				courseId: upload.courseId,
				weekNumber: upload.weekNumber,
				files: files.map((file) => file.title),
				youtube: upload.youtubeUrl ?? null,
				zoomLink: zoomLink ?? null,
			},
		})
		return items.length
	})
	return {
		courseId: upload.courseId,
		weekNumber: upload.weekNumber,
		added,
		largeVideos: files
			.filter((file) => file.type === 'video' && file.size > RECOMMENDED_VIDEO_MB * 1024 * 1024)
			.map((file) => ({ name: file.title, sizeBytes: file.size })),
	}
}
