import { type FieldMetadata, getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { useFetcher } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { courseLengthInWeeks } from '#app/models/courses/courses.ts'
import { AGREE_INTENT, PurchaseSchema } from '#app/models/payments/checkout.ts'
import { APPLY_CODE_INTENT, type PromotionCodePreview } from '#app/models/payments/promotion-codes.ts'
import { formatPrice } from '#app/utils/money.ts'
import { CancelCheckoutForm } from './cancel-checkout-form.tsx'
import { LocalDate } from './local-date.tsx'
import { PromotionCodeField } from './promotion-code-field.tsx'
import { Alert } from './ui/alert.tsx'
import { Button, ButtonLink } from './ui/button.tsx'
import { CheckboxField } from './ui/field.tsx'

/** What the agreement needs of a course: its price and its length come from it. */
export type AgreementCourse = { title: string; registrationFee: number; startDate: string | null; endDate: string | null }

/**
 * The program agreement: the course's length in one-hour weekly sessions, its fee paid in full
 * before class start and not refundable (a free course has neither), Georgia law and mediation
 * within 30 days. For the program itself (8 weeks, $2,500) it reads as the specification's.
 * A scrollable region, reachable by keyboard.
 */
export function ProgramAgreement({ course }: { course: AgreementCourse }) {
	const weeks = courseLengthInWeeks(course.startDate, course.endDate)
	const isFree = course.registrationFee === 0
	return (
		<section
			aria-label="Agreement terms"
			tabIndex={0}
			className="max-h-80 space-y-3 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800 focus:ring-2 focus:ring-brand-200 focus:outline-none"
		>
			<p>
				This agreement is between you (the "Participant") and Real Estate Mentorship (the "Company") for your place in{' '}
				<strong>{course.title}</strong>.
			</p>
			<ol className="list-decimal space-y-2 pl-5">
				<li>
					<strong>Program.</strong> The program runs for {weeks} {weeks === 1 ? 'week' : 'weeks'}, with one live online mentoring session of
					one hour per week in a small group.
				</li>
				{isFree ? (
					<li>
						<strong>Fee.</strong> This course is <strong>free</strong>: no fee is charged for it.
					</li>
				) : (
					<>
						<li>
							<strong>Fee.</strong> The fee for this course is <strong>{formatPrice(course.registrationFee)}</strong>, to be paid in full
							before the first class starts.
						</li>
						<li>
							<strong>No refunds.</strong> All sales are final. The fee is non-refundable, including when sessions are missed or the
							Participant stops attending.
						</li>
					</>
				)}
				<li>
					<strong>Materials.</strong> Class materials and recordings are for the Participant's personal use and may not be shared, copied or
					resold.
				</li>
				<li>
					<strong>No guarantee.</strong> Real estate investing carries risk. The Company teaches methods and does not guarantee any
					financial result.
				</li>
				<li>
					<strong>Governing law.</strong> This agreement is governed by the laws of the State of Georgia.
				</li>
				<li>
					<strong>Disputes.</strong> Before taking any other action, both parties agree to try to settle a dispute through mediation within
					30 days of it being raised in writing.
				</li>
			</ol>
		</section>
	)
}

export function AgreementCheckbox({
	field,
	onAgreedChange,
}: {
	field: FieldMetadata<boolean | undefined>
	onAgreedChange: (agreed: boolean) => void
}) {
	return (
		<CheckboxField
			label="I have read and agree to the terms of the Real Estate Mentorship Program Agreement."
			errors={field.errors}
			inputProps={{
				...getInputProps(field, { type: 'checkbox' }),
				onChange: (event) => onAgreedChange(event.currentTarget.checked),
			}}
		/>
	)
}

export type PurchaseCourse = AgreementCourse & { id: number }

/** What the purchase form's action answers when it shows the form again. */
export type PurchaseReply = { result: SubmissionResult<string[]>; preview: PromotionCodePreview | null }

/**
 * Enrolment of a signed-in user in one course: the agreement, a promotion code
 * for a paid course (Apply shows the price with it), then 'Register Now' (free)
 * or 'Proceed to Payment'. Posts to /courses/:id/enroll through a fetcher, so
 * errors and the price stay in the dialog; without JavaScript that page shows them.
 */
export function PurchaseForm({
	course,
	cancelTo,
	lastResult,
	preview: pagePreview = null,
	checkoutOpenUntil = null,
}: {
	course: PurchaseCourse
	cancelTo: string
	lastResult?: SubmissionResult<string[]>
	/** The price with a code, as the enroll page got it from its action without JavaScript. */
	preview?: PromotionCodePreview | null
	/** The buyer's checkout for the course is open until then (ISO): buying again goes back to it (docs/decisions/040). */
	checkoutOpenUntil?: string | null
}) {
	const hydrated = useHydrated()
	const fetcher = useFetcher<PurchaseReply>({ key: 'enroll' })
	const sending = fetcher.state !== 'idle' ? fetcher.formData?.get('intent') : null
	const [form, fields] = useForm({
		id: 'enroll',
		lastResult: fetcher.data?.result ?? lastResult,
		shouldValidate: 'onSubmit',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PurchaseSchema }),
	})
	// A refused purchase comes back with the box still ticked: the button must not start disabled.
	const [agreed, setAgreed] = useState(fields.agreeToTerms.initialValue === 'on')
	const preview = fetcher.data ? fetcher.data.preview : pagePreview
	const isFree = course.registrationFee === 0 || preview?.totalCents === 0
	return (
		<div className="space-y-4">
			<p className="text-sm text-slate-700">
				<strong className="text-ink">{course.title}</strong> — {formatPrice(course.registrationFee)}
			</p>
			{form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
			{checkoutOpenUntil ? (
				<Alert tone="info" title="Your checkout is open">
					<p>
						Your spot is held until <LocalDate value={checkoutOpenUntil} time />. Continue to Payment takes you back to your checkout, at
						the price it was opened with. To use another promotion code, cancel this checkout first.
					</p>
					<CancelCheckoutForm action={`/courses/${course.id}/enroll`} className="mt-3" />
				</Alert>
			) : null}
			<ProgramAgreement course={course} />
			<fetcher.Form method="post" action={`/courses/${course.id}/enroll`} {...getFormProps(form)} className="space-y-4">
				{course.registrationFee > 0 && !checkoutOpenUntil ? (
					<PromotionCodeField field={fields.promotionCode} preview={preview} applying={sending === APPLY_CODE_INTENT} />
				) : null}
				<AgreementCheckbox field={fields.agreeToTerms} onAgreedChange={setAgreed} />
				<div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
					<ButtonLink to={cancelTo} preventScrollReset variant="outline">
						Cancel
					</ButtonLink>
					<Button type="submit" name="intent" value={AGREE_INTENT} disabled={sending === AGREE_INTENT || (hydrated && !agreed)}>
						{sending === AGREE_INTENT
							? 'Processing...'
							: checkoutOpenUntil
								? 'Continue to Payment'
								: isFree
									? 'Register Now'
									: 'Proceed to Payment'}
					</Button>
				</div>
			</fetcher.Form>
		</div>
	)
}
