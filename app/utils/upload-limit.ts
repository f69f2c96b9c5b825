import { z } from 'zod'

/** The specification's words for a file over the per-file upload limit. */
export const FILE_TOO_LARGE_MESSAGE = 'File too large. Please select a smaller file.'

/** Whether a form value is a file (in the browser) larger than the limit. */
export function isOverUploadLimit(value: unknown, maxUploadMb: number) {
	return typeof File !== 'undefined' && value instanceof File && value.size > maxUploadMb * 1024 * 1024
}

/**
 * A file field of a shared schema. Given the limit (in the browser), it refuses a file over it
 * before a byte is sent; on the server the file has streamed away already and the streaming
 * limit decides, so no limit is given there.
 */
export function fileField(maxUploadMb?: number) {
	const field = z.unknown().optional()
	return maxUploadMb === undefined ? field : field.refine((value) => !isOverUploadLimit(value, maxUploadMb), FILE_TOO_LARGE_MESSAGE)
}
