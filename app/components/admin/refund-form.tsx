import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { ReactNode } from 'react'
import { Form, useNavigation } from 'react-router'
import { useHoldLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { LabelledOptions } from '#app/components/select-options.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { DialogFormButtons } from '#app/components/ui/dialog-buttons.tsx'
import { Field, SelectField, TextareaField } from '#app/components/ui/field.tsx'
import {
	PAYMENT_STATE_LABELS,
	REFUND_MESSAGES,
	REFUND_REASONS,
	type RefundFormValue,
	type RefundPaymentSummary,
	RefundSchema,
} from '#app/models/payments/refunds.ts'
import { centsToDollars, formatMoney, formatPrice } from '#app/utils/money.ts'

/** What was paid, refunded and is left, and every refund so far. */
export function RefundSummary({ payment }: { payment: RefundPaymentSummary }) {
	return (
		<div className="space-y-3 text-sm">
			<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
				<dt className="text-slate-600">Student</dt>
				<dd className="break-words text-ink">
					{payment.studentName ? `${payment.studentName} · ` : ''}
					{payment.customerEmail}
				</dd>
				<dt className="text-slate-600">Course</dt>
				<dd className="text-ink">{payment.courseTitle}</dd>
				<dt className="text-slate-600">Payment</dt>
				<dd className="text-ink">
					{PAYMENT_STATE_LABELS[payment.state]}: {formatPrice(payment.amountCents)} paid
					{payment.refundedCents > 0 ? `, ${formatPrice(payment.refundedCents)} refunded` : ''}
					{payment.pendingCents > 0 ? `, ${formatPrice(payment.pendingCents)} pending` : ''}
				</dd>
				<dt className="text-slate-600">Left to refund</dt>
				<dd className="font-semibold text-ink">{formatMoney(Math.max(payment.leftCents, 0))}</dd>
			</dl>
			{payment.refunds.length > 0 ? (
				<ul aria-label="Refunds so far" className="divide-y divide-slate-100 rounded-md border border-slate-200">
					{payment.refunds.map((refund) => (
						<li key={refund.id} className="px-3 py-2">
							{formatPrice(refund.amountCents)} · {refund.status}
							{refund.source === 'provider' ? ' · made at the payment provider' : refund.actorName ? ` · by ${refund.actorName}` : ''}
							{refund.note ? <span className="block text-slate-600">{refund.note}</span> : null}
						</li>
					))}
				</ul>
			) : null}
		</div>
	)
}

/** Step one: how much, why, and (after a partial refund) what becomes of the enrolment. */
export function RefundForm({
	payment,
	action,
	closeTo,
	requestKey,
	lastResult,
}: {
	payment: RefundPaymentSummary
	action: string
	closeTo: string
	requestKey: string
	lastResult?: SubmissionResult<string[]> | null
}) {
	const navigation = useNavigation()
	const isBusy = navigation.state === 'submitting' && navigation.formAction === action
	const [form, fields] = useForm({
		id: `refund-${payment.id}`,
		lastResult,
		defaultValue: {
			intent: 'review',
			requestKey,
			amount: centsToDollars(payment.leftCents),
			reason: 'requested_by_customer',
			afterRefund: 'keep',
		},
		constraint: getZodConstraint(RefundSchema),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: RefundSchema }),
	})
	return (
		<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="space-y-4">
			{form.errors?.length ? (
				<Alert tone="error" id={form.errorId}>
					{form.errors[0]}
				</Alert>
			) : null}
			<input type="hidden" name={fields.intent.name} value="review" />
			<input type="hidden" name={fields.requestKey.name} value={fields.requestKey.initialValue ?? requestKey} />
			<Field
				label="Amount to refund (USD)"
				errors={fields.amount.errors}
				help={`Up to ${formatPrice(payment.leftCents)}. The whole amount ends the enrollment.`}
				inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal', autoComplete: 'off' }}
			/>
			{/* Always answered (no empty first option), and HTML allows `required` only on a select with one. */}
			<SelectField label="Reason" errors={fields.reason.errors} selectProps={{ ...getSelectProps(fields.reason), required: undefined }}>
				<LabelledOptions options={REFUND_REASONS} />
			</SelectField>
			<TextareaField
				label="Note to the student"
				errors={fields.note.errors}
				help="Sent in the refund e-mail and kept in the audit log."
				textareaProps={{ ...getTextareaProps(fields.note), rows: 3 }}
			/>
			{payment.activeEnrollment ? (
				<fieldset className="space-y-2">
					<legend className="text-sm font-medium text-slate-800">After a partial refund</legend>
					{(
						[
							['keep', 'Keep the student enrolled'],
							['unenroll', 'End the enrollment (the seat frees)'],
						] as const
					).map(([value, label]) => (
						<label key={value} className="flex items-center gap-2 text-sm text-slate-800">
							<input
								type="radio"
								name={fields.afterRefund.name}
								value={value}
								defaultChecked={(fields.afterRefund.initialValue ?? 'keep') === value}
								className="size-4 border-slate-400 text-brand-700 focus:ring-brand-600"
							/>
							{label}
						</label>
					))}
				</fieldset>
			) : null}
			<DialogFormButtons cancelTo={closeTo} busy={isBusy} busyLabel="Checking..." label="Review Refund" />
		</Form>
	)
}

