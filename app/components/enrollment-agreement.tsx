import { type FieldMetadata, getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { useFetcher } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import type { AgreementForCourse } from '#app/models/enrollment/agreement.ts'
import { AGREE_INTENT, PurchaseSchema } from '#app/models/payments/checkout.ts'
import type { PlanOfferView } from '#app/models/payments/plan-purchases.ts'
import { APPLY_CODE_INTENT, type PromotionCodePreview } from '#app/models/payments/promotion-codes.ts'
import { formatPrice } from '#app/utils/money.ts'
import { AgreementText } from './agreement-text.tsx'
import { CancelCheckoutForm } from './cancel-checkout-form.tsx'
import { LocalDate } from './local-date.tsx'
import { PaymentOptionField } from './payment-plan-choice.tsx'
import { PromotionCodeField } from './promotion-code-field.tsx'
import { Alert } from './ui/alert.tsx'
import { Button, ButtonLink } from './ui/button.tsx'
import { CheckboxField } from './ui/field.tsx'

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

/** What the purchase form shows of a course. */
export type PurchaseCourse = { id: number; title: string; registrationFee: number }

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
	agreement,
	cancelTo,
	lastResult,
	preview: pagePreview = null,
	checkoutOpenUntil = null,
	plan = null,
}: {
	course: PurchaseCourse
	/** The payment plan on offer today, chosen instead of paying in full (docs/decisions/059). */
	plan?: PlanOfferView | null
	/** The agreement in force for the course, as the server rendered it (docs/decisions/043). */
	agreement: AgreementForCourse
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
			<AgreementText html={agreement.html} />
			<fetcher.Form method="post" action={`/courses/${course.id}/enroll`} {...getFormProps(form)} className="space-y-4">
				<input type="hidden" name="agreementVersion" value={agreement.versionId} />
				{plan && !checkoutOpenUntil ? (
					<PaymentOptionField
						field={fields.paymentOption}
						priceCents={preview ? preview.totalCents : course.registrationFee}
						plan={preview?.plan ?? plan}
					/>
				) : null}
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
