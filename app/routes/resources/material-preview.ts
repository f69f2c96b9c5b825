import { previewStateOf, storedFileName } from '#app/models/materials/materials.ts'
import { previewKeyOf } from '#app/models/materials/stored-files.server.ts'
import { fileResponse, textResponse } from '#app/services/storage/file-response.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { readableMaterialFile } from './+shared/material-access.server.ts'
import type { Route } from './+types/material-preview'

/** The PDF preview of an Office material (docs/decisions/028), for whoever may read the material itself. */
export async function loader({ request, params }: Route.LoaderArgs) {
	const readable = await readableMaterialFile(request, params.itemId)
	if ('refusal' in readable) return readable.refusal
	const { item } = readable
	if (previewStateOf(item) !== 'ready') return textResponse('Preview not found', 404)
	return fileResponse(request, getStorage(), {
		key: previewKeyOf(item.storageKey),
		fileName: `${storedFileName(item.storageKey).replace(/\.[^.]+$/, '')}.pdf`,
		contentType: 'application/pdf',
		disposition: 'inline',
		cacheControl: 'private, max-age=300',
	})
}
