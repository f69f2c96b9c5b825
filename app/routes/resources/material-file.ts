import { createReadableStreamFromReadable } from '@react-router/node'
import { redirect } from 'react-router'
import { z } from 'zod'
import { fileTypeOf, isInlineKind, storedFileName } from '#app/components/viewer/file-kind.ts'
import { canAccessCourse, getMaterialItem } from '#app/models/materials.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import type { Route } from './+types/material-file'

const ItemIdSchema = z.coerce.number().int().positive().max(2_147_483_647)

/** A presigned link outlives the page that used it only by a few minutes. */
const PRESIGNED_URL_SECONDS = 5 * 60

/**
 * A material file, for an admin or a student with an active enrollment in its course only.
 * Streams from local disk with Range support (so videos seek), or redirects to a short-lived
 * presigned URL when the store offers one. Links (YouTube) have no file here. The server adds
 * X-Content-Type-Options: nosniff to every response.
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
	const storage = getStorage()

	const presigned = await storage.presignedUrl(item.storageKey, {
		expiresInSeconds: PRESIGNED_URL_SECONDS,
		downloadName: fileName,
		disposition,
		contentType: type.contentType,
	})
	if (presigned) return redirect(presigned, { headers: { 'Cache-Control': 'private, no-store' } })

	const stat = await storage.stat(item.storageKey)
	if (!stat) return textResponse('File not found', 404)
	const headers = new Headers({
		'Content-Type': type.contentType,
		'Content-Disposition': contentDisposition(disposition, fileName),
		// no-transform: compressing would break byte ranges and Content-Length.
		'Cache-Control': 'private, max-age=300, no-transform',
		'Accept-Ranges': 'bytes',
		'Last-Modified': stat.lastModified.toUTCString(),
	})

	const range = parseRange(request.headers.get('Range'), stat.size)
	if (range === 'unsatisfiable') {
		headers.set('Content-Range', `bytes */${stat.size}`)
		return new Response(null, { status: 416, headers })
	}
	const length = range ? range.end - range.start + 1 : stat.size
	headers.set('Content-Length', String(length))
	if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`)
	const status = range ? 206 : 200
	if (request.method === 'HEAD') return new Response(null, { status, headers })

	const object = await storage.get(item.storageKey, range ?? undefined)
	if (!object) return textResponse('File not found', 404)
	return new Response(createReadableStreamFromReadable(object.body), { status, headers })
}

function textResponse(message: string, status: number) {
	return new Response(message, {
		status,
		headers: {
			'Content-Type': 'text/plain; charset=utf-8',
			'Cache-Control': 'private, no-store',
		},
	})
}

/** The server-chosen name, as a plain ASCII fallback and as RFC 5987 UTF-8. */
function contentDisposition(disposition: 'inline' | 'attachment', fileName: string) {
	const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')
	return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/**
 * One byte range of `Range: bytes=…` (RFC 9110), clamped to the file. Several ranges or a
 * malformed header are ignored (the whole file is sent), as the RFC allows.
 */
function parseRange(header: string | null, size: number): { start: number; end: number } | 'unsatisfiable' | null {
	const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null
	if (!match) return null
	const [, startText = '', endText = ''] = match
	if (!startText && !endText) return null
	if (!startText) {
		const suffix = Number(endText)
		if (suffix === 0 || size === 0) return 'unsatisfiable'
		return { start: Math.max(0, size - suffix), end: size - 1 }
	}
	const start = Number(startText)
	const end = endText ? Number(endText) : size - 1
	if (end < start) return null
	if (start >= size) return 'unsatisfiable'
	return { start, end: Math.min(end, size - 1) }
}
