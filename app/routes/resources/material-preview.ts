import { previewKeyOf } from '#app/models/document-previews.server.ts'
import { canAccessCourse, getMaterialItem } from '#app/models/materials.server.ts'
import { previewStateOf, storedFileName } from '#app/models/materials.ts'
import { fileResponse, textResponse } from '#app/services/storage/file-response.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import type { Route } from './+types/material-preview'

const ItemIdSchema = rowIdSchema()

/** The PDF preview of an Office material (docs/decisions/028), for whoever may read the material itself. */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const id = ItemIdSchema.safeParse(params.itemId)
	const db = getDb()
	const item = id.success ? await getMaterialItem(db, id.data) : null
	if (!item?.storageKey) return textResponse('Preview not found', 404)
	if (!(await canAccessCourse(db, user, item.courseId))) {
		return textResponse("You don't have permission to access this file", 403)
	}
	if (previewStateOf(item) !== 'ready') return textResponse('Preview not found', 404)
	return fileResponse(request, getStorage(), {
		key: previewKeyOf(item.storageKey),
		fileName: `${storedFileName(item.storageKey).replace(/\.[^.]+$/, '')}.pdf`,
		contentType: 'application/pdf',
		disposition: 'inline',
		cacheControl: 'private, max-age=300',
	})
}
