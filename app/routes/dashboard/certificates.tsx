import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href } from 'react-router'
import { CertificateFacts, CertificateStatus } from '#app/components/certificates/certificate-facts.tsx'
import { Button, ButtonAnchor } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { listOwnCertificates, setCertificateVisibility } from '#app/models/enrollment/certificates.server.ts'
import { CertificateVisibilitySchema, linkedInAddUrl } from '#app/models/enrollment/certificates.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/certificates'

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const certificates = await listOwnCertificates(getDb(), user.id)
	return {
		certificates: certificates.map(({ userId: _owner, revokedReason: _reason, ...certificate }) => ({
			...certificate,
			linkedInUrl: certificate.revokedAt
				? null
				: linkedInAddUrl({
						courseTitle: certificate.courseTitle,
						school: SITE_NAME,
						issuedAt: certificate.issuedAt,
						url: certificate.url,
						id: certificate.id,
					}),
		})),
	}
}

/** The one switch here: may search engines index the certificate's page. Another's id is a 404. */
export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	const submission = parseWithZod(await readFormData(request), { schema: CertificateVisibilitySchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const { certificateId, isPublic } = submission.value
	if (!(await setCertificateVisibility(getDb(), user.id, certificateId, isPublic))) throw data('Not found', { status: 404 })
	return redirectWithToast(href('/dashboard/certificates'), {
		type: 'success',
		title: isPublic ? 'Search engines may now list this certificate' : 'Search engines are asked not to list this certificate',
	})
}

export default function CertificatesPage({ loaderData: { certificates } }: Route.ComponentProps) {
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Certificates</h1>
			{certificates.length === 0 ? (
				<EmptyState
					title="No certificates yet"
					description="When you complete a course, its certificate appears here and is e-mailed to you."
				/>
			) : null}
			{certificates.map((certificate) => (
				<Card key={certificate.id}>
					<CardHeader>
						<CardTitle>{certificate.courseTitle}</CardTitle>
					</CardHeader>
					<CardContent className="space-y-5">
						<CertificateStatus revokedAt={certificate.revokedAt} />
						<CertificateFacts {...certificate} />
						<p className="break-words text-sm text-slate-600">
							Anyone can check it at{' '}
							<a href={certificate.url} className="font-medium text-brand-700 underline">
								{certificate.url}
							</a>
						</p>
						<div className="flex flex-wrap gap-3">
							<ButtonAnchor href={href('/dashboard/certificates/:certificateId/pdf', { certificateId: certificate.id })} download>
								Download PDF
							</ButtonAnchor>
							<ButtonAnchor
								variant="outline"
								href={href('/certificates/:certificateId/credential', { certificateId: certificate.id })}
								download
							>
								Download credential (Open Badges 3.0)
							</ButtonAnchor>
							{certificate.linkedInUrl ? (
								<ButtonAnchor variant="outline" href={certificate.linkedInUrl} rel="noopener noreferrer" target="_blank">
									Add to LinkedIn profile
								</ButtonAnchor>
							) : null}
						</div>
						{certificate.revokedAt ? null : (
							<Form method="post" className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
								<input type="hidden" name="certificateId" value={certificate.id} />
								<input type="hidden" name="isPublic" value={certificate.isPublic ? 'false' : 'true'} />
								<p className="text-sm text-slate-600">
									{certificate.isPublic
										? 'Search engines may list its page.'
										: 'Its page asks search engines not to list it: only people you give the address find it.'}
								</p>
								<Button type="submit" variant="secondary" size="sm">
									{certificate.isPublic ? 'Hide from search engines' : 'Let search engines list it'}
								</Button>
							</Form>
						)}
					</CardContent>
				</Card>
			))}
		</>
	)
}

export const meta: Route.MetaFunction = () => [{ title: `Certificates | ${SITE_NAME}` }]