export type RefundReview = RefundFormValue & { amountCents: number; endsEnrollment: boolean; fullRefund: boolean }

/** Step two: the refund spelled out, then Refund (or Back to the form with everything kept). */
export function RefundConfirmation({ payment, review, action }: { payment: RefundPaymentSummary; review: RefundReview; action: string }) {
	const navigation = useNavigation()
	const isBusy = navigation.state === 'submitting' && navigation.formAction === action
	const reason = REFUND_REASONS.find((option) => option.value === review.reason)?.label ?? review.reason
	const fields: Record<string, string> = {
		requestKey: review.requestKey,
		amount: review.amount,
		reason: review.reason,
		note: review.note,
		afterRefund: review.afterRefund,
	}
	return (
		<Form method="post" action={action} preventScrollReset className="space-y-4">
			<Alert tone="warning" title={`Refund ${formatPrice(review.amountCents)} to ${payment.customerEmail}?`}>
				<p>
					{review.fullRefund ? 'This refunds the payment in full.' : `${formatPrice(payment.leftCents - review.amountCents)} stays paid.`}{' '}
					{review.endsEnrollment
						? 'The enrollment becomes inactive and its seat frees.'
						: payment.activeEnrollment
							? 'The student stays enrolled.'
							: 'There is no enrollment to end.'}{' '}
					The money goes back through the payment provider and cannot be taken back here.
				</p>
			</Alert>
			<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
				<dt className="text-slate-600">Reason</dt>
				<dd className="text-ink">{reason}</dd>
				<dt className="text-slate-600">Note</dt>
				<dd className="break-words whitespace-pre-wrap text-ink">{review.note}</dd>
			</dl>
			{Object.entries(fields).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
			<div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
				<Button type="submit" name="intent" value="edit" variant="outline">
					Back
				</Button>
				<Button type="submit" name="intent" value="confirm" variant="destructive" disabled={isBusy}>
					{isBusy ? 'Refunding...' : `Refund ${formatPrice(review.amountCents)}`}
				</Button>
			</div>
		</Form>
	)
}

/**
 * A refund dialog (a payment's, a plan's): what was paid, what the route adds, then the form, its
 * confirmation, or that nothing is left. Live updates wait while a confirmation is on screen.
 */
export function RefundDialog({
	title,
	payment,
	review,
	action,
	closeTo,
	requestKey,
	lastResult,
	children,
}: {
	title: string
	payment: RefundPaymentSummary
	review: RefundReview | null
	action: string
	closeTo: string
	requestKey: string
	lastResult?: SubmissionResult<string[]> | null
	children?: ReactNode
}) {
	useHoldLiveRevalidation(review !== null)
	return (
		<RouteDialog title={title} closeTo={closeTo} size="lg">
			<div className="space-y-5">
				<RefundSummary payment={payment} />
				{children}
				{review ? (
					<RefundConfirmation payment={payment} review={review} action={action} />
				) : payment.leftCents > 0 ? (
					<RefundForm payment={payment} action={action} closeTo={closeTo} requestKey={requestKey} lastResult={lastResult} />
				) : (
					<p className="text-sm text-slate-700">{REFUND_MESSAGES.nothingLeft}</p>
				)}
			</div>
		</RouteDialog>
	)
}
