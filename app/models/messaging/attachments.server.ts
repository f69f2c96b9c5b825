import type { Readable } from 'node:stream'
import { fileTypeFromBuffer } from 'file-type'
import type { FileStorage } from '#app/services/storage/index.server.ts'
import { attachmentKey } from '#app/services/storage/keys.ts'
import { readHead } from '#app/utils/stream-head.server.ts'

/** Enough for file-type to recognise every format it knows, office documents included. */
const SNIFF_BYTES = 64 * 1024
const MARKUP_TYPES = new Set(['image/svg+xml', 'text/html', 'application/xhtml+xml'])
const MARKUP_EXTENSIONS = /\.(svg|svgz|html?|xhtml|xht|shtml)$/i

/** A file the site refuses to keep: markup a browser could run as a page of this site. */
export class RefusedFileTypeError extends Error {
	override name = 'RefusedFileTypeError'
}

export type StoredUpload = { key: string; name: string; type: string; size: number }

/**
 * Stores a message attachment under the sender's prefix. The type is sniffed
 * from the bytes, never taken from the browser; SVG and HTML are refused
 * before anything is written.
 */
export async function storeAttachment(
	storage: FileStorage,
	{ userId, fileName, stream }: { userId: string; fileName: string; stream: Readable },
): Promise<StoredUpload> {
	const { head, rest } = await readHead(stream, SNIFF_BYTES)
	const type = await sniffType(head, fileName)
	const key = attachmentKey(userId, fileName)
	const { size } = await storage.put(key, rest, { contentType: type })
	// Control characters go: PostgreSQL refuses a NUL in text.
	return {
		key,
		name:
			fileName
				.replace(/\p{Cc}/gu, '')
				.trim()
				.slice(0, 255) || 'file',
		type,
		size,
	}
}

export async function sniffType(head: Uint8Array, fileName: string) {
	if (MARKUP_EXTENSIONS.test(fileName) || looksLikeMarkup(head)) {
		throw new RefusedFileTypeError('SVG and HTML files cannot be attached')
	}
	const detected = await fileTypeFromBuffer(head)
	if (detected) {
		if (MARKUP_TYPES.has(detected.mime)) throw new RefusedFileTypeError('SVG and HTML files cannot be attached')
		return detected.mime
	}
	return isText(head) ? 'text/plain' : 'application/octet-stream'
}

function looksLikeMarkup(head: Uint8Array) {
	const text = Buffer.from(head.subarray(0, 4096))
		.toString('latin1')
		.replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
		.trimStart()
		.toLowerCase()
	if (!text.startsWith('<')) return false
	return /<(svg|html|!doctype\s+html|head|body|script|iframe)[\s>/]/.test(text)
}

function isText(head: Uint8Array) {
	if (head.includes(0)) return false
	try {
		new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true })
		return true
	} catch {
		return false
	}
}

/** Removes stored files after their rows are gone; a failure leaves an orphan, never a broken row. */
export async function deleteStoredFiles(storage: FileStorage, keys: string[]) {
	if (keys.length === 0) return
	try {
		await storage.deleteMany(keys)
	} catch (error) {
		console.error('[attachments] could not delete stored files', error)
	}
}
