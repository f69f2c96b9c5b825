import { statusListCredential, VC_JWT_MEDIA_TYPE } from '#app/models/enrollment/certificates.server.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import type { Route } from './+types/certificate-status-list'

/**
 * A revocation list the credentials name in their `credentialStatus`: a signed
 * BitstringStatusListCredential, made at each request so a revocation shows at once.
 */
export async function loader({ params }: Route.LoaderArgs) {
	const list = /^(0|[1-9]\d{0,5})$/.test(params.list) ? Number(params.list) : null
	const credential = list === null ? null : await statusListCredential(getDb(), list)
	if (!credential) return textResponse('Status list not found', 404)
	return new Response(credential, {
		headers: { 'Content-Type': VC_JWT_MEDIA_TYPE, 'Cache-Control': 'no-cache', 'X-Robots-Tag': 'noindex' },
	})
}
