import type { FieldMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import type { PlanDiscountView, PlanOfferView, PlanPaymentView } from '#app/models/payments/plan-purchases.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'
import { ErrorList } from './ui/field.tsx'

const PAID_STATUSES = new Set(['paid', 'paid_outside'])

/** Each payment of a plan: its label, its day (the first "today" before buying) and its amount, and once bought whether it is paid. */
export function PlanPaymentList({ payments, bought = false }: { payments: PlanPaymentView[]; bought?: boolean }) {
	return (
		<ol className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
			{payments.map((payment) => (
				<li key={payment.sequence} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2">
					<span className="text-ink">
						{payment.label}
						<span className="text-slate-600">
							{' — '}
							{!bought && payment.sequence === 1 ? 'today' : `due ${formatDateOnly(payment.dueOn)}`}
							{bought && payment.status
								? PAID_STATUSES.has(payment.status)
									? ' (paid)'
									: payment.status === 'failed'
										? ' (failed)'
										: ''
								: ''}
						</span>
					</span>
					<span className="font-semibold whitespace-nowrap text-ink">{formatMoney(payment.amountCents)}</span>
				</li>
			))}
		</ol>
	)
}

/** A promotion code on a plan: the plan's price, what the code took off, and the total its payments add up to. */
export function PlanDiscountLines({ discount, totalCents }: { discount: PlanDiscountView; totalCents: number }) {
	return (
		<dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm text-slate-700">
			<dt>Plan price</dt>
			<dd className="text-right">{formatMoney(discount.priceCents)}</dd>
			<dt>Promotion code {discount.code}</dt>
			<dd className="text-right">−{formatMoney(discount.discountCents)}</dd>
			<dt className="font-semibold text-ink">Plan total</dt>
			<dd className="text-right font-semibold text-ink">{formatMoney(totalCents)}</dd>
		</dl>
	)
}

/**
 * "Pay in full" or the payment plan, on a purchase form: plain radio buttons, the plan's every
 * payment shown beside it, so the buyer sees amounts and dates before paying, with or without JavaScript.
 */
export function PaymentOptionField({
	field,
	priceCents,
	plan,
	onChange,
}: {
	field: FieldMetadata<string | undefined>
	priceCents: number
	plan: PlanOfferView
	onChange?: (option: string) => void
}) {
	const chosen = field.initialValue ?? 'full'
	const errorId = `${field.id}-error`
	return (
		<fieldset className="space-y-3" aria-describedby={field.errors?.length ? errorId : undefined}>
			<legend className="text-sm font-medium text-slate-800">How would you like to pay?</legend>
			<PaymentOption name={field.name} value="full" chosen={chosen} onChange={onChange}>
				<strong className="text-ink">Pay in full</strong> — {formatMoney(priceCents)} today
			</PaymentOption>
			<PaymentOption name={field.name} value="plan" chosen={chosen} onChange={onChange}>
				<strong className="text-ink">Payment plan</strong> — {formatMoney(plan.totalCents)} in {plan.payments.length} payments, paid in full
				by {formatDateOnly(plan.paidInFullBy)}
				{plan.discount
					? ` (promotion code ${plan.discount.code}: ${formatMoney(plan.discount.discountCents)} off the plan's ${formatMoney(plan.discount.priceCents)}, spread over the payments)`
					: null}
			</PaymentOption>
			<div className="pl-6">
				<PlanPaymentList payments={plan.payments} />
				<p className="mt-1 text-xs text-slate-600">
					The first payment holds your spot as paying in full does. A failed payment gives you time to update your card before access to the
					course pauses.
				</p>
			</div>
			<ErrorList id={errorId} errors={field.errors} />
		</fieldset>
	)
}

/** One radio button of the payment option, with what it costs beside it. */
function PaymentOption({
	name,
	value,
	chosen,
	onChange,
	children,
}: {
	name: string
	value: 'full' | 'plan'
	chosen: string
	onChange?: (option: string) => void
	children: ReactNode
}) {
	return (
		<label className="flex items-start gap-2 text-sm text-slate-800">
			<input
				type="radio"
				name={name}
				value={value}
				defaultChecked={chosen === value}
				onChange={(event) => onChange?.(event.currentTarget.value)}
				className="mt-0.5 size-4 border-slate-400 text-brand-700 focus:ring-brand-600"
			/>
			<span>{children}</span>
		</label>
	)
}
