import { getCredential } from '#app/models/enrollment/certificates.server.ts'
import { CertificateIdSchema } from '#app/models/enrollment/certificates.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import type { Route } from './+types/certificate-credential'

/**
 * A certificate's Open Badges 3.0 credential, public like its page (docs/decisions/049): a W3C
 * enveloped credential, JSON holding the JWS the school signed at issuance. A revoked one still
 * downloads; its status list says it is revoked.
 */
export async function loader({ params }: Route.LoaderArgs) {
	const id = CertificateIdSchema.safeParse(params.certificateId)
	const credential = id.success ? await getCredential(getDb(), id.data) : null
	if (!credential) return textResponse('Certificate not found', 404)
	return new Response(JSON.stringify(credential, null, 2), {
		headers: {
			'Content-Type': 'application/json; charset=utf-8',
			'Content-Disposition': `attachment; filename="certificate-${id.data}.json"`,
			'Cache-Control': 'no-cache',
			'X-Robots-Tag': 'noindex',
		},
	})
}
