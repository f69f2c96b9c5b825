import { formatDateOnly } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'

/*
 * What the pages share about a plan bought or on offer (docs/decisions/059): the payments as a buyer
 * reads them, and the one line a course page shows beside its fee.
 */

/** A plan's payment as a buyer reads it: what, when, how much, and once bought its status. */
export type PlanPaymentView = { sequence: number; label: string; dueOn: string; amountCents: number; status?: string }

/** The plan a buyer may choose, as the course's pages show it before anything is paid. */
export type PlanOfferView = { totalCents: number; paidInFullBy: string; payments: PlanPaymentView[] }

/** One line for a course page: the plan's total, its number of payments, the first, and when it is paid in full. */
export function planSummary(plan: PlanOfferView) {
	const first = plan.payments[0]!
	return `Or pay ${formatMoney(plan.totalCents)} in ${plan.payments.length} payments: ${formatMoney(first.amountCents)} today, paid in full by ${formatDateOnly(plan.paidInFullBy)}.`
}
