import { z } from 'zod'
import { hasControlCharacters } from '#app/utils/misc.ts'
import { NameSchema } from '#app/utils/user-validation.ts'

/** The public page of a certificate: anyone with its (unguessable) id sees it. */
export function certificatePath(id: string) {
	return `/certificates/${id}`
}

/** Why a certificate was revoked when its enrolment stopped being completed (docs/decisions/052). */
export const REOPENED_REASON = 'Enrollment reopened: no longer completed'
/** Why a certificate was revoked when a refund ended its completed enrolment (docs/decisions/052). */
export const REFUNDED_REASON = 'Enrollment refunded'

/** An id as issued: 16 random bytes in base64url; anything else is not a certificate. */
export const CertificateIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/)

/** Live hours as a certificate states them: whole or half hours, never more than attended. */
export function formatLiveHours(minutes: number) {
	const hours = Math.floor(minutes / 30) / 2
	return `${hours} live ${hours === 1 ? 'hour' : 'hours'} attended`
}

/**
 * LinkedIn's "Add to profile" form, filled in with the certificate (its documented add-to-profile
 * URL: the student confirms it on LinkedIn; nothing is sent from here).
 */
export function linkedInAddUrl(input: { courseTitle: string; school: string; issuedAt: string; url: string; id: string }) {
	const issued = new Date(input.issuedAt)
	const params = new URLSearchParams({
		startTask: 'CERTIFICATION_NAME',
		name: input.courseTitle,
		organizationName: input.school,
		issueYear: String(issued.getUTCFullYear()),
		issueMonth: String(issued.getUTCMonth() + 1),
		certUrl: input.url,
		certId: input.id,
	})
	return `https://www.linkedin.com/profile/add?${params}`
}

/** The admin revokes a certificate, saying why (the confirmation step of the certificates screen). */
export const RevokeCertificateSchema = z.object({
	intent: z.literal('revoke'),
	certificateId: CertificateIdSchema,
	reason: z
		.string({ error: 'Say why the certificate is revoked' })
		.trim()
		.min(3, 'Say why the certificate is revoked')
		.max(500, 'At most 500 characters')
		.refine((reason) => !hasControlCharacters(reason), 'The reason must not contain control characters'),
})

/** The admin re-issues a certificate under a corrected name. */
export const ReissueCertificateSchema = z.object({ intent: z.literal('reissue'), certificateId: CertificateIdSchema, name: NameSchema })

export const CertificateActionSchema = z.discriminatedUnion('intent', [RevokeCertificateSchema, ReissueCertificateSchema])

/** The student's switch: whether search engines may index the certificate's page. */
export const CertificateVisibilitySchema = z.object({
	certificateId: CertificateIdSchema,
	isPublic: z.enum(['true', 'false']).transform((value) => value === 'true'),
})
