import type { MaterialCategory } from '#db/types.ts'

const MAX_NAME_LENGTH = 120
const MAX_EXTENSION_LENGTH = 16
/** S3's limit, in UTF-8 bytes. */
const MAX_KEY_BYTES = 1024

/**
 * Reduces a user-supplied file name to a form that is safe in a storage key and a path:
 * no directories, no `..`, no control characters, only ASCII letters, digits and `._-`.
 * Accents are dropped rather than replaced (`Über` → `Uber`). Never empty.
 */
export function safeFileName(name: string) {
	const base = name.split(/[/\\]/).pop() ?? ''
	const cleaned = base
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.replace(/\p{Cc}/gu, '')
		.replace(/[^A-Za-z0-9._-]+/g, '-')
		.replace(/\.{2,}/g, '.')
		.replace(/-{2,}/g, '-')
		.replace(/^[.-]+|[.-]+$/g, '')
	if (!cleaned) return 'file'
	if (cleaned.length <= MAX_NAME_LENGTH) return cleaned
	const dot = cleaned.lastIndexOf('.')
	const extension = dot > 0 && cleaned.length - dot <= MAX_EXTENSION_LENGTH ? cleaned.slice(dot) : ''
	return cleaned.slice(0, MAX_NAME_LENGTH - extension.length).replace(/[.-]+$/, '') + extension
}

function uniqueName(fileName: string) {
	return `${crypto.randomUUID()}-${safeFileName(fileName)}`
}

export function materialKey(courseId: number, weekId: number, category: MaterialCategory, fileName: string) {
	return `courses/${courseId}/weeks/${weekId}/${category}/${uniqueName(fileName)}`
}

export function attachmentKey(userId: string, fileName: string) {
	return `messages/${userId}/${uniqueName(fileName)}`
}

export function submissionKey(assignmentId: number, userId: string, fileName: string) {
	return `submissions/${assignmentId}/${userId}/${uniqueName(fileName)}`
}

const materialKeyPattern = /^courses\/(\d+)\/weeks\/(\d+)\/(material|recording)\/[^/]+$/

/** The course, week and category a material key was made for; null for any other key. */
export function parseMaterialKey(key: string): { courseId: number; weekId: number; category: MaterialCategory } | null {
	const match = materialKeyPattern.exec(key)
	if (!match) return null
	return { courseId: Number(match[1]), weekId: Number(match[2]), category: match[3] as MaterialCategory }
}

export class InvalidStorageKeyError extends Error {
	override name = 'InvalidStorageKeyError'
}

/**
 * The rules every adapter applies, so a key that works on local disk works on S3 and back:
 * relative, `/`-separated, no empty segments, no segment starting with a dot (which also
 * rules out `.` and `..`, and keeps the local adapter's hidden side files out of reach),
 * no `..` anywhere, no backslashes or control characters.
 */
export function assertValidKey(key: string) {
	if (!isValidPath(key) || key.endsWith('/')) throw new InvalidStorageKeyError(`Invalid storage key: ${JSON.stringify(key)}`)
}

/** A list prefix follows the key rules but may be empty or end with `/`. */
export function assertValidPrefix(prefix: string) {
	if (prefix !== '' && !isValidPath(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix)) {
		throw new InvalidStorageKeyError(`Invalid storage prefix: ${JSON.stringify(prefix)}`)
	}
}

function isValidPath(value: string) {
	if (!value || new TextEncoder().encode(value).length > MAX_KEY_BYTES) return false
	if (value.includes('..') || value.includes('\\') || /\p{Cc}/u.test(value)) return false
	return value.split('/').every((segment) => segment !== '' && !segment.startsWith('.'))
}

/**
 * Checks a requested byte range (inclusive bounds) against an object's size: the end is
 * clamped to the last byte; a range that starts at or past the end throws RangeError,
 * which a download route answers with 416.
 */
export function resolveRange(range: { start: number; end?: number }, size: number) {
	assertRangeShape(range)
	if (range.start >= size) throw new RangeError(`Range not satisfiable: bytes ${range.start}- of ${size}`)
	return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) }
}

export function assertRangeShape(range: { start: number; end?: number }) {
	const { start, end } = range
	if (!Number.isSafeInteger(start) || start < 0 || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) {
		throw new RangeError(`Invalid byte range: ${start}-${end ?? ''}`)
	}
}

/**
 * A Content-Disposition value (RFC 6266): an ASCII `filename` fallback
 * plus `filename*` in UTF-8 when the name needs it. For presigned URLs and for routes that
 * stream files themselves.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', fileName?: string) {
	if (!fileName) return disposition
	const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
	const header = `${disposition}; filename="${fallback}"`
	if (fallback === fileName) return header
	const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
	return `${header}; filename*=UTF-8''${encoded}`
}
