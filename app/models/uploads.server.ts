import type { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type Insertable, type Kysely, sql } from 'kysely'
import { z } from 'zod'
import { RefusedFileTypeError, sniffType } from '#app/models/attachments.server.ts'
import { recordAudit } from '#app/models/audit-log.server.ts'
import {
	ALLOWED_FILES_TEXT,
	duplicateFileMessage,
	largeVideoWarning,
	MAX_FILES_PER_UPLOAD,
	RECOMMENDED_VIDEO_MB,
	tooLargeMessage,
	UPLOAD_MESSAGES,
	UploadSchema,
	UploadTargetSchema,
} from '#app/models/uploads.ts'
import type { FileStorage } from '#app/services/storage/index.server.ts'
import { materialKey } from '#app/services/storage/keys.ts'
import { MultipartError, parseMultipartForm, UploadTooLargeError } from '#app/utils/multipart.server.ts'
import { readHead } from '#app/utils/streams.server.ts'
import type { ToastInput } from '#app/utils/toast.server.ts'
import type { Database, MaterialCategory, MaterialItemsTable, MaterialType } from '#db/types.ts'

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
export class StorageWriteError extends Error {
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
export async function checkFileType(head: Uint8Array, fileName: string, { videoOnly = false } = {}): Promise<CheckedType> {
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

/** Removes files whose rows are gone or were never written; a failure is logged and leaves an orphan. */
export async function removeStoredFiles(storage: FileStorage, keys: string[]) {
	if (keys.length === 0) return
	try {
		await storage.deleteMany(keys)
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

/** A failed form's answer: the text fields come back as they were sent, with the message. */
export function errorResult(
	fields: FormData,
	message: string,
	options: { field?: string; hideFields?: string[] } = {},
): SubmissionResult<string[]> {
	return parseWithZod(fields, { schema: z.looseObject({}) }).reply({
		...(options.field ? { fieldErrors: { [options.field]: [message] } } : { formErrors: [message] }),
		hideFields: options.hideFields,
	})
}

/** How a failed upload is answered: status, the form's errors and the toast. */
export type UploadFailure = { ok: false; status: number; result: SubmissionResult<string[]>; toast: ToastInput }

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

/** The Upload Materials form's answer to a failure, with the spec's toasts. */
function materialUploadFailure(
	error: unknown,
	context: { fields: FormData; fileName: string | undefined; maxUploadMb: number },
): UploadFailure {
	const { status, message, field } = describeUploadError(error, context)
	const toast: ToastInput =
		status === 413 ? { type: 'error', title: UPLOAD_MESSAGES.tooLargeTitle, description: message } : { type: 'error', title: message }
	return { ok: false, status, result: errorResult(context.fields, message, { field, hideFields: HIDDEN_FIELDS }), toast }
}

type StoredMaterial = { key: string; title: string; category: MaterialCategory; contentType: string; type: MaterialType; size: number }

/** Where an upload's files go: the course and the week (existing, or a week id reserved for it). */
type UploadTarget = { courseId: number; weekId: number; existingTitles: Set<string> }

export type UploadSuccess = {
	ok: true
	courseId: number
	weekNumber: number
	/** Videos above the recommended size: uploaded, with a warning. */
	largeVideos: Array<{ name: string; sizeBytes: number }>
}

/** 'Materials uploaded successfully', with the warning about large videos when there are some. */
export function uploadSuccessToast(outcome: UploadSuccess): ToastInput {
	return {
		type: 'success',
		title: UPLOAD_MESSAGES.success,
		description: outcome.largeVideos.length > 0 ? largeVideoWarning(outcome.largeVideos) : undefined,
	}
}

const FILE_FIELDS: Record<string, MaterialCategory> = { materialFiles: 'material', recordingFiles: 'recording' }
const HIDDEN_FIELDS = Object.keys(FILE_FIELDS)

/**
 * Receives the Upload Materials form. Each file streams through the type check into storage
 * as it arrives, once the fields before it (course, week, topic) have passed; the size limit
 * is enforced while streaming. Only when every file is stored does one transaction write the
 * week and its items; on any failure the files stored so far are removed and no row is written.
 * An upload into an existing week number of the course adds to that week (its topic and, when
 * given, its Zoom link take the new values).
 */
export async function receiveMaterialUpload(
	db: Kysely<Database>,
	storage: FileStorage,
	request: Request,
	{ adminId, maxUploadMb }: { adminId: string; maxUploadMb: number },
): Promise<UploadSuccess | UploadFailure> {
	const stored: StoredMaterial[] = []
	const discarded: Array<{ field: string; name: string }> = []
	const namesInUpload = new Set<string>()
	let seenFields = new FormData()
	let currentFile: string | undefined
	let target: Promise<UploadTarget | null> | undefined

	let fields: FormData
	try {
		const parsed = await parseMultipartForm(request, {
			maxFileBytes: maxUploadMb * 1024 * 1024,
			maxFiles: MAX_FILES_PER_UPLOAD,
			maxFieldBytes: 8 * 1024,
			onFile: async (file, fieldsSoFar) => {
				seenFields = fieldsSoFar
				currentFile = file.fileName
				target ??= resolveTarget(db, fieldsSoFar)
				const resolved = await target
				const category = FILE_FIELDS[file.fieldName]
				if (!resolved || !category) {
					// The form's own errors are reported once every field has arrived.
					discarded.push({ field: file.fieldName, name: file.fileName })
					await discardFile(file.stream)
					return
				}
				const title = fileTitle(file.fileName)
				const folded = title.toLowerCase()
				if (resolved.existingTitles.has(folded) || namesInUpload.has(folded)) {
					throw new UploadRefusal(duplicateFileMessage(title), 409)
				}
				namesInUpload.add(folded)
				const key = materialKey(resolved.courseId, resolved.weekId, category, file.fileName)
				const saved = await storeCheckedFile(storage, { fileName: title, stream: file.stream, key, videoOnly: category === 'recording' })
				stored.push({ ...saved, title, category })
			},
		})
		fields = parsed.fields
	} catch (error) {
		await removeStoredFiles(
			storage,
			stored.map((file) => file.key),
		)
		return materialUploadFailure(error, { fields: seenFields, fileName: currentFile, maxUploadMb })
	}

	// The parser consumed the file parts: their names stand in for them, so the schema sees what was sent.
	for (const file of stored) fields.append(file.category === 'recording' ? 'recordingFiles' : 'materialFiles', file.title)
	for (const file of discarded) if (FILE_FIELDS[file.field]) fields.append(file.field, file.name)
	const submission = parseWithZod(fields, { schema: UploadSchema })
	if (submission.status !== 'success') {
		await removeStoredFiles(
			storage,
			stored.map((file) => file.key),
		)
		return {
			ok: false,
			status: 400,
			result: submission.reply({ hideFields: HIDDEN_FIELDS }),
			toast: { type: 'error', title: submission.error?.['']?.[0] ?? 'Please correct the highlighted fields.' },
		}
	}
	const value = submission.value
	const reserved = target ? await target : null

	try {
		await db.transaction().execute(async (trx) => {
			const course = await trx.selectFrom('courses').select('id').where('id', '=', value.courseId).forUpdate().executeTakeFirst()
			if (!course) throw new UploadRefusal('The selected course no longer exists.', 404)
			const zoomLink = value.addZoom ? value.zoomLink : undefined
			let week = await trx
				.selectFrom('course_materials')
				.select('id')
				.where('course_id', '=', value.courseId)
				.where('week_number', '=', value.weekNumber)
				.orderBy('id')
				.executeTakeFirst()
			if (week) {
				await trx
					.updateTable('course_materials')
					.set({ topic: value.topic, updated_at: new Date(), ...(zoomLink ? { zoom_link: zoomLink } : {}) })
					.where('id', '=', week.id)
					.execute()
			} else {
				// The files already carry the reserved week id in their keys; use it unless another
				// week took it meanwhile (then the keys merely name a different week).
				const reservedId = reserved && reserved.courseId === value.courseId ? reserved.weekId : undefined
				const taken = reservedId
					? await trx.selectFrom('course_materials').select('id').where('id', '=', reservedId).executeTakeFirst()
					: undefined
				week = await trx
					.insertInto('course_materials')
					.values({
						...(reservedId && !taken ? { id: reservedId } : {}),
						course_id: value.courseId,
						week_number: value.weekNumber,
						topic: value.topic,
						zoom_link: zoomLink ?? null,
					})
					.returning('id')
					.executeTakeFirstOrThrow()
			}
			const weekId = week.id
			// Another upload may have added a file of the same name since the check before storing.
			const titles = await trx.selectFrom('material_items').select('title').where('material_id', '=', weekId).execute()
			const existing = new Set(titles.map((row) => row.title.toLowerCase()))
			const duplicate = stored.find((file) => existing.has(file.title.toLowerCase()))
			if (duplicate) throw new UploadRefusal(duplicateFileMessage(duplicate.title), 409)

			const items: Array<Insertable<MaterialItemsTable>> = stored.map((file) => ({
				material_id: weekId,
				title: file.title,
				type: file.type,
				category: file.category,
				storage_key: file.key,
				mime_type: file.contentType,
				size_bytes: file.size,
			}))
			if (value.youtubeUrl) {
				items.push({
					material_id: weekId,
					title: `YouTube: ${value.topic}`.slice(0, 300),
					type: 'video',
					category: 'recording',
					file_url: value.youtubeUrl,
				})
			}
			if (items.length > 0) await trx.insertInto('material_items').values(items).execute()
			await recordAudit(trx, {
				actorId: adminId,
				action: 'materials.upload',
				entity: 'course_material',
				entityId: weekId,
				details: {
					courseId: value.courseId,
					weekNumber: value.weekNumber,
					files: stored.map((file) => file.title),
					youtube: value.youtubeUrl ?? null,
					zoomLink: zoomLink ?? null,
				},
			})
		})
	} catch (error) {
		await removeStoredFiles(
			storage,
			stored.map((file) => file.key),
		)
		return materialUploadFailure(error, { fields, fileName: undefined, maxUploadMb })
	}

	return {
		ok: true,
		courseId: value.courseId,
		weekNumber: value.weekNumber,
		largeVideos: stored
			.filter((file) => file.type === 'video' && file.size > RECOMMENDED_VIDEO_MB * 1024 * 1024)
			.map((file) => ({ name: file.title, sizeBytes: file.size })),
	}
}

/**
 * Checks the fields sent before the first file. When they are fine, the week the files go to:
 * the course's week of that number, or a new week id taken from the sequence now so that the
 * files' keys can carry it before the row exists. Null when they are not fine.
 */
async function resolveTarget(db: Kysely<Database>, fields: FormData): Promise<UploadTarget | null> {
	const parsed = UploadTargetSchema.safeParse({
		courseId: fields.get('courseId') || undefined,
		weekNumber: fields.get('weekNumber') || undefined,
		topic: fields.get('topic') ?? undefined,
	})
	if (!parsed.success) return null
	const { courseId, weekNumber } = parsed.data
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
