import { href, Link } from 'react-router'
import { PLAN_STATUS_LABELS } from '#app/models/payments/plan-purchases.ts'
import type { StudentCharge, StudentPayments, StudentPlan } from '#app/models/payments/student-payments.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'
import { LocalDate } from './local-date.tsx'
import { ButtonLink } from './ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './ui/card.tsx'
import { HeadedSection } from './ui/headed-section.tsx'

const linkClass = 'font-semibold text-brand-700 underline underline-offset-4'

/** Settings' Payments section (docs/decisions/064): each plan with what is left, then each charge with its receipt. */
export function StudentPaymentsCard({ payments }: { payments: StudentPayments }) {
	const empty = payments.charges.length === 0 && payments.plans.length === 0
	return (
		<Card>
			<CardHeader>
				<CardTitle id="payments-heading">Payments</CardTitle>
				<CardDescription>
					What you have paid for your courses, with a receipt for each payment, and what is left on a payment plan.
				</CardDescription>
			</CardHeader>
			<CardContent className="space-y-6">
				{empty ? (
					<p className="text-sm text-slate-700">
						You have not made any payments yet.{' '}
						<Link to={href('/courses')} className={linkClass}>
							Browse Available Programs
						</Link>
					</p>
				) : null}
				{payments.plans.length ? (
					<HeadedSection id="plans-heading" title="Payment plans" className="space-y-3">
						<ul className="space-y-3">
							{payments.plans.map((plan) => (
								<PlanItem key={plan.id} plan={plan} />
							))}
						</ul>
					</HeadedSection>
				) : null}
				{payments.charges.length ? (
					<HeadedSection id="charges-heading" title="Charges" className="space-y-3">
						<ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
							{payments.charges.map((charge) => (
								<ChargeItem key={`${charge.kind}-${charge.id}`} charge={charge} />
							))}
						</ul>
					</HeadedSection>
				) : null}
			</CardContent>
		</Card>
	)
}

function PlanItem({ plan }: { plan: StudentPlan }) {
	return (
		<li className="space-y-2 rounded-lg border border-slate-200 p-3 text-sm text-slate-700">
			<p className="flex flex-wrap items-baseline justify-between gap-x-4">
				<strong className="text-ink">{plan.courseTitle}</strong>
				<span>{PLAN_STATUS_LABELS[plan.status] ?? plan.status}</span>
			</p>
			<p>
				Paid {plan.paidCount} of {plan.count} payments: {formatMoney(plan.paidCents)} of {formatMoney(plan.totalCents)}.
				{plan.remainingCents > 0 ? ` Left to pay: ${formatMoney(plan.remainingCents)}.` : null}
			</p>
			{plan.discount ? (
				<p>
					Promotion code {plan.discount.code}: {formatMoney(plan.discount.discountCents)} off the plan's{' '}
					{formatMoney(plan.discount.priceCents)}, spread over its payments.
				</p>
			) : null}
			{plan.next && plan.status !== 'cancelled' ? (
				<p>
					{plan.next.failed ? 'Overdue: ' : 'Next payment: '}
					{plan.next.label}, {formatMoney(plan.next.amountCents)}
					{plan.next.failed ? `, failed (was due ${formatDateOnly(plan.next.dueOn)})` : `, due ${formatDateOnly(plan.next.dueOn)}`}.
				</p>
			) : null}
			{plan.updateCardPath ? (
				<ButtonLink to={plan.updateCardPath} size="sm">
					Update card and pay
				</ButtonLink>
			) : null}
		</li>
	)
}

function ChargeItem({ charge }: { charge: StudentCharge }) {
	const money = (cents: number) => formatMoney(cents, { currency: charge.currency })
	const receiptPath = href('/dashboard/settings/receipts/:chargeKind/:chargeId', { chargeKind: charge.kind, chargeId: String(charge.id) })
	return (
		<li className="space-y-1 p-3 text-sm text-slate-700">
			<p className="flex flex-wrap items-baseline justify-between gap-x-4">
				<span>
					<LocalDate value={charge.paidAt} /> — <strong className="text-ink">{charge.courseTitle}</strong>
				</span>
				<strong className="whitespace-nowrap text-ink">{money(charge.amountCents)}</strong>
			</p>
			<p>
				{charge.description}
				{charge.paidOutside ? ' (paid another way)' : ''}
				{charge.discount ? `. Promotion code ${charge.discount.code}: −${money(charge.discount.amountOffCents)}` : ''}
				{charge.refundedCents > 0 ? `. Refunded: ${money(charge.refundedCents)}` : ''}
				{charge.toBeRefunded ? '. The course was full when it arrived: it will be refunded' : ''}.
			</p>
			<p>
				<Link to={receiptPath} className={linkClass}>
					Receipt
					<span className="sr-only">
						{' '}
						for {charge.courseTitle}, {money(charge.amountCents)}
					</span>
				</Link>
			</p>
		</li>
	)
}
