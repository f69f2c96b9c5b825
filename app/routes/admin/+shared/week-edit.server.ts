import { parseWithZod } from '@conform-to/zod/v4'
import { type StoredReplacement, saveWeekEdit } from '#app/models/materials/materials-admin.server.ts'
import { type AdminWeek, MAX_NEW_MATERIALS, WeekEditSchema, weekEditChangesNothing } from '#app/models/materials/materials-admin.ts'
import { describeUploadError, discardFile, fileTitle, removeStoredFiles, storeCheckedFile } from '#app/models/materials/uploads.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { materialKey } from '#app/services/storage/keys.ts'
import { getDb } from '#app/utils/db.server.ts'
import { errorReply, type FormFailure } from '#app/utils/form-reply.server.ts'
import { parseMultipartForm } from '#app/utils/multipart.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import type { MaterialCategory } from '#db/types.ts'

/** Conform's field for list changes ('Add Material', 'Remove'). */
const FORM_INTENT = '__intent__'
const FILE_FIELD = /^(materials|newMaterials)\[(\d+)\]\.file$/

/**
 * Receives the Edit Week & Materials form. Replacement and new files stream into storage first
 * (typed by their content, size-limited while streaming); then saveWeekEdit writes everything
 * in one transaction, and the files it replaced or deleted are removed after commit. On any
 * failure the new files are removed and nothing changes; a save that changes nothing writes nothing
 * (`changed: false`). A post that only adds or removes rows
 * (without JavaScript) answers 200 with the form and no toast.
 */
export async function receiveWeekEdit(
	request: Request,
	{ adminId, week, courseId, maxUploadMb }: { adminId: string; week: AdminWeek; courseId: number; maxUploadMb: number },
): Promise<{ ok: true; changed: boolean } | FormFailure> {
	const storage = getStorage()
	const stored = new Map<string, StoredReplacement>()
	const fileFields = new Set<string>()
	const itemIds = new Set(week.items.map((item) => item.id))
	let seenFields = new FormData()
	let currentFile: string | undefined
	const rows = week.items.length + MAX_NEW_MATERIALS
	const removeStored = () =>
		removeStoredFiles(
			getDb(),
			storage,
			[...stored.values()].map((file) => file.key),
		)

	const fail = async (error: unknown, fields: FormData): Promise<FormFailure> => {
		await removeStored()
		const described = describeUploadError(error, { fileName: currentFile, maxUploadMb })
		const reason = described.known ? described.message : 'Unknown error'
		return {
			ok: false,
			status: described.status,
			result: errorReply(fields, `Failed to update: ${reason}`, { field: described.field, hideFields: [...fileFields] }),
			toast: { type: 'error', title: `Failed to update: ${reason}` },
		}
	}

	let fields: FormData
	try {
		const parsed = await parseMultipartForm(request, {
			maxFileBytes: maxUploadMb * 1024 * 1024,
			maxFiles: rows,
			maxFields: 10 + rows * 5,
			maxFieldBytes: 8 * 1024,
			onFile: async (file, fieldsSoFar) => {
				seenFields = fieldsSoFar
				currentFile = file.fileName
				const match = FILE_FIELD.exec(file.fieldName)
				const prefix = match ? `${match[1]}[${match[2]}]` : ''
				// An existing item's hidden id comes before its file input: a file for another week's item is not taken.
				const known = match?.[1] === 'newMaterials' || (match && itemIds.has(parseRowId(fieldsSoFar.get(`${prefix}.id`)) ?? 0))
				// 'Add Material' and 'Remove' without JavaScript post the form to change its rows, not to save.
				if (!match || !known || Number(match[2]) >= rows || fieldsSoFar.has(FORM_INTENT)) {
					await discardFile(file.stream)
					return
				}
				fileFields.add(file.fieldName)
				const category: MaterialCategory = fieldsSoFar.get(`${prefix}.category`) === 'recording' ? 'recording' : 'material'
				const fileName = fileTitle(file.fileName)
				const key = materialKey(courseId, week.id, category, file.fileName)
				const saved = await storeCheckedFile(storage, { fileName, stream: file.stream, key })
				stored.set(file.fieldName, { ...saved, fileName })
			},
		})
		fields = parsed.fields
	} catch (error) {
		return fail(error, seenFields)
	}

	// The parser consumed the file parts: their names stand in for them, so the schema sees what was sent.
	for (const [name, file] of stored) fields.set(name, file.fileName)
	const submission = parseWithZod(fields, { schema: WeekEditSchema })
	if (submission.status !== 'success') {
		await removeStored()
		const rowsChanged = submission.status === undefined
		return {
			ok: false,
			status: rowsChanged ? 200 : 400,
			result: submission.reply({ hideFields: [...fileFields] }),
			toast: rowsChanged ? undefined : { type: 'error', title: 'Failed to update: please correct the highlighted fields.' },
		}
	}

	// Nothing to write, and nothing to record in the audit log.
	if (stored.size === 0 && weekEditChangesNothing(week, submission.value)) return { ok: true, changed: false }

	let unreferenced: string[]
	try {
		unreferenced = await saveWeekEdit(getDb(), { adminId, courseId, weekId: week.id, value: submission.value, stored })
	} catch (error) {
		return fail(error, fields)
	}
	await removeStoredFiles(getDb(), storage, unreferenced)
	return { ok: true, changed: true }
}
