import { Readable } from 'node:stream'
import { data } from 'react-router'
import { isPreviewable } from '#app/components/messages/attachment-view.tsx'
import { findAttachmentForUser } from '#app/models/messages.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { safeFileName } from '#app/services/storage/keys.ts'
import type { ObjectStream } from '#app/services/storage/storage.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import type { Route } from './+types/attachment-file'

const PRESIGNED_SECONDS = 300

/**
 * A message attachment, for the two parties of its message only (an
 * announcement's for everyone signed in). Images of the previewable types
 * are served inline, anything else as a download; the name and type are the
 * server's, never the uploader's raw input.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const attachmentId = Number(params.attachmentId)
	if (!Number.isSafeInteger(attachmentId) || attachmentId <= 0) throw data('Attachment not found', { status: 404 })
	const found = await findAttachmentForUser(getDb(), { attachmentId, userId: user.id })
	if (found.status === 'not-found') throw data('Attachment not found', { status: 404 })
	if (found.status === 'forbidden') throw data('You do not have access to this attachment', { status: 403 })
	const { attachment } = found

	const inline = isPreviewable(attachment.type)
	const contentType = inline ? attachment.type : 'application/octet-stream'
	const disposition = contentDisposition(inline ? 'inline' : 'attachment', attachment.name)
	const storage = getStorage()

	const presigned = await storage.presignedUrl(attachment.storage_key, {
		expiresInSeconds: PRESIGNED_SECONDS,
		downloadName: attachment.name,
		disposition: inline ? 'inline' : 'attachment',
		contentType,
	})
	if (presigned) {
		return new Response(null, { status: 302, headers: { Location: presigned, 'Cache-Control': 'private, no-store' } })
	}

	const range = parseRange(request.headers.get('Range'))
	let object: ObjectStream | null
	try {
		object = await storage.get(attachment.storage_key, range ?? undefined)
	} catch (error) {
		if (error instanceof RangeError) {
			return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${attachment.size_bytes}` } })
		}
		throw error
	}
	if (!object) throw data('Attachment not found', { status: 404 })

	const headers = new Headers({
		'Content-Type': contentType,
		'Content-Disposition': disposition,
		'X-Content-Type-Options': 'nosniff',
		'Cache-Control': 'private, max-age=300',
		'Accept-Ranges': 'bytes',
	})
	const body = Readable.toWeb(object.body) as ReadableStream<Uint8Array>
	if (object.range) {
		headers.set('Content-Range', `bytes ${object.range.start}-${object.range.end}/${object.size}`)
		headers.set('Content-Length', String(object.range.end - object.range.start + 1))
		return new Response(body, { status: 206, headers })
	}
	headers.set('Content-Length', String(object.size))
	return new Response(body, { status: 200, headers })
}

/** One `bytes=start-end` range (what browsers send); anything else is served whole. */
function parseRange(header: string | null) {
	const match = header ? /^bytes=(\d+)-(\d*)$/.exec(header.trim()) : null
	if (!match) return null
	return { start: Number(match[1]), end: match[2] ? Number(match[2]) : undefined }
}

function contentDisposition(type: 'inline' | 'attachment', name: string) {
	// The uploader's name may carry a path ('../../x'): only its last part is offered, in both forms.
	const base = name.split(/[\\/]/).pop() || 'download'
	const encoded = encodeURIComponent(base).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
	return `${type}; filename="${safeFileName(base)}"; filename*=UTF-8''${encoded}`
}
