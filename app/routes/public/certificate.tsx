import { data, href } from 'react-router'
import { CertificateFacts, CertificateStatus } from '#app/components/certificates/certificate-facts.tsx'
import { ButtonAnchor } from '#app/components/ui/button.tsx'
import { getCertificate } from '#app/models/enrollment/certificates.server.ts'
import { CertificateIdSchema } from '#app/models/enrollment/certificates.ts'
import { getDb } from '#app/utils/db.server.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import { STATIC_FOR_VISITORS } from '#app/utils/root-data.ts'
import type { Route } from './+types/certificate'

export const handle = STATIC_FOR_VISITORS

/**
 * The page anyone can check a certificate on, without an account or scripts: valid or revoked,
 * and what it states. An id nobody was issued is a 404 that never says "valid".
 */
export async function loader({ params }: Route.LoaderArgs) {
	const id = CertificateIdSchema.safeParse(params.certificateId)
	const certificate = id.success ? await getCertificate(getDb(), id.data) : null
	if (!certificate) return data({ certificate: null }, { status: 404 })
	const { userId: _owner, revokedReason: _reason, ...shown } = certificate
	return { certificate: shown }
}

export default function CertificatePage({ loaderData: { certificate } }: Route.ComponentProps) {
	if (!certificate) {
		return (
			<section className="mx-auto max-w-2xl px-4 py-20 text-center">
				<h1 className="text-3xl font-bold tracking-tight text-ink">Certificate not found</h1>
				<p className="mt-4 text-slate-600">
					{`No certificate of ${SITE_NAME} has this address. Check that it was copied in full; if it was, this is not a certificate we issued.`}
				</p>
			</section>
		)
	}
	return (
		<section className="mx-auto max-w-2xl px-4 py-12 sm:py-16">
			<p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{SITE_NAME}</p>
			<h1 className="mt-2 text-3xl font-bold tracking-tight text-ink">Certificate of completion</h1>
			<div className="mt-6">
				<CertificateStatus revokedAt={certificate.revokedAt} />
			</div>
			<div className="mt-8 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
				<CertificateFacts {...certificate} />
			</div>
			<p className="mt-6 break-words text-sm text-slate-600">
				Certificate ID <span className="font-mono">{certificate.id}</span>
			</p>
			<div className="mt-6 flex flex-wrap gap-3">
				<ButtonAnchor variant="outline" href={href('/certificates/:certificateId/credential', { certificateId: certificate.id })} download>
					Download the Open Badges credential
				</ButtonAnchor>
			</div>
			<p className="mt-4 text-sm text-slate-600">
				The credential is signed by the school's key, published at <span className="font-mono break-all">/.well-known/did.json</span>, and
				names the list that says whether it has been revoked, so any Open Badges 3.0 verifier can check it without this page.
			</p>
		</section>
	)
}

/** Search engines index the page only when the student made it public (and it is valid). */
export const meta: Route.MetaFunction = ({ loaderData }) => {
	const certificate = loaderData?.certificate
	const title = certificate ? `Certificate: ${certificate.courseTitle} — ${certificate.recipientName}` : 'Certificate not found'
	return [
		{ title: `${title} | ${SITE_NAME}` },
		...(certificate?.isPublic && !certificate.revokedAt ? [] : [{ name: 'robots', content: 'noindex' }]),
	]
}
