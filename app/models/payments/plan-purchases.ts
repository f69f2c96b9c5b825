import { z } from 'zod'
import { formatDateOnly } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'

/*
 * What the pages share about a plan bought or on offer (docs/decisions/059): the payments as a buyer
 * reads them, and the one line a course page shows beside its fee.
 */

/** A plan's payment as a buyer reads it: what, when, how much, and once bought its status. */
export type PlanPaymentView = { sequence: number; label: string; dueOn: string; amountCents: number; status?: string }

/** A promotion code on a plan as the pages show it: the plan's total before the code, and what the code took off. */
export type PlanDiscountView = { code: string; priceCents: number; discountCents: number }

/** A plan row's promotion code as the pages show it; null when no code took anything off. */
export function planDiscountView(plan: {
	total_cents: number
	discount_cents: number
	promotion_code: string | null
}): PlanDiscountView | null {
	return plan.promotion_code && plan.discount_cents > 0
		? { code: plan.promotion_code, priceCents: plan.total_cents + plan.discount_cents, discountCents: plan.discount_cents }
		: null
}

/** The plan a buyer may choose, as the course's pages show it before anything is paid; its total is after a code, if any. */
export type PlanOfferView = { totalCents: number; paidInFullBy: string; payments: PlanPaymentView[]; discount: PlanDiscountView | null }

/** One line for a course page: the plan's total, its number of payments, the first, and when it is paid in full. */
export function planSummary(plan: PlanOfferView) {
	const first = plan.payments[0]!
	return `Or pay ${formatMoney(plan.totalCents)} in ${plan.payments.length} payments: ${formatMoney(first.amountCents)} today, paid in full by ${formatDateOnly(plan.paidInFullBy)}.`
}

/** Test mode's "charge the next instalment now" on the admin's plan list: which plan, which instalment it showed, and the outcome. */
const ChargeInstalmentSchema = z.object({
	planId: rowIdSchema(),
	instalmentId: rowIdSchema(),
	outcome: z.enum(['succeed', 'fail'], { error: 'Choose succeed or fail' }),
})

/** The admin's changes of a plan on its page (docs/decisions/063); 'paid-outside' names its instalment. */
export const PLAN_ADMIN_INTENTS = ['cancel-rest', 'paid-outside', 'pause', 'resume'] as const
export type PlanAdminIntent = (typeof PLAN_ADMIN_INTENTS)[number]

/** The plans page's forms: test mode's charge, and the admin's changes. */
export const PlanActionSchema = z.discriminatedUnion('intent', [
	ChargeInstalmentSchema.extend({ intent: z.literal('charge') }),
	z.object({ intent: z.literal('paid-outside'), planId: rowIdSchema(), instalmentId: rowIdSchema() }),
	z.object({ intent: z.enum(['cancel-rest', 'pause', 'resume']), planId: rowIdSchema() }),
])

/** What a plan's status means to the admin, in a word or two. */
export const PLAN_STATUS_LABELS: Record<string, string> = {
	active: 'In good standing',
	past_due: 'Past due',
	paused: 'Access paused',
	completed: 'Paid in full',
	cancelled: 'Cancelled',
}

/** What an instalment's status means to the admin. */
export const PLAN_INSTALMENT_LABELS: Record<string, string> = {
	scheduled: 'Scheduled',
	paid: 'Paid',
	failed: 'Failed',
	paid_outside: 'Paid outside',
	cancelled: 'Cancelled',
}

/** A student's plan in trouble, for the dashboard's banner: past due (access pauses on a day) or paused. */
export type PlanNotice = {
	planId: number
	courseId: number
	courseTitle: string
	status: 'past_due' | 'paused'
	pauseReason: string | null
	failingSince: string
	/** The day access pauses (past due) or paused (overdue), in UTC days. */
	pausesOn: string
	overdueCents: number
}

/** One plan bought, as the admin's plans page lists it (`listCoursePlans`). */
export type CoursePlanInstalment = { id: number; sequence: number; label: string; dueOn: string; amountCents: number; status: string }

export type CoursePlanRow = {
	id: number
	studentName: string | null
	studentEmail: string | null
	provider: 'stripe' | 'test'
	status: string
	pauseReason: string | null
	totalCents: number
	paidCount: number
	paymentCount: number
	failingSince: Date | null
	next: CoursePlanInstalment | null
	instalments: CoursePlanInstalment[]
	/** What went through the provider and is not refunded yet: what "Refund the plan" can give back. */
	refundableCents: number
}

/** The same plan as the page receives it: dates arrive as strings. */
export type CoursePlanView = Omit<CoursePlanRow, 'failingSince'> & { failingSince: string | null }
