import { data } from 'react-router'

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data'])

/**
 * The submitted form. `request.formData()` throws on a body that is not a form (JSON,
 * plain text, none at all) or a form it cannot parse, and React Router answers a throw
 * with a 500; the sender gets a 415 or a 400 instead, before anything is written.
 */
export async function readFormData(request: Request): Promise<FormData> {
	const type = request.headers.get('Content-Type')?.split(';')[0]!.trim().toLowerCase() ?? ''
	if (!FORM_TYPES.has(type)) throw data('This address accepts form submissions only.', { status: 415 })
	try {
		return await request.formData()
	} catch {
		throw data('The form could not be read. Please send it again.', { status: 400 })
	}
}
