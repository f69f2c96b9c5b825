import { parseWithZod } from '@conform-to/zod/v4'
import {
	describeUploadError,
	discardFile,
	findUploadTarget,
	removeStoredFiles,
	type StoredMaterial,
	saveMaterialUpload,
	storeMaterialFile,
	UploadRefusal,
	type UploadSuccess,
	type UploadTarget,
} from '#app/models/materials/uploads.server.ts'
import {
	largeVideoWarning,
	MAX_FILES_PER_UPLOAD,
	UPLOAD_MESSAGES,
	UploadSchema,
	UploadTargetSchema,
	weekSavedMessage,
} from '#app/models/materials/uploads.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { errorReply, type FormFailure } from '#app/utils/form-reply.server.ts'
import { parseMultipartForm } from '#app/utils/multipart.server.ts'
import type { ToastInput } from '#app/utils/toast.server.ts'
import type { MaterialCategory } from '#db/types.ts'

const FILE_FIELDS: Record<string, MaterialCategory> = { materialFiles: 'material', recordingFiles: 'recording' }
const HIDDEN_FIELDS = Object.keys(FILE_FIELDS)

type UploadFailure = FormFailure & { toast: ToastInput }

/** The Upload Materials form's answer to a failure, with the spec's toasts. */
function uploadFailure(error: unknown, context: { fields: FormData; fileName: string | undefined; maxUploadMb: number }): UploadFailure {
	const { status, message, field } = describeUploadError(error, context)
	const toast: ToastInput =
		status === 413 ? { type: 'error', title: UPLOAD_MESSAGES.tooLargeTitle, description: message } : { type: 'error', title: message }
	return { ok: false, status, result: errorReply(context.fields, message, { field, hideFields: HIDDEN_FIELDS }), toast }
}

/** 'Materials uploaded successfully', with the warning about large videos when there are some; 'Week N saved' for a week's details alone. */
export function uploadSuccessToast(outcome: UploadSuccess): ToastInput {
	if (outcome.added === 0) return { type: 'success', title: weekSavedMessage(outcome.weekNumber) }
	return {
		type: 'success',
		title: UPLOAD_MESSAGES.success,
		description: outcome.largeVideos.length > 0 ? largeVideoWarning(outcome.largeVideos) : undefined,
	}
}

/** Whether the person sending the upload may add materials to the course the form names. */
export type CourseAllowed = (courseId: number) => Promise<boolean>

/** The answer to a course the sender may not use: the answer to a course that does not exist (docs/decisions/056). */
const courseRefused = () => new UploadRefusal('The selected course no longer exists.', 404)

/** The week the fields sent before the first file point at, or null when they are not fine or name a course the sender may not use. */
async function targetOf(fields: FormData, courseAllowed: CourseAllowed): Promise<UploadTarget | null> {
	const parsed = UploadTargetSchema.safeParse({
		courseId: fields.get('courseId') || undefined,
		weekNumber: fields.get('weekNumber') || undefined,
		topic: fields.get('topic') ?? undefined,
	})
	if (!parsed.success || !(await courseAllowed(parsed.data.courseId))) return null
	return findUploadTarget(getDb(), parsed.data)
}

/**
 * Receives the Upload Materials form (Upload Materials and a course's Manage Materials). Each
 * file streams through the type check into storage as it arrives, once the fields before it
 * (course, week, topic) have passed; the size limit is enforced while streaming. Only when
 * every file is stored is the upload written (saveMaterialUpload); on any failure the files
 * stored so far are removed and no row is written. The course the form names (a field of the
 * body, so a forged one too) is asked of `courseAllowed` before a file is stored and again before
 * the upload is written: a course the sender may not use is answered as one that does not exist.
 */
export async function receiveMaterialUpload(
	request: Request,
	{ adminId, maxUploadMb, courseAllowed }: { adminId: string; maxUploadMb: number; courseAllowed: CourseAllowed },
): Promise<({ ok: true } & UploadSuccess) | UploadFailure> {
	const storage = getStorage()
	const stored: StoredMaterial[] = []
	const discarded: Array<{ field: string; name: string }> = []
	const namesInUpload = new Set<string>()
	let seenFields = new FormData()
	let currentFile: string | undefined
	let target: Promise<UploadTarget | null> | undefined
	const removeStored = () =>
		removeStoredFiles(
			getDb(),
			storage,
			stored.map((file) => file.key),
		)

	let fields: FormData
	try {
		const parsed = await parseMultipartForm(request, {
			maxFileBytes: maxUploadMb * 1024 * 1024,
			maxFiles: MAX_FILES_PER_UPLOAD,
			maxFieldBytes: 8 * 1024,
			onFile: async (file, fieldsSoFar) => {
				seenFields = fieldsSoFar
				currentFile = file.fileName
				target ??= targetOf(fieldsSoFar, courseAllowed)
				const resolved = await target
				const category = FILE_FIELDS[file.fieldName]
				if (!resolved || !category) {
					// The form's own errors are reported once every field has arrived.
					discarded.push({ field: file.fieldName, name: file.fileName })
					await discardFile(file.stream)
					return
				}
				stored.push(await storeMaterialFile(storage, resolved, { category, fileName: file.fileName, stream: file.stream, namesInUpload }))
			},
		})
		fields = parsed.fields
	} catch (error) {
		await removeStored()
		return uploadFailure(error, { fields: seenFields, fileName: currentFile, maxUploadMb })
	}

	// The parser consumed the file parts: their names stand in for them, so the schema sees what was sent.
	for (const file of stored) fields.append(file.category === 'recording' ? 'recordingFiles' : 'materialFiles', file.title)
	for (const file of discarded) if (FILE_FIELDS[file.field]) fields.append(file.field, file.name)
	const submission = parseWithZod(fields, { schema: UploadSchema })
	if (submission.status !== 'success') {
		await removeStored()
		return {
			ok: false,
			status: 400,
			result: submission.reply({ hideFields: HIDDEN_FIELDS }),
			toast: { type: 'error', title: submission.error?.['']?.[0] ?? 'Please correct the highlighted fields.' },
		}
	}
	if (!(await courseAllowed(submission.value.courseId))) {
		await removeStored()
		return uploadFailure(courseRefused(), { fields, fileName: undefined, maxUploadMb })
	}
	try {
		const saved = await saveMaterialUpload(getDb(), {
			adminId,
			upload: submission.value,
			files: stored,
			reservedWeek: target ? await target : null,
		})
		return { ok: true, ...saved }
	} catch (error) {
		await removeStored()
		return uploadFailure(error, { fields, fileName: undefined, maxUploadMb })
	}
}
