import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { data, Form, href, redirect } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { AgreementText } from '#app/components/agreement-text.tsx'
import { CancelCheckoutForm } from '#app/components/cancel-checkout-form.tsx'
import { CoursePrice } from '#app/components/course-availability.tsx'
import { AgreementCheckbox } from '#app/components/enrollment-agreement.tsx'
import { useHoldLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { PaymentOptionField } from '#app/components/payment-plan-choice.tsx'
import { PromotionCodeField } from '#app/components/promotion-code-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { getCourseWithAvailability } from '#app/models/courses/courses.server.ts'
import { agreementForCourse } from '#app/models/enrollment/agreement.server.ts'
import { completeRegistration, getDraft, RegistrationError } from '#app/models/enrollment/registration.server.ts'
import { EMAIL_TAKEN_MESSAGE, TOO_MANY_REGISTRATIONS_MESSAGE } from '#app/models/enrollment/registration.ts'
import { liveHoldOf, SeatUnavailableError } from '#app/models/enrollment/seats.server.ts'
import { AGREE_INTENT, CANCEL_CHECKOUT_INTENT, PurchaseSchema } from '#app/models/payments/checkout.ts'
import { cancelOpenCheckout } from '#app/models/payments/payments.server.ts'
import { planOfferForBuyer } from '#app/models/payments/plan-purchases.server.ts'
import { APPLY_CODE_INTENT } from '#app/models/payments/promotion-codes.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { getUser, startSession } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { clientAddress, consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { clearDraftCookieHeader, readDraftId } from './+shared/draft-cookie.server.ts'
import { courseFullRedirect, previewCode, publicCourse, purchaseRefused, refuseCodeGuessing } from './+shared/wizard.server.ts'
import {
	RegisterErrorBoundary,
	RegisterFrame,
	registerMeta,
	STEP_PATH,
	StartOverForm,
	type StepResult,
	useIntentSubmitting,
} from './+shared/wizard.tsx'
import type { Route } from './+types/agreement'

/** Step 3 of registration: the agreement for the chosen course. */
export async function loader({ request }: Route.LoaderArgs) {
	if (await getUser(request)) throw redirect(href('/dashboard'))
	const db = getDb()
	const draft = await getDraft(db, await readDraftId(request))
	if (!draft) throw redirect(STEP_PATH[1])
	const course = draft.courseId ? await getCourseWithAvailability(db, draft.courseId) : null
	if (!course) throw redirect(STEP_PATH[2])
	// Set once a checkout was opened: whoever is here again came back from it without paying.
	const account = draft.userId
		? {
				email: draft.email,
				checkoutOpenUntil: (await liveHoldOf(db, { userId: draft.userId, courseId: course.id }))?.expires_at.toISOString() ?? null,
			}
		: null
	const plan = course.registrationFee > 0 ? await planOfferForBuyer(db, course.id) : null
	const agreement = await agreementForCourse(db, course.id, { plan })
	if (!agreement) throw redirect(STEP_PATH[2])
	return { course: publicCourse(course), agreement, account, plan }
}

/**
 * Creates the account and either enrols (free course: the browser is
 * signed in and goes to the dashboard) or holds the seat and sends the
 * browser to the checkout (paid course).
 */
export async function action(args: Route.ActionArgs) {
	const { request } = args
	const formData = await readFormData(request)
	const db = getDb()
	const draftId = await readDraftId(request)
	const draft = await getDraft(db, draftId)
	if (!draftId || !draft) return redirect(STEP_PATH[1])
	if (!draft.courseId) return redirect(STEP_PATH[2])
	if (formData.get('intent') === CANCEL_CHECKOUT_INTENT && draft.userId) {
		const outcome = await cancelOpenCheckout(db, getPayments(), { userId: draft.userId, courseId: draft.courseId })
		return redirectWithToast(
			STEP_PATH[3],
			outcome === 'paid'
				? { type: 'success', title: 'Your payment was already received: you are enrolled. Log in to start.' }
				: { type: 'info', title: 'Checkout cancelled', description: 'Your held spot was released.' },
		)
	}
	const submission = parseWithZod(formData, { schema: PurchaseSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), preview: null }, { status: 400 })
	const guessing = await refuseCodeGuessing(request, submission, submission.value.promotionCode)
	if (guessing) return guessing
	const promotionCode = submission.value.promotionCode ?? null
	if (submission.value.intent === APPLY_CODE_INTENT) {
		return previewCode(db, submission, { code: submission.value.promotionCode, courseId: draft.courseId, withPlan: true })
	}
	const agreementVersionId = submission.value.agreementVersion

	if (!draft.userId) {
		const limit = await consumeRateLimit('registration', clientAddress(request))
		if (!limit.allowed) {
			return data(
				{
					result: submission.reply({
						formErrors: [TOO_MANY_REGISTRATIONS_MESSAGE],
					}),
					preview: null,
				},
				{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
			)
		}
	}

	try {
		const outcome = await completeRegistration(db, getPayments(), draftId, {
			appUrl: getEnv().APP_URL,
			promotionCode,
			agreementVersionId,
			paymentPlan: submission.value.paymentOption === 'plan',
		})
		if (outcome.kind === 'checkout') return redirect(outcome.url, 303)
		const headers = new Headers()
		headers.append('Set-Cookie', await startSession(request, outcome.userId))
		headers.append('Set-Cookie', await clearDraftCookieHeader())
		return redirectWithToast(
			href('/dashboard'),
			{
				type: 'success',
				title: 'Registration Successful',
				description: `You are enrolled in ${outcome.courseTitle}. Please check your inbox to confirm your email address.`,
			},
			{ headers },
		)
	} catch (error) {
		if (error instanceof SeatUnavailableError) {
			if (error.reason === 'course-full') return courseFullRedirect(draft.courseId)
			return redirectWithToast(STEP_PATH[2], {
				type: 'error',
				title: 'Failed to complete registration: this course is no longer available.',
			})
		}
		if (error instanceof RegistrationError) {
			return error.reason === 'email-taken'
				? redirectWithToast(STEP_PATH[1], { type: 'error', title: `Failed to create account: ${EMAIL_TAKEN_MESSAGE}` })
				: redirect(STEP_PATH[1])
		}
		const refused = await purchaseRefused(args, submission, error)
		if (refused) return refused
		throw error
	}
}

export default function AgreementStep({ loaderData, actionData }: Route.ComponentProps) {
	const { course, agreement, account, plan } = loaderData
	const lastResult: StepResult = actionData?.result
	const preview = actionData?.preview ?? null
	useHoldLiveRevalidation(preview !== null)
	const hydrated = useHydrated()
	const submitting = useIntentSubmitting(AGREE_INTENT)
	const applying = useIntentSubmitting(APPLY_CODE_INTENT)
	const [form, fields] = useForm({
		id: 'register-agreement',
		lastResult,
		shouldValidate: 'onSubmit',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PurchaseSchema }),
	})
	// A refused submission comes back with the box still ticked: the button must not start disabled.
	const [agreed, setAgreed] = useState(fields.agreeToTerms.initialValue === 'on')
	const isFree = course.registrationFee === 0 || preview?.totalCents === 0

	return (
		<RegisterFrame step={3} title="Real Estate Mentorship Program Agreement">
			<p className="mb-4 text-sm text-slate-700">
				Selected course: <strong className="text-ink">{course.title}</strong> — <CoursePrice cents={course.registrationFee} />
			</p>
			{account ? <UnpaidAccountNotice email={account.email} checkoutOpenUntil={account.checkoutOpenUntil} /> : null}
			{form.errors?.length ? (
				<Alert tone="error" className="mb-4">
					{form.errors[0]}
				</Alert>
			) : null}
			<AgreementText html={agreement.html} />
			<Form method="post" action={STEP_PATH[3]} {...getFormProps(form)} className="mt-5 space-y-5">
				<input type="hidden" name="agreementVersion" value={agreement.versionId} />
				{plan && !account?.checkoutOpenUntil ? (
					<PaymentOptionField
						field={fields.paymentOption}
						priceCents={preview ? preview.totalCents : course.registrationFee}
						plan={preview?.plan ?? plan}
					/>
				) : null}
				{course.registrationFee > 0 && !account?.checkoutOpenUntil ? (
					<PromotionCodeField field={fields.promotionCode} preview={preview} applying={applying} />
				) : null}
				<AgreementCheckbox field={fields.agreeToTerms} onAgreedChange={setAgreed} />
				<div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
					<ButtonLink to={STEP_PATH[2]} variant="outline">
						Back
					</ButtonLink>
					<Button type="submit" name="intent" value={AGREE_INTENT} disabled={submitting || (hydrated && !agreed)}>
						{submitting ? 'Processing...' : isFree ? 'Register Now' : 'Proceed to Payment'}
					</Button>
				</div>
			</Form>
		</RegisterFrame>
	)
}

