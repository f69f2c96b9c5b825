import { createReadableStreamFromReadable } from '@react-router/node'
import { getEnv } from '#app/utils/env.server.ts'
import { contentDisposition } from './keys.ts'
import type { FileStorage } from './storage.ts'

/** A presigned link outlives the page that used it only by a few minutes. */
const PRESIGNED_URL_SECONDS = 5 * 60

export type ServedFile = {
	key: string
	/** The name the browser offers; only its last path segment is used. */
	fileName: string
	contentType: string
	disposition: 'inline' | 'attachment'
	/** `private, max-age=…` or `private, no-store`; never public, these files are someone's. */
	cacheControl: string
}

/**
 * Whatever a user uploaded (a PDF's /OpenAction script, markup in disguise) runs, if at all, in
 * a sandbox: an opaque origin without scripts, forms, popups or plugins of the site's, so
 * nothing in a file can act as the site (docs/decisions/022-uploaded-files-sandboxed.md).
 */
const UPLOADED_FILE_POLICY = 'sandbox'

/**
 * A stored file as the answer to a request the caller has already authorised: a redirect to
 * a short-lived presigned URL when the store offers one on an origin of its own, otherwise the
 * bytes streamed from the store with single-range support (videos seek, downloads resume), and
 * HEAD answered from the object's size alone.
 */
export async function fileResponse(request: Request, storage: FileStorage, file: ServedFile) {
	const lastSegment = file.fileName.split(/[\\/]/).pop() ?? ''
	const fileName = /^\.*$/.test(lastSegment) ? 'download' : lastSegment
	const presigned = await storage.presignedUrl(file.key, {
		expiresInSeconds: PRESIGNED_URL_SECONDS,
		downloadName: fileName,
		disposition: file.disposition,
		contentType: file.contentType,
	})
	// A presigned response cannot carry the sandbox (S3 sets no such header); it is safe only on
	// another origin than the site's, where a file has none of the site's cookies or access.
	if (presigned && !isSiteOrigin(request, new URL(presigned).origin)) {
		return new Response(null, { status: 302, headers: { Location: presigned, 'Cache-Control': 'private, no-store' } })
	}

	const stat = await storage.stat(file.key)
	if (!stat) return fileNotFound()
	const headers = new Headers({
		'Content-Type': file.contentType,
		'Content-Disposition': contentDisposition(file.disposition, fileName),
		'Content-Security-Policy': UPLOADED_FILE_POLICY,
		'X-Content-Type-Options': 'nosniff',
		// no-transform: compressing would break byte ranges and Content-Length.
		'Cache-Control': `${file.cacheControl}, no-transform`,
		'Accept-Ranges': 'bytes',
		'Last-Modified': stat.lastModified.toUTCString(),
	})

	const range = parseRange(request.headers.get('Range'), stat.size)
	if (range === 'unsatisfiable') {
		headers.set('Content-Range', `bytes */${stat.size}`)
		return new Response(null, { status: 416, headers })
	}
	headers.set('Content-Length', String(range ? range.end - range.start + 1 : stat.size))
	if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`)
	const status = range ? 206 : 200
	if (request.method === 'HEAD') return new Response(null, { status, headers })

	const object = await storage.get(file.key, range ?? undefined)
	if (!object) return fileNotFound()
	return new Response(createReadableStreamFromReadable(object.body), { status, headers })
}

/** The site's public origin (APP_URL) or the one this request came in on. */
function isSiteOrigin(request: Request, origin: string) {
	return origin === new URL(getEnv().APP_URL).origin || origin === new URL(request.url).origin
}

/** A plain-text refusal that no cache keeps. */
export function textResponse(message: string, status: number) {
	return new Response(message, {
		status,
		headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' },
	})
}

const fileNotFound = () => textResponse('File not found', 404)

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
	const end = endText ? Number(endText) : Number.POSITIVE_INFINITY
	if (end < start) return null
	if (start >= size) return 'unsatisfiable'
	return { start, end: Math.min(end, size - 1) }
}
