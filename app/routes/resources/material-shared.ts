import { getMaterialItem } from '#app/models/materials/materials.server.ts'
import { fileTypeOf, isOfficeKind, storedFileName } from '#app/models/materials/materials.ts'
import { fileResponse, textResponse } from '#app/services/storage/file-response.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { isValidSignedPath } from '#app/services/storage/signed-links.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import type { Route } from './+types/material-shared'

/**
 * An Office material through a short-lived signed link, for the online document viewer,
 * which fetches it without the student's session (docs/decisions/028). The material viewer
 * makes the link after checking the student's access; nothing else does.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const url = new URL(request.url)
	if (!isValidSignedPath(getEnv().SESSION_SECRET, url.pathname, url.searchParams)) {
		return textResponse('This link has expired', 403)
	}
	const id = parseRowId(params.itemId)
	const item = id !== null ? await getMaterialItem(getDb(), id) : null
	if (!item?.storageKey) return textResponse('File not found', 404)
	const fileName = storedFileName(item.storageKey)
	const type = fileTypeOf(fileName, item.mimeType)
	if (!isOfficeKind(type.kind)) return textResponse('File not found', 404)
	return fileResponse(request, getStorage(), {
		key: item.storageKey,
		fileName,
		contentType: type.contentType,
		disposition: 'inline',
		cacheControl: 'private, no-store',
	})
}
