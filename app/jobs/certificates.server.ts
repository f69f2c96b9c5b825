import type { Task } from 'graphile-worker'
import { z } from 'zod'
import { sendCertificateIssued } from '#app/models/enrollment/certificate-emails.server.ts'
import { CertificateIdSchema } from '#app/models/enrollment/certificates.ts'
import { getDb } from '#app/utils/db.server.ts'

const PayloadSchema = z.object({ certificateId: CertificateIdSchema })

/** E-mails a newly issued certificate to its student. */
export const sendCertificateMail: Task = async (payload) => {
	await sendCertificateIssued(getDb(), PayloadSchema.parse(payload).certificateId)
}
