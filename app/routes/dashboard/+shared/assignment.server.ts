import { parseWithZod } from '@conform-to/zod/v4'
import { type SubmittedFile, saveSubmission } from '#app/models/materials/assignments.server.ts'
import { SubmitAssignmentSchema } from '#app/models/materials/assignments.ts'
import { describeUploadError, discardFile, fileTitle, removeStoredFiles, storeCheckedFile } from '#app/models/materials/uploads.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { submissionKey } from '#app/services/storage/keys.ts'
import { getDb } from '#app/utils/db.server.ts'
import { errorReply, type FormFailure } from '#app/utils/form-reply.server.ts'
import { parseMultipartForm } from '#app/utils/multipart.server.ts'

/**
 * Receives a student's answer: text and/or one file, the file streamed into storage (typed by
 * its content, size-limited while streaming) before saveSubmission writes the answer. On any
 * failure the new file is removed; the file a new one replaced is removed after the save.
 */
export async function receiveSubmission(
	request: Request,
	{ studentId, assignmentId, maxUploadMb }: { studentId: string; assignmentId: number; maxUploadMb: number },
): Promise<{ ok: true } | FormFailure> {
	const storage = getStorage()
	let stored: SubmittedFile | undefined
	let seenFields = new FormData()
	let currentFile: string | undefined
	const fail = async (error: unknown, fields: FormData): Promise<FormFailure> => {
		if (stored) await removeStoredFiles(getDb(), storage, [stored.key])
		const { status, message, field } = describeUploadError(error, { fileName: currentFile, maxUploadMb })
		return {
			ok: false,
			status,
			result: errorReply(fields, message, { field, hideFields: ['file'] }),
			toast: { type: 'error', title: message },
		}
	}

	let fields: FormData
	try {
		const parsed = await parseMultipartForm(request, {
			maxFileBytes: maxUploadMb * 1024 * 1024,
			maxFieldBytes: 80 * 1024,
			onFile: async (file, fieldsSoFar) => {
				seenFields = fieldsSoFar
				currentFile = file.fileName
				if (file.fieldName !== 'file') {
					await discardFile(file.stream)
					return
				}
				const fileName = fileTitle(file.fileName)
				const key = submissionKey(assignmentId, studentId, file.fileName)
				const saved = await storeCheckedFile(storage, { fileName, stream: file.stream, key })
				stored = { key, contentType: saved.contentType, size: saved.size, fileName }
			},
		})
		fields = parsed.fields
	} catch (error) {
		return fail(error, seenFields)
	}

	if (stored) fields.set('file', stored.fileName)
	const submission = parseWithZod(fields, { schema: SubmitAssignmentSchema })
	if (submission.status !== 'success') {
		if (stored) await removeStoredFiles(getDb(), storage, [stored.key])
		return {
			ok: false,
			status: 400,
			result: submission.reply({ hideFields: ['file'] }),
			toast: { type: 'error', title: submission.error?.['']?.[0] ?? 'Please correct the highlighted fields.' },
		}
	}
	let replacedKey: string | null
	try {
		replacedKey = await saveSubmission(getDb(), { studentId, assignmentId, body: submission.value.body, file: stored })
	} catch (error) {
		return fail(error, fields)
	}
	if (replacedKey) await removeStoredFiles(getDb(), storage, [replacedKey])
	return { ok: true }
}
