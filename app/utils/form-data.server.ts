import { data } from 'react-router'
import { readBodyUpTo } from './request-body.server.ts'

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data'])

/**
 * The largest form without files the app reads. The longest text any form takes (a
 * 20,000-character message) stays well under it in any script, percent-encoded; files go
 * through the streaming parser (multipart.server.ts) with limits of their own.
 */
export const MAX_FORM_BYTES = 1024 * 1024

/**
 * The submitted form. `request.formData()` throws on a body that is not a form (JSON,
 * plain text, none at all) or a form it cannot parse, and React Router answers a throw
 * with a 500; it would also hold a body of any size in memory. The sender gets a 415, a
 * 413 or a 400 instead, before anything is written.
 */
export async function readFormData(request: Request): Promise<FormData> {
	const contentType = request.headers.get('Content-Type') ?? ''
	if (!FORM_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase())) {
		throw data('This address accepts form submissions only.', { status: 415 })
	}
	const body = await readBodyUpTo(request, MAX_FORM_BYTES)
	if (body === null) throw data('The form is too large to send.', { status: 413 })
	try {
		return await new Response(body, { headers: { 'Content-Type': contentType } }).formData()
	} catch {
		throw data('The form could not be read. Please send it again.', { status: 400 })
	}
}