/**
 * Where a checkout left unpaid returns: the account exists, the seat is not paid, and the ways on. A
 * checkout still open holds the spot: paying goes back to it, or it can be cancelled (docs/decisions/040).
 */
function UnpaidAccountNotice({ email, checkoutOpenUntil }: { email: string; checkoutOpenUntil: string | null }) {
	return (
		<Alert tone="warning" title="Your payment was not completed" className="mb-4">
			{checkoutOpenUntil ? (
				<>
					<p>
						Your account for {email} has been created and your spot is held until <LocalDate value={checkoutOpenUntil} time />. Proceed to
						payment below to go back to your checkout, at the price it was opened with; to use another promotion code, cancel it first.
					</p>
					<CancelCheckoutForm action={STEP_PATH[3]} className="mt-3" />
				</>
			) : (
				<p>
					Your account for {email} has been created, but you are not enrolled yet. Proceed to payment below to take your spot. Or come back
					later: confirm your email address with the link we sent you, log in, and complete the payment from your dashboard.
				</p>
			)}
			<p className="mt-2">To use other details, start over: the same email address can be registered again until you are enrolled.</p>
			<div className="mt-3">
				<StartOverForm />
			</div>
		</Alert>
	)
}

export const meta: Route.MetaFunction = registerMeta

export const ErrorBoundary = RegisterErrorBoundary
