import { fileTypeOf, storedFileName } from '#app/models/materials/materials.ts'
import { fileResponse, textResponse } from '#app/services/storage/file-response.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { parseMaterialKey } from '#app/services/storage/keys.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import type { Route } from './+types/orphan-file'

/**
 * A stored material file by its key, for an admin deciding whether an orphan (a file no row
 * references, docs/decisions/016) may go: downloaded, never shown inline. Only keys of course
 * materials are served, so no other file (an attachment, a submission) can be asked for here.
 */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const key = new URL(request.url).searchParams.get('key') ?? ''
	if (!parseMaterialKey(key)) return textResponse('File not found', 404)
	const fileName = storedFileName(key)
	return fileResponse(request, getStorage(), {
		key,
		fileName,
		contentType: fileTypeOf(fileName, null).contentType,
		disposition: 'attachment',
		cacheControl: 'private, no-store',
	})
}
