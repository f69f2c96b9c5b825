import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { ReactNode } from 'react'
import { data, Form, href, Link } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { RowsTable } from '#app/components/ui/rows-table.tsx'
import { TableCard } from '#app/components/ui/table.tsx'
import {
	CertificateActionSchema,
	certificatePath,
	ReissueCertificateSchema,
	RevokeCertificateSchema,
} from '#app/models/enrollment/certificates.ts'
import { listCertificates, reissueCertificate, revokeCertificate } from '#app/models/enrollment/certificates-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/certificates'

const CERTIFICATES_PATH = href('/dashboard/admin/certificates')

/** The list; `?revoke=<id>` or `?reissue=<id>` opens that certificate's form, the confirmation step. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const certificates = await listCertificates(getDb())
	const params = new URL(request.url).searchParams
	const find = (id: string | null) => certificates.find((certificate) => certificate.id === id && !certificate.revokedAt) ?? null
	return { certificates, revoking: find(params.get('revoke')), reissuing: find(params.get('reissue')) }
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const submission = parseWithZod(await readFormData(request), { schema: CertificateActionSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const db = getDb()
	if (submission.value.intent === 'revoke') {
		const outcome = await revokeCertificate(db, admin.id, { id: submission.value.certificateId, reason: submission.value.reason })
		if (outcome === 'not-found') throw data('Not found', { status: 404 })
		return redirectWithToast(CERTIFICATES_PATH, {
			type: outcome === 'revoked' ? 'success' : 'info',
			title: outcome === 'revoked' ? 'Certificate revoked' : 'That certificate was revoked already',
		})
	}
	const outcome = await reissueCertificate(db, admin.id, { id: submission.value.certificateId, recipientName: submission.value.name })
	if (outcome.status === 'not-found') throw data('Not found', { status: 404 })
	if (outcome.status === 'not-current') {
		return data(
			{ result: submission.reply({ formErrors: ['Only a current certificate of a completed enrolment can be re-issued.'] }) },
			{ status: 400 },
		)
	}
	return redirectWithToast(CERTIFICATES_PATH, {
		type: 'success',
		title: 'Certificate re-issued',
		description: `The old one now shows as revoked; the student is e-mailed the new one.`,
	})
}

const dateOf = (iso: string) => formatDateOnly(iso.slice(0, 10))

export default function AdminCertificates({ loaderData, actionData }: Route.ComponentProps) {
	const { certificates, revoking, reissuing } = loaderData
	return (
		<>
			<div>
				<h1 className="text-2xl font-bold text-ink">Certificates</h1>
				<p className="mt-1 text-sm text-slate-600">
					Issued when an enrolment is marked completed. Revoking or re-issuing shows on the certificate's public page at once.
				</p>
			</div>
			{revoking ? <RevokeForm certificate={revoking} lastResult={actionData?.result} /> : null}
			{reissuing ? <ReissueForm certificate={reissuing} lastResult={actionData?.result} /> : null}
			{certificates.length === 0 ? (
				<Card className="p-8 text-center text-slate-700">No certificates issued yet</Card>
			) : (
				<TableCard>
					<RowsTable caption="Certificates" columns={['Name', 'Course', 'Issued', 'Status', 'Actions']}>
						{certificates.map((certificate) => (
							<tr key={certificate.id} className="align-top">
								<td className="px-4 py-3 text-ink">
									{certificate.recipientName}
									<div className="text-xs text-slate-600">{certificate.email}</div>
								</td>
								<td className="px-4 py-3 text-slate-700">{certificate.courseTitle}</td>
								<td className="px-4 py-3 whitespace-nowrap text-slate-700">{dateOf(certificate.issuedAt)}</td>
								<td className="px-4 py-3 text-slate-700">
									{certificate.revokedAt ? `Revoked ${dateOf(certificate.revokedAt)}: ${certificate.revokedReason ?? ''}` : 'Valid'}
								</td>
								<td className="px-4 py-3">
									<div className="flex flex-wrap gap-x-4 gap-y-1">
										<Link to={certificatePath(certificate.id)} className="font-medium text-brand-700 hover:underline">
											View<span className="sr-only">{` certificate of ${certificate.recipientName}`}</span>
										</Link>
										<a
											href={href('/dashboard/certificates/:certificateId/pdf', { certificateId: certificate.id })}
											download
											className="font-medium text-brand-700 hover:underline"
										>
											PDF<span className="sr-only">{` of the certificate of ${certificate.recipientName}`}</span>
										</a>
										{certificate.revokedAt ? null : (
											<>
												<Link to={`?reissue=${certificate.id}`} className="font-medium text-brand-700 hover:underline">
													Re-issue<span className="sr-only">{` certificate of ${certificate.recipientName}`}</span>
												</Link>
												<Link to={`?revoke=${certificate.id}`} className="font-medium text-red-700 hover:underline">
													Revoke<span className="sr-only">{` certificate of ${certificate.recipientName}`}</span>
												</Link>
											</>
										)}
									</div>
								</td>
							</tr>
						))}
					</RowsTable>
				</TableCard>
			)}
		</>
	)
}

type Chosen = { id: string; recipientName: string; courseTitle: string }
type LastResult = SubmissionResult<string[]> | undefined

/** The frame of both confirmation steps: what follows, the fields, then the one button that does it or Cancel. */
function ChosenCertificateForm({
	title,
	intent,
	certificateId,
	formProps,
	submit,
	children,
}: {
	title: string
	intent: 'revoke' | 'reissue'
	certificateId: string
	formProps: ReturnType<typeof getFormProps>
	submit: ReactNode
	children: ReactNode
}) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>{title}</CardTitle>
			</CardHeader>
			<CardContent>
				<Form method="post" action={CERTIFICATES_PATH} {...formProps} className="max-w-md space-y-4">
					<input type="hidden" name="intent" value={intent} />
					<input type="hidden" name="certificateId" value={certificateId} />
					{children}
					<div className="flex flex-wrap gap-3">
						{submit}
						<ButtonLink to={CERTIFICATES_PATH} variant="outline">
							Cancel
						</ButtonLink>
					</div>
				</Form>
			</CardContent>
		</Card>
	)
}

