import type { Kysely } from 'kysely'
import { RefundNoticeEmail, refundNoticeSubject } from '#app/emails/refund-notice.tsx'
import { enqueueSiteEmail } from '#app/models/messaging/emails.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { Database } from '#db/types.ts'

export type RefundNotice = {
	to: string
	userId: string | null
	courseTitle: string
	currency: string
	amountRefundedCents: number
	totalRefundedCents: number
	amountPaidCents: number
	note: string
	refundReference: string
	enrollmentEnded: boolean
}

/** The student's notice of a refund, queued in the transaction that records it (once per refund). */
export async function sendRefundNotice(db: Kysely<Database>, notice: RefundNotice) {
	const profile = notice.userId
		? await db.selectFrom('profiles').select('name').where('id', '=', notice.userId).executeTakeFirst()
		: undefined
	await enqueueSiteEmail(db, RefundNoticeEmail, {
		to: notice.to,
		subject: refundNoticeSubject(notice.courseTitle),
		props: {
			name: profile?.name ?? null,
			courseTitle: notice.courseTitle,
			amountRefunded: formatMoney(notice.amountRefundedCents, { currency: notice.currency }),
			totalRefunded: formatMoney(notice.totalRefundedCents, { currency: notice.currency }),
			amountPaid: formatMoney(notice.amountPaidCents, { currency: notice.currency }),
			note: notice.note,
			refundReference: notice.refundReference,
			enrollmentEnded: notice.enrollmentEnded,
		},
	})
}
