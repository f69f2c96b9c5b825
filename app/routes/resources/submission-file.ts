import { getSubmissionFile } from '#app/models/materials/assignments.server.ts'
import { fileResponse, textResponse } from '#app/services/storage/file-response.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import type { Route } from './+types/submission-file'

/**
 * A file handed in with an assignment, for the student who handed it in, the staff of its course
 * and admins.
 * Always a download under the name it was sent with, never rendered by the browser.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const submissionId = parseRowId(params.submissionId)
	const file = submissionId ? await getSubmissionFile(getDb(), user, submissionId) : 'not-found'
	if (file === 'not-found') return textResponse('File not found', 404)
	if (file === 'forbidden') return textResponse("You don't have permission to access this file", 403)

	return fileResponse(request, getStorage(), {
		key: file.storageKey,
		fileName: file.fileName,
		contentType: 'application/octet-stream',
		disposition: 'attachment',
		cacheControl: 'private, no-store',
	})
}
