import { renderCertificatePdf } from '#app/models/enrollment/certificate-pdf.server.ts'
import { getCertificate, getOwnCertificate } from '#app/models/enrollment/certificates.server.ts'
import { CertificateIdSchema } from '#app/models/enrollment/certificates.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import type { Route } from './+types/certificate-pdf'

/** A certificate as a PDF, for its student or an admin; anyone else gets 404, as for an unknown id. */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const id = CertificateIdSchema.safeParse(params.certificateId)
	const db = getDb()
	const certificate = !id.success ? null : user.isAdmin ? await getCertificate(db, id.data) : await getOwnCertificate(db, user.id, id.data)
	if (!certificate) return textResponse('Certificate not found', 404)
	const pdf = await renderCertificatePdf(certificate)
	return new Response(Buffer.from(pdf), {
		headers: {
			'Content-Type': 'application/pdf',
			'Content-Disposition': `attachment; filename="certificate-${certificate.id}.pdf"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
