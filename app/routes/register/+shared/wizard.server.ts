import type { Submission, SubmissionResult } from '@conform-to/react'
import type { Kysely } from 'kysely'
import { data } from 'react-router'
import type { CourseWithAvailability } from '#app/models/courses/courses.ts'
import { AgreementChangedError } from '#app/models/enrollment/agreement.server.ts'
import { AGREEMENT_CHANGED_MESSAGE } from '#app/models/enrollment/agreement.ts'
import { COURSE_FULL_MESSAGE } from '#app/models/enrollment/registration.ts'
import { PLAN_UNAVAILABLE_MESSAGES, type PlanRefusal } from '#app/models/payments/checkout.ts'
import { CheckoutError, PlanUnavailableError } from '#app/models/payments/payments.server.ts'
import { planOfferWithCode } from '#app/models/payments/plan-purchases.server.ts'
import { PromotionCodeError, previewPromotionCode } from '#app/models/payments/promotion-codes.server.ts'
import type { PromotionCodePreview } from '#app/models/payments/promotion-codes.ts'
import { describeDiscount, PROMOTION_CODE_MESSAGES } from '#app/models/payments/promotion-codes.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { clientAddress, consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { type ActionRequest, actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'
import type { Database } from '#db/types.ts'
import type { ListedCourse } from './wizard.tsx'

/** Back to the course step, the full course named and the waitlist open, with the Course Full toast. */
export function courseFullRedirect(courseId: number) {
	return redirectWithToast(`/register/course?full=${courseId}&dialog=waitlist`, {
		type: 'error',
		title: 'Course Full',
		description: COURSE_FULL_MESSAGE,
	})
}

/** What the wizard shows of a course. */
export function publicCourse(course: CourseWithAvailability): ListedCourse {
	const { id, title, description, startDate, endDate, registrationFee, capacity, schedule, taken, spotsLeft, isFull, isAlmostFull, tone } =
		course
	return { id, title, description, startDate, endDate, registrationFee, capacity, schedule, taken, spotsLeft, isFull, isAlmostFull, tone }
}

/** The payment provider could not open a checkout: the form again with the reason, and the Checkout Error toast. */
async function checkoutFailed(action: ActionRequest, result: SubmissionResult<string[]>) {
	const headers = await actionToastHeaders(action, { type: 'error', title: 'Checkout Error', description: 'Failed to initiate payment' })
	return data({ result, preview: null }, { status: 502, headers })
}

/**
 * The payment step's Apply button: the price with the code, or the reason it cannot be used, on
 * the same step with everything typed kept. Nothing is reserved until the person proceeds. Where a
 * plan can be chosen (`withPlan`), the plan's payments with the code too.
 */
export async function previewCode(
	db: Kysely<Database>,
	submission: Pick<Submission<unknown>, 'reply'>,
	input: { code: string; courseId: number; withPlan?: boolean },
) {
	const { code, courseId } = input
	const course = await db
		.selectFrom('courses')
		.select('registration_fee')
		.where('id', '=', courseId)
		.where('published', '=', true)
		.executeTakeFirst()
	try {
		if (!course) throw new PromotionCodeError('wrong-course')
		const applied = await previewPromotionCode(db, { code, courseId, priceCents: course.registration_fee })
		// A code that makes the course free leaves no plan to pay; otherwise the plan is shown with the code spread over it.
		const plan = input.withPlan && applied.totalCents > 0 ? await planOfferWithCode(db, getPayments(), { courseId, code: applied }) : null
		const preview: PromotionCodePreview = {
			code: applied.code,
			description: describeDiscount(applied.discount),
			priceCents: applied.priceCents,
			discountCents: applied.discountCents,
			totalCents: applied.totalCents,
			plan: plan === 'too-small' ? null : plan,
			planRefusal: plan === 'too-small' ? PLAN_UNAVAILABLE_MESSAGES['code-too-large'] : null,
		}
		return data({ result: submission.reply(), preview })
	} catch (error) {
		if (!(error instanceof PromotionCodeError)) throw error
		const result = submission.reply({ fieldErrors: { promotionCode: [PROMOTION_CODE_MESSAGES[error.reason]] } })
		return data({ result, preview: null }, { status: 400 })
	}
}

export const PROMOTION_CODE_ATTEMPTS_MESSAGE = 'Too many promotion codes tried from your network. Please wait an hour and try again.'

/**
 * Each code looked up costs its address a point, taken before the lookup so that codes sent at
 * once are counted at once: past the limit, a 429 on the field with what was typed kept, and no
 * code looked at. Null when the request may go on (or names no code).
 */
export async function refuseCodeGuessing(request: Request, submission: Pick<Submission<unknown>, 'reply'>, code: string | undefined) {
	if (!code) return null
	const limit = await consumeRateLimit('promotionCodeAttempts', clientAddress(request))
	if (limit.allowed) return null
	return data(
		{ result: submission.reply({ fieldErrors: { promotionCode: [PROMOTION_CODE_ATTEMPTS_MESSAGE] } }), preview: null },
		{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
	)
}

/** The plan chosen cannot be bought: the form again, the reason on the field it concerns, nothing held. */
function planRefused(submission: Pick<Submission<unknown>, 'reply'>, reason: PlanRefusal) {
	const field = reason === 'code-too-large' ? 'promotionCode' : 'paymentOption'
	return data(
		{ result: submission.reply({ fieldErrors: { [field]: [PLAN_UNAVAILABLE_MESSAGES[reason]] } }), preview: null },
		{ status: 400 },
	)
}

/**
 * A purchase the model refused for a reason the buyer can act on, answered alike on the wizard's
 * agreement step and the course page's purchase form: the form again with the reason. Null for
 * any other error, which the caller handles or throws.
 */
export function purchaseRefused(action: ActionRequest, submission: Pick<Submission<unknown>, 'reply'>, error: unknown) {
	if (error instanceof PromotionCodeError) {
		return data(
			{ result: submission.reply({ fieldErrors: { promotionCode: [PROMOTION_CODE_MESSAGES[error.reason]] } }), preview: null },
			{ status: 400 },
		)
	}
	if (error instanceof PlanUnavailableError) return planRefused(submission, error.reason)
	if (error instanceof CheckoutError) return checkoutFailed(action, submission.reply({ formErrors: [error.message] }))
	// The form loads again with the version now in force; the box is to be ticked for that one.
	if (error instanceof AgreementChangedError) {
		return data(
			{ result: submission.reply({ formErrors: [AGREEMENT_CHANGED_MESSAGE], hideFields: ['agreeToTerms'] }), preview: null },
			{ status: 409 },
		)
	}
	return null
}
