import type { Kysely } from 'kysely'
import MarkdownIt from 'markdown-it'
import { scheduledSessionCount } from '#app/models/sessions/live-sessions.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { getSchoolDetails } from '#app/models/site/site-settings.server.ts'
import type { Database } from '#db/types.ts'
import { type AgreementCourse, type AgreementForCourse, type AgreementPlan, agreementValues, fillAgreement } from './agreement.ts'

/**
 * Markdown as the school writes it, never HTML: `html: false` prints any tag as text, and
 * markdown-it refuses `javascript:` and `data:` links itself.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false })

/** The agreement for one course as HTML, from a template (the version in force or a preview); `{school}` is the school's name as set under School Details. */
export function renderAgreement(body: string, course: AgreementCourse, schoolName: string, plan: AgreementPlan | null = null) {
	return markdown.render(fillAgreement(body, agreementValues(course, schoolName, plan)))
}

/** The version in force: the newest saved (the migration saves the first). */
export async function currentAgreementVersion(db: Kysely<Database>) {
	return db
		.selectFrom('agreement_versions')
		.select(['id', 'body', 'created_at as createdAt'])
		.orderBy('id', 'desc')
		.limit(1)
		.executeTakeFirstOrThrow()
}

/** The agreement changed between the page that showed it and the buyer's agreeing. */
export class AgreementChangedError extends Error {}

/**
 * The version an enrolment records as accepted: the one the form showed, which must still be in
 * force (else AgreementChangedError: the buyer reads the new one first); the one in force when
 * the request did not say.
 */
export async function acceptedAgreementVersion(db: Kysely<Database>, shownId: number | null | undefined) {
	const current = await db.selectFrom('agreement_versions').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()
	if (shownId !== null && shownId !== undefined && shownId !== current.id) throw new AgreementChangedError()
	return current.id
}

/** The versions, newest first, with who saved each. */
export async function listAgreementVersions(db: Kysely<Database>) {
	return db
		.selectFrom('agreement_versions')
		.leftJoin('profiles', 'profiles.id', 'agreement_versions.created_by')
		.leftJoin('users', 'users.id', 'agreement_versions.created_by')
		.select([
			'agreement_versions.id',
			'agreement_versions.created_at as createdAt',
			'profiles.name as authorName',
			'users.email as authorEmail',
			(eb) =>
				eb
					.selectFrom('enrollments')
					.select((sub) => sub.fn.countAll<string>().as('n'))
					.whereRef('enrollments.agreement_version_id', '=', 'agreement_versions.id')
					.as('acceptedBy'),
		])
		.orderBy('agreement_versions.id', 'desc')
		.execute()
}

export async function getAgreementVersion(db: Kysely<Database>, id: number) {
	return db.selectFrom('agreement_versions').select(['id', 'body', 'created_at as createdAt']).where('id', '=', id).executeTakeFirst()
}

/** Saves a new version, which is in force from now on; an unchanged text saves nothing. */
export async function saveAgreementVersion(db: Kysely<Database>, { adminId, body }: { adminId: string; body: string }) {
	return db.transaction().execute(async (trx) => {
		// One save at a time, so two admins saving at once make two versions in order, not a race on "newest".
		await trx.selectFrom('agreement_versions').select('id').orderBy('id', 'desc').limit(1).forUpdate().execute()
		const current = await currentAgreementVersion(trx)
		if (current.body === body) return { id: current.id, saved: false }
		const saved = await trx.insertInto('agreement_versions').values({ body, created_by: adminId }).returning('id').executeTakeFirstOrThrow()
		await recordAudit(trx, { actorId: adminId, action: 'agreement.save', entity: 'agreement_version', entityId: saved.id })
		return { id: saved.id, saved: true }
	})
}

/** What a course's agreement needs, read from its row and its scheduled sessions. */
export async function agreementCourse(db: Kysely<Database>, courseId: number): Promise<AgreementCourse | null> {
	const row = await db
		.selectFrom('courses')
		.select([
			'title',
			'registration_fee as registrationFee',
			'start_date as startDate',
			'end_date as endDate',
			'schedule_minutes as sessionMinutes',
			'refund_terms as refundTerms',
			scheduledSessionCount,
		])
		.where('id', '=', courseId)
		.executeTakeFirst()
	if (!row) return null
	const sessionCount = Number(row.sessionCount ?? 0)
	return { ...row, sessionCount: row.sessionMinutes !== null && sessionCount > 0 ? sessionCount : null }
}

/**
 * The agreement in force for a course, rendered, with its version for the form to send back. With
 * the payment plan on offer, its terms say the plan's total and the day it is paid in full.
 */
export async function agreementForCourse(
	db: Kysely<Database>,
	courseId: number,
	{ plan = null }: { plan?: { totalCents: number; paidInFullBy: string; payments: unknown[] } | null } = {},
): Promise<AgreementForCourse | null> {
	const [version, course, school] = await Promise.all([currentAgreementVersion(db), agreementCourse(db, courseId), getSchoolDetails(db)])
	const terms = plan ? { totalCents: plan.totalCents, paidInFullBy: plan.paidInFullBy, paymentCount: plan.payments.length } : null
	return course ? { versionId: version.id, html: renderAgreement(version.body, course, school.name, terms) } : null
}
