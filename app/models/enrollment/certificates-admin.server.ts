import type { Kysely, Transaction } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { transaction } from '#app/utils/db.server.ts'
import type { Database } from '#db/types.ts'
import { currentCertificate, issueCertificate } from './certificates.server.ts'

/** The admin's list shows at most this many certificates, newest first. */
export const CERTIFICATE_LIST_LIMIT = 200

export async function listCertificates(db: Kysely<Database>, { limit = CERTIFICATE_LIST_LIMIT }: { limit?: number } = {}) {
	const rows = await db
		.selectFrom('certificates')
		.innerJoin('users', 'users.id', 'certificates.user_id')
		.select([
			'certificates.id',
			'certificates.recipient_name',
			'certificates.course_title',
			'certificates.issued_at',
			'certificates.revoked_at',
			'certificates.revoked_reason',
			'users.email',
		])
		.orderBy('certificates.issued_at', 'desc')
		.orderBy('certificates.id')
		.limit(limit)
		.execute()
	return rows.map((row) => ({
		id: row.id,
		recipientName: row.recipient_name,
		courseTitle: row.course_title,
		email: row.email,
		issuedAt: row.issued_at.toISOString(),
		revokedAt: row.revoked_at?.toISOString() ?? null,
		revokedReason: row.revoked_reason,
	}))
}

/** Revokes under the row lock; false when it does not exist or was revoked already. */
async function revokeLocked(trx: Transaction<Database>, id: string, reason: string, now: Date) {
	const revoked = await trx
		.updateTable('certificates')
		.set({ revoked_at: now, revoked_reason: reason })
		.where('id', '=', id)
		.where('revoked_at', 'is', null)
		.returning(['enrollment_id', 'user_id', 'recipient_name', 'course_title'])
		.executeTakeFirst()
	return revoked ?? null
}

/** Revokes a certificate not yet revoked, with its audit entry; false when it was revoked already. */
async function revokeWithAudit(
	trx: Transaction<Database>,
	actorId: string | null,
	{ id, reason, now }: { id: string; reason: string; now: Date },
) {
	const revoked = await revokeLocked(trx, id, reason, now)
	if (!revoked) return false
	await recordAudit(trx, {
		actorId,
		action: 'certificate.revoke',
		entity: 'certificate',
		entityId: id,
		details: { reason, userId: revoked.user_id, enrollmentId: revoked.enrollment_id, courseTitle: revoked.course_title },
	})
	return true
}

/**
 * Revokes the enrolment's current certificate, if it has one, with its audit entry (no actor: the
 * job), in the caller's transaction: a reopened enrolment is no longer completed, so its certificate
 * no longer holds (docs/decisions/052). Completing it again issues a new one.
 */
export async function revokeEnrollmentCertificate(
	trx: Transaction<Database>,
	{ actorId, enrollmentId, reason, now }: { actorId: string | null; enrollmentId: number; reason: string; now: Date },
) {
	const current = await currentCertificate(trx, enrollmentId)
	if (!current || !(await revokeWithAudit(trx, actorId, { id: current.id, reason, now }))) return null
	return current.id
}

/**
 * Revokes a certificate: its page says "Revoked" and its bit in the status list is set from the
 * commit on. 'not-found' for an unknown id, 'already-revoked' for one revoked before.
 */
export async function revokeCertificate(db: Kysely<Database>, actorId: string, input: { id: string; reason: string; now?: Date }) {
	return transaction(db, async (trx) => {
		const exists = await trx.selectFrom('certificates').select('id').where('id', '=', input.id).executeTakeFirst()
		if (!exists) return 'not-found' as const
		const revoked = await revokeWithAudit(trx, actorId, { id: input.id, reason: input.reason, now: input.now ?? new Date() })
		return revoked ? ('revoked' as const) : ('already-revoked' as const)
	})
}

/**
 * Re-issues a certificate under a corrected name (docs/decisions/049): the old one is revoked
 * ("Re-issued") and a new one, with a new id and credential, takes its place, e-mailed again.
 * Only the enrolment's current certificate can be re-issued, and only while the enrolment is
 * completed: 'not-current' otherwise, 'not-found' for an unknown id.
 */
export async function reissueCertificate(db: Kysely<Database>, actorId: string, input: { id: string; recipientName: string; now?: Date }) {
	return transaction(db, async (trx) => {
		const old = await trx
			.selectFrom('certificates')
			.select(['id', 'enrollment_id', 'recipient_name', 'revoked_at'])
			.where('id', '=', input.id)
			.executeTakeFirst()
		if (!old) return { status: 'not-found' as const }
		if (old.enrollment_id === null || old.revoked_at !== null) return { status: 'not-current' as const }
		// The enrolment's lock first (as issuing takes it), then the certificate.
		const enrollment = await trx
			.selectFrom('enrollments')
			.select('status')
			.where('id', '=', old.enrollment_id)
			.forUpdate()
			.executeTakeFirst()
		if (enrollment?.status !== 'completed') return { status: 'not-current' as const }
		const now = input.now ?? new Date()
		if (!(await revokeLocked(trx, old.id, 'Re-issued', now))) return { status: 'not-current' as const }
		const issued = await issueCertificate(trx, old.enrollment_id, { recipientName: input.recipientName, now })
		if (!issued) return { status: 'not-current' as const }
		await recordAudit(trx, {
			actorId,
			action: 'certificate.reissue',
			entity: 'certificate',
			entityId: issued.id,
			details: { replaces: old.id, from: old.recipient_name, to: input.recipientName, enrollmentId: old.enrollment_id },
		})
		return { status: 'reissued' as const, id: issued.id }
	})
}
