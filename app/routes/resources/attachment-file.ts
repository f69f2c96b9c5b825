import { data } from 'react-router'
import { findAttachmentForUser } from '#app/models/messaging/messages.server.ts'
import { isPreviewable } from '#app/models/messaging/messages.ts'
import { fileResponse } from '#app/services/storage/file-response.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import type { Route } from './+types/attachment-file'

/**
 * A message attachment, for the two parties of its message only (an
 * announcement's for those who may read it: its course's students, or everyone). Images of the previewable types
 * are served inline, anything else as a download; the name and type are the
 * server's, never the uploader's raw input.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const attachmentId = parseRowId(params.attachmentId)
	if (attachmentId === null) throw data('Attachment not found', { status: 404 })
	const found = await findAttachmentForUser(getDb(), { attachmentId, reader: { userId: user.id, isAdmin: user.isAdmin } })
	if (found.status === 'not-found') throw data('Attachment not found', { status: 404 })
	if (found.status === 'forbidden') throw data('You do not have access to this attachment', { status: 403 })
	const { attachment } = found

	const inline = isPreviewable(attachment.type)
	return fileResponse(request, getStorage(), {
		key: attachment.storage_key,
		fileName: attachment.name,
		contentType: inline ? attachment.type : 'application/octet-stream',
		disposition: inline ? 'inline' : 'attachment',
		cacheControl: 'private, max-age=300',
	})
}
