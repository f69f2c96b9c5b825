import type { Kysely } from 'kysely'
import { href } from 'react-router'
import { CertificateIssuedEmail, certificateIssuedSubject } from '#app/emails/certificate-issued.tsx'
import { enqueueSiteEmail } from '#app/models/messaging/emails.server.ts'
import type { Database } from '#db/types.ts'
import { certificatePath } from './certificates.ts'

/** E-mails a certificate to its student; nothing when it was revoked (or re-issued) before the job ran. */
export async function sendCertificateIssued(db: Kysely<Database>, certificateId: string) {
	const row = await db
		.selectFrom('certificates')
		.innerJoin('users', 'users.id', 'certificates.user_id')
		.select(['certificates.id', 'certificates.recipient_name', 'certificates.course_title', 'users.email'])
		.where('certificates.id', '=', certificateId)
		.where('certificates.revoked_at', 'is', null)
		.executeTakeFirst()
	if (!row) return false
	await enqueueSiteEmail(db, CertificateIssuedEmail, {
		to: row.email,
		subject: certificateIssuedSubject(row.course_title),
		// One mail per certificate, however often its job runs.
		dedupeKey: `certificate-issued:${row.id}`,
		props: (site) => ({
			name: row.recipient_name,
			courseTitle: row.course_title,
			certificateUrl: `${site.url}${certificatePath(row.id)}`,
			dashboardUrl: `${site.url}${href('/dashboard/certificates')}`,
		}),
	})
	return true
}
