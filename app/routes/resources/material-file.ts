import { canAccessCourse, getMaterialItem } from '#app/models/materials.server.ts'
import { fileTypeOf, isInlineKind, storedFileName } from '#app/models/materials.ts'
import { fileResponse, textResponse } from '#app/services/storage/file-response.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import type { Route } from './+types/material-file'

const ItemIdSchema = rowIdSchema()

/**
 * A material file, for an admin or a student with an active enrollment in its course only.
 * Links (YouTube) have no file here.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const id = ItemIdSchema.safeParse(params.itemId)
	const db = getDb()
	const item = id.success ? await getMaterialItem(db, id.data) : null
	if (!item?.storageKey) return textResponse('File not found', 404)
	if (!(await canAccessCourse(db, user, item.courseId))) {
		return textResponse("You don't have permission to access this file", 403)
	}

	const fileName = storedFileName(item.storageKey)
	const type = fileTypeOf(fileName, item.mimeType)
	const wantsDownload = new URL(request.url).searchParams.has('download')
	const disposition = !wantsDownload && isInlineKind(type.kind) ? 'inline' : 'attachment'
	return fileResponse(request, getStorage(), {
		key: item.storageKey,
		fileName,
		contentType: type.contentType,
		disposition,
		cacheControl: 'private, max-age=300',
	})
}