/** The confirmation of a revocation: it says what follows and asks why. */
function RevokeForm({ certificate, lastResult }: { certificate: Chosen; lastResult: LastResult }) {
	const [form, fields] = useForm({
		id: `revoke-${certificate.id}`,
		lastResult,
		constraint: getZodConstraint(RevokeCertificateSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: RevokeCertificateSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<ChosenCertificateForm
			title={`Revoke the certificate of ${certificate.recipientName}?`}
			intent="revoke"
			certificateId={certificate.id}
			formProps={getFormProps(form)}
			submit={
				<Button type="submit" variant="destructive">
					Revoke certificate
				</Button>
			}
		>
			<Alert tone="warning" title="This cannot be undone">
				{`Its page will say "Revoked" and its credential fails verification from now on. To correct a name, re-issue instead.`}
			</Alert>
			<Field label="Reason" inputProps={{ ...getInputProps(fields.reason, { type: 'text' }) }} errors={fields.reason.errors} />
		</ChosenCertificateForm>
	)
}

/** A corrected name: the old certificate is revoked and a new one issued. */
function ReissueForm({ certificate, lastResult }: { certificate: Chosen; lastResult: LastResult }) {
	const [form, fields] = useForm({
		id: `reissue-${certificate.id}`,
		lastResult,
		constraint: getZodConstraint(ReissueCertificateSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ReissueCertificateSchema }),
		defaultValue: { name: certificate.recipientName },
		shouldRevalidate: 'onInput',
	})
	return (
		<ChosenCertificateForm
			title={`Re-issue the certificate for ${certificate.courseTitle}`}
			intent="reissue"
			certificateId={certificate.id}
			formProps={getFormProps(form)}
			submit={<Button type="submit">Re-issue certificate</Button>}
		>
			<p className="text-sm text-slate-600">
				The current certificate is revoked ("Re-issued") and a new one, with a new address, is issued and e-mailed to the student.
			</p>
			{form.errors?.length ? (
				<Alert tone="error" title="Not re-issued">
					{form.errors.join(' ')}
				</Alert>
			) : null}
			<Field label="Name on the certificate" inputProps={{ ...getInputProps(fields.name, { type: 'text' }) }} errors={fields.name.errors} />
		</ChosenCertificateForm>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Certificates')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
