import { fileTypeOf, isInlineKind, storedFileName } from '#app/models/materials/materials.ts'
import { fileResponse } from '#app/services/storage/file-response.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { readableMaterialFile } from './+shared/material-access.server.ts'
import type { Route } from './+types/material-file'

/**
 * A material file, for an admin or a student with an active or completed enrollment in its course only.
 * Links (YouTube) have no file here.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const readable = await readableMaterialFile(request, params.itemId)
	if ('refusal' in readable) return readable.refusal
	const { item } = readable
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
