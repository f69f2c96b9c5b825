import { Readable } from 'node:stream'
import { parseRowId } from '#app/models/admin-courses.server.ts'
import { getSubmissionFile } from '#app/models/assignments.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { contentDisposition } from '#app/services/storage/keys.ts'
import type { ObjectStream } from '#app/services/storage/storage.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import type { Route } from './+types/submission-file'

/** A presigned link outlives the page that used it only by a few minutes. */
const PRESIGNED_SECONDS = 5 * 60

/**
 * A file handed in with an assignment, for the student who handed it in and for admins only.
 * Always a download under the name it was sent with (never rendered by the browser), streamed
 * with Range support or redirected to a short-lived presigned URL.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const submissionId = parseRowId(params.submissionId)
	const file = submissionId ? await getSubmissionFile(getDb(), user, submissionId) : 'not-found'
	if (file === 'not-found') return textResponse('File not found', 404)
	if (file === 'forbidden') return textResponse("You don't have permission to access this file", 403)

	const storage = getStorage()
	const presigned = await storage.presignedUrl(file.storageKey, {
		expiresInSeconds: PRESIGNED_SECONDS,
		downloadName: file.fileName,
		disposition: 'attachment',
		contentType: 'application/octet-stream',
	})
	if (presigned) return new Response(null, { status: 302, headers: { Location: presigned, 'Cache-Control': 'private, no-store' } })

	const range = parseRange(request.headers.get('Range'))
	let object: ObjectStream | null
	try {
		object = await storage.get(file.storageKey, range ?? undefined)
	} catch (error) {
		if (error instanceof RangeError) return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${file.size ?? '*'}` } })
		throw error
	}
	if (!object) return textResponse('File not found', 404)
	const headers = new Headers({
		'Content-Type': 'application/octet-stream',
		'Content-Disposition': contentDisposition('attachment', file.fileName),
		'X-Content-Type-Options': 'nosniff',
		'Cache-Control': 'private, no-store',
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

function textResponse(message: string, status: number) {
	return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' } })
}

/** One `bytes=start-end` range (what browsers send); anything else is served whole. */
function parseRange(header: string | null) {
	const match = header ? /^bytes=(\d+)-(\d*)$/.exec(header.trim()) : null
	if (!match) return null
	return { start: Number(match[1]), end: match[2] ? Number(match[2]) : undefined }
}
