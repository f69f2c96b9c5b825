import { formatLiveHours } from '#app/models/enrollment/certificates.ts'
import { formatDateOnly } from '#app/utils/misc.ts'

export type CertificateFactsProps = {
	recipientName: string
	courseTitle: string
	startDate: string | null
	endDate: string | null
	liveMinutes: number | null
	issuedAt: string
	revokedAt: string | null
}

/** What a certificate states, as a definition list: the verify page and the dashboard show the same. */
export function CertificateFacts({
	recipientName,
	courseTitle,
	startDate,
	endDate,
	liveMinutes,
	issuedAt,
	revokedAt,
}: CertificateFactsProps) {
	const rows: Array<[string, string]> = [
		['Awarded to', recipientName],
		['Course', courseTitle],
	]
	if (startDate)
		rows.push(['Course dates', endDate ? `${formatDateOnly(startDate)} – ${formatDateOnly(endDate)}` : `From ${formatDateOnly(startDate)}`])
	if (liveMinutes !== null) rows.push(['Live sessions', formatLiveHours(liveMinutes)])
	rows.push(['Issued', formatDateOnly(issuedAt.slice(0, 10))])
	if (revokedAt) rows.push(['Revoked', formatDateOnly(revokedAt.slice(0, 10))])
	return (
		<dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
			{rows.map(([label, value]) => (
				<div key={label} className="contents">
					<dt className="text-sm font-medium text-slate-500">{label}</dt>
					<dd className="break-words text-slate-900">{value}</dd>
				</div>
			))}
		</dl>
	)
}

/** Valid or revoked, in words and colour; a page that found no certificate shows neither. */
export function CertificateStatus({ revokedAt }: { revokedAt: string | null }) {
	return revokedAt ? (
		<p className="inline-flex items-center gap-2 rounded-md bg-red-50 px-3 py-2 font-semibold text-red-800 ring-1 ring-red-600/20">
			Revoked: this certificate is no longer valid
		</p>
	) : (
		<p className="inline-flex items-center gap-2 rounded-md bg-green-50 px-3 py-2 font-semibold text-green-800 ring-1 ring-green-600/20">
			Valid certificate
		</p>
	)
}
