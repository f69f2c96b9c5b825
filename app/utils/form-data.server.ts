import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { z } from 'zod'
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
	let formData: FormData
	try {
		formData = await new Response(body, { headers: { 'Content-Type': contentType } }).formData()
	} catch {
		throw data(UNREADABLE_FORM, { status: 400 })
	}
	if (!conformCanParse(formData)) throw data(UNREADABLE_FORM, { status: 400 })
	return formData
}

const UNREADABLE_FORM = 'The form could not be read. Please send it again.'

/**
 * Whether Conform can apply the form's reserved fields (`__intent__`, `__state__`): they carry
 * JSON that its own buttons write, and parseWithZod throws on anything else (not JSON, an
 * unknown intent, a list change on a field that is not a list) before any schema is consulted.
 */
export function conformCanParse(formData: FormData) {
	if (!formData.has('__intent__') && !formData.has('__state__')) return true
	try {
		parseWithZod(formData, { schema: z.unknown() })
		return true
	} catch {
		return false
	}
}
