import type { Kysely } from 'kysely'
import { InstalmentFailedEmail, instalmentFailedSubject } from '#app/emails/instalment-failed.tsx'
import { InstalmentReceiptEmail, instalmentReceiptSubject } from '#app/emails/instalment-receipt.tsx'
import { enqueueSiteEmail } from '#app/models/messaging/emails.server.ts'
import { getSchoolDetails } from '#app/models/site/site-settings.server.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { Database } from '#db/types.ts'
import { DEFAULT_GRACE_DAYS, dayInZone } from './instalment-plans.ts'

/** The page where a student updates their card and pays what failed (the test checkout's own in test mode). */
export function updateCardPath(planId: number) {
	return `/dashboard/plans/${planId}/pay`
}

/** Queues the student's notice that an instalment failed, in the transaction that records the failure (once per instalment). */
export async function sendInstalmentFailedNotice(db: Kysely<Database>, input: { planId: number; amountCents: number; label: string }) {
	const plan = await db
		.selectFrom('plan_purchases as plan')
		.innerJoin('users', 'users.id', 'plan.user_id')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.leftJoin('profiles', 'profiles.id', 'users.id')
		.leftJoin('course_payment_plans as terms', 'terms.course_id', 'plan.course_id')
		.select(['users.email', 'profiles.name', 'courses.title', 'terms.grace_days'])
		.where('plan.id', '=', input.planId)
		.executeTakeFirst()
	if (!plan) return
	await enqueueSiteEmail(db, InstalmentFailedEmail, {
		to: plan.email,
		subject: instalmentFailedSubject(plan.title),
		props: (site) => ({
			name: plan.name,
			courseTitle: plan.title,
			label: input.label,
			amount: formatMoney(input.amountCents),
			graceDays: plan.grace_days ?? DEFAULT_GRACE_DAYS,
			updateCardUrl: `${site.url}${updateCardPath(input.planId)}`,
		}),
	})
}

/**
 * Queues the student's receipt for an instalment charged after the checkout, in the transaction that
 * records the payment. Keyed by the instalment: whoever records it again (a webhook delivered twice,
 * a retried job), the outbox takes the receipt once.
 */
export async function sendInstalmentReceipt(
	db: Kysely<Database>,
	input: { planId: number; instalmentId: number; to: string; paidAt: Date; paymentReference: string | null },
) {
	const plan = await db
		.selectFrom('plan_purchases as plan')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.leftJoin('profiles', 'profiles.id', 'plan.user_id')
		.select(['profiles.name', 'courses.title', 'courses.time_zone'])
		.where('plan.id', '=', input.planId)
		.executeTakeFirstOrThrow()
	const instalments = await db
		.selectFrom('plan_instalments')
		.select(['id', 'label', 'amount_cents', 'due_on', 'status'])
		.where('plan_purchase_id', '=', input.planId)
		.orderBy('sequence')
		.execute()
	const paid = instalments.find((instalment) => instalment.id === input.instalmentId)!
	const open = instalments.filter((instalment) => instalment.status === 'scheduled' || instalment.status === 'failed')
	const left = open.reduce((sum, instalment) => sum + instalment.amount_cents, 0)
	const next = open[0]
	const school = await getSchoolDetails(db)
	await enqueueSiteEmail(db, InstalmentReceiptEmail, {
		to: input.to,
		subject: instalmentReceiptSubject(plan.title),
		dedupeKey: `instalment-receipt-${input.instalmentId}`,
		props: {
			school,
			name: plan.name,
			courseTitle: plan.title,
			label: paid.label,
			amountPaid: formatMoney(paid.amount_cents),
			paidOn: formatDateOnly(dayInZone(input.paidAt, plan.time_zone)),
			stillToPay: left > 0 ? formatMoney(left) : null,
			nextPayment: next ? `${next.label}, ${formatMoney(next.amount_cents)}, due ${formatDateOnly(next.due_on)}` : null,
			paymentReference: input.paymentReference,
		},
	})
}
