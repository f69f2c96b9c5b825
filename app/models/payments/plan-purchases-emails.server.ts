import type { Kysely } from 'kysely'
import { createElement } from 'react'
import { InstalmentFailedEmail, instalmentFailedSubject } from '#app/emails/instalment-failed.tsx'
import { InstalmentPaidEmail, instalmentPaidSubject } from '#app/emails/instalment-paid.tsx'
import { emailSite, enqueueEmail } from '#app/models/messaging/emails.server.ts'
import { getSchoolDetails } from '#app/models/site/site-settings.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { Database } from '#db/types.ts'
import { DEFAULT_GRACE_DAYS } from './instalment-plans.ts'

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
	const site = await emailSite(db)
	await enqueueEmail(db, {
		to: plan.email,
		subject: instalmentFailedSubject(plan.title),
		body: createElement(InstalmentFailedEmail, {
			site,
			name: plan.name,
			courseTitle: plan.title,
			label: input.label,
			amount: formatMoney(input.amountCents),
			graceDays: plan.grace_days ?? DEFAULT_GRACE_DAYS,
			updateCardUrl: `${site.url}${updateCardPath(input.planId)}`,
		}),
	})
}

/** Queues the student's receipt for an instalment paid after the purchase, in the transaction that records it (once per instalment). */
export async function sendInstalmentReceipt(
	db: Kysely<Database>,
	input: { planId: number; instalmentId: number; paymentReference: string | null },
) {
	const plan = await db
		.selectFrom('plan_purchases as plan')
		.innerJoin('users', 'users.id', 'plan.user_id')
		.innerJoin('courses', 'courses.id', 'plan.course_id')
		.innerJoin('plan_instalments as paid', (join) =>
			join.onRef('paid.plan_purchase_id', '=', 'plan.id').on('paid.id', '=', input.instalmentId),
		)
		.leftJoin('profiles', 'profiles.id', 'users.id')
		.select((eb) => [
			'users.email',
			'profiles.name',
			'courses.title',
			'paid.label',
			'paid.amount_cents',
			eb
				.selectFrom('plan_instalments as open')
				.select((sub) => sub.fn.coalesce(sub.fn.sum<string>('open.amount_cents'), sub.lit(0)).as('left'))
				.whereRef('open.plan_purchase_id', '=', 'plan.id')
				.where('open.status', 'in', ['scheduled', 'failed'])
				.as('left'),
		])
		.where('plan.id', '=', input.planId)
		.executeTakeFirst()
	if (!plan) return
	const site = await emailSite(db)
	const { address, taxId } = await getSchoolDetails(db)
	await enqueueEmail(db, {
		to: plan.email,
		subject: instalmentPaidSubject(plan.title),
		body: createElement(InstalmentPaidEmail, {
			site,
			school: { address, taxId },
			name: plan.name,
			courseTitle: plan.title,
			label: plan.label,
			amount: formatMoney(plan.amount_cents),
			left: formatMoney(Number(plan.left ?? 0)),
			paymentReference: input.paymentReference,
		}),
	})
}
