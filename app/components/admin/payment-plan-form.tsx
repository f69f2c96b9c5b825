import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Field, SelectField } from '#app/components/ui/field.tsx'
import { RowsTable } from '#app/components/ui/rows-table.tsx'
import { StackingTableCard } from '#app/components/ui/table.tsx'
import {
	DEFAULT_GRACE_DAYS,
	MAX_GRACE_DAYS,
	MAX_INSTALMENTS,
	MIN_INSTALMENTS,
	PaymentPlanFormSchema,
	type PlanPreview,
} from '#app/models/payments/instalment-plans.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'

/**
 * The admin's Payment Plan form: a plain post, so it works without JavaScript. "Preview Schedule"
 * sends the same fields and comes back with the schedule and everything typed; "Save Plan" saves.
 */
export function PaymentPlanForm({
	action,
	defaultValue,
	lastResult,
	busy,
}: {
	action: string
	defaultValue: Record<string, string>
	lastResult: SubmissionResult<string[]> | undefined
	busy: 'save' | 'preview' | null
}) {
	const [form, fields] = useForm({
		id: 'payment-plan',
		lastResult,
		defaultValue,
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PaymentPlanFormSchema }),
	})
	return (
		<Card>
			<CardHeader>
				<CardTitle as="h2">Plan</CardTitle>
				<CardDescription>
					Besides paying in full, a buyer may pay a deposit and monthly instalments, or equal monthly instalments. An offered plan shows on
					the course page and the purchase forms while its last instalment can still fall before the course's last day; a change applies to
					new purchases only.
				</CardDescription>
			</CardHeader>
			<CardContent>
				<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
					<FormErrors id={form.errorId} errors={form.errors} />
					<SelectField label="Offer a payment plan" errors={fields.offered.errors} selectProps={getSelectProps(fields.offered)}>
						<option value="no">No: pay in full only</option>
						<option value="yes">Yes: offer this plan too</option>
					</SelectField>
					<SelectField label="Kind of plan" errors={fields.kind.errors} selectProps={getSelectProps(fields.kind)}>
						<option value="equal">Equal monthly instalments</option>
						<option value="deposit">A deposit, then monthly instalments</option>
					</SelectField>
					<Field
						label="Deposit (USD)"
						help="Paid at purchase; it holds the seat. Only for a deposit plan."
						errors={fields.depositDollars.errors}
						inputProps={{ ...getInputProps(fields.depositDollars, { type: 'text' }), inputMode: 'decimal' }}
					/>
					<Field
						label="Number of instalments"
						help={`${MIN_INSTALMENTS} to ${MAX_INSTALMENTS}, one a month: from the purchase for equal instalments, from a month later after a deposit.`}
						errors={fields.instalmentCount.errors}
						inputProps={{
							...getInputProps(fields.instalmentCount, { type: 'number' }),
							min: MIN_INSTALMENTS,
							max: MAX_INSTALMENTS,
							step: 1,
						}}
					/>
					<Field
						label="Surcharge (USD, optional)"
						help="Added to the price for paying in instalments. Empty for none."
						errors={fields.surchargeDollars.errors}
						inputProps={{ ...getInputProps(fields.surchargeDollars, { type: 'text' }), inputMode: 'decimal' }}
					/>
					<Field
						label="Grace days"
						help={`After a failed instalment, access stays on this long (1 to ${MAX_GRACE_DAYS} days, ${DEFAULT_GRACE_DAYS} unless changed), then pauses until it is paid.`}
						errors={fields.graceDays.errors}
						inputProps={{ ...getInputProps(fields.graceDays, { type: 'number' }), min: 1, max: MAX_GRACE_DAYS, step: 1 }}
					/>
					<div className="flex flex-wrap gap-2 sm:col-span-2">
						<Button type="submit" name="intent" value="save" disabled={busy !== null}>
							{busy === 'save' ? 'Saving...' : 'Save Plan'}
						</Button>
						<Button type="submit" name="intent" value="preview" variant="outline" disabled={busy !== null}>
							{busy === 'preview' ? 'Previewing...' : 'Preview Schedule'}
						</Button>
					</div>
				</Form>
			</CardContent>
		</Card>
	)
}

/** The plan's payments for a purchase made today, with what stops the plan if anything does. */
export function PaymentPlanSchedule({ preview, heading }: { preview: PlanPreview; heading: string }) {
	const { schedule, problems, offeredUntil, purchaseDay } = preview
	const fits = Object.keys(problems).length === 0
	return (
		<section aria-labelledby="plan-schedule" className="space-y-3">
			<h2 id="plan-schedule" className="text-lg font-semibold text-ink">
				{heading}
			</h2>
			<p className="text-sm text-slate-700">
				For a purchase made today ({formatDateOnly(purchaseDay)}): {schedule.payments.length} payments, {formatMoney(schedule.totalCents)}{' '}
				in all.{' '}
				{fits && offeredUntil
					? `Buyers can start this plan until ${formatDateOnly(offeredUntil)}; after that the last instalment would fall too late.`
					: null}
			</p>
			{fits ? null : (
				<div className="text-sm text-red-800">
					<p className="font-semibold">Buyers could not start this plan today:</p>
					<ul className="list-disc pl-5">
						{Object.values(problems).map((problem) => (
							<li key={problem}>{problem}</li>
						))}
					</ul>
				</div>
			)}
			<StackingTableCard>
				<RowsTable caption="Payments of the plan" columns={['Payment', 'Due', 'Amount']}>
					{schedule.payments.map((payment) => (
						<tr key={payment.sequence}>
							<td data-label="Payment" className="px-4 py-3 text-ink">
								{payment.label}
							</td>
							<td data-label="Due" className="px-4 py-3 text-slate-700">
								{payment.sequence === 1 ? `${formatDateOnly(payment.dueOn)} (at purchase)` : formatDateOnly(payment.dueOn)}
							</td>
							<td data-label="Amount" className="px-4 py-3 whitespace-nowrap text-slate-700">
								{formatMoney(payment.amountCents)}
							</td>
						</tr>
					))}
				</RowsTable>
			</StackingTableCard>
		</section>
	)
}
