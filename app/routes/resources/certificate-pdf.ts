import { renderCertificatePdf } from '#app/models/enrollment/certificate-pdf.server.ts'
import { getOwnCertificate } from '#app/models/enrollment/certificates.server.ts'
import { CertificateIdSchema } from '#app/models/enrollment/certificates.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import type { Route } from './+types/certificate-pdf'

/** The student's own certificate as a PDF; anyone else's answers 404, as an unknown id does. */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const id = CertificateIdSchema.safeParse(params.certificateId)
	const certificate = id.success ? await getOwnCertificate(getDb(), user.id, id.data) : null
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
