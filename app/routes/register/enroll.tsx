import { parseWithZod } from '@conform-to/zod/v4'
import { data, href, redirect } from 'react-router'
import { PurchaseForm } from '#app/components/enrollment-agreement.tsx'
import { courseStateFor } from '#app/models/courses/course-state.server.ts'
import { canBuySeat, openCheckoutUntil } from '#app/models/courses/course-state.ts'
import { getCourseWithAvailability } from '#app/models/courses/courses.server.ts'
import { agreementForCourse } from '#app/models/enrollment/agreement.server.ts'
import { SeatUnavailableError } from '#app/models/enrollment/seats.server.ts'
import { CANCEL_CHECKOUT_INTENT, PurchaseSchema } from '#app/models/payments/checkout.ts'
import { cancelOpenCheckout, claimSeat, openCheckout } from '#app/models/payments/payments.server.ts'
import { planOfferForBuyer } from '#app/models/payments/plan-purchases.server.ts'
import { APPLY_CODE_INTENT } from '#app/models/payments/promotion-codes.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb, transaction } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { previewCode, purchaseRefused, refuseCodeGuessing } from './+shared/wizard.server.ts'
import { RegisterErrorBoundary } from './+shared/wizard.tsx'
import type { Route } from './+types/enroll'

const CourseIdSchema = rowIdSchema()

async function courseOf(id: string | undefined) {
	const parsed = CourseIdSchema.safeParse(id)
	const course = parsed.success ? await getCourseWithAvailability(getDb(), parsed.data) : null
	if (!course) throw data('Course Not Found', { status: 404 })
	return course
}

function courseFullRedirect(courseId: number) {
	return redirectWithToast(`/courses/${courseId}?dialog=waitlist`, {
		type: 'error',
		title: 'Course Full',
		description: 'This course is now full. Please join our waitlist to be notified when spots become available.',
	})
}

/** The purchase form as a page: where the course page's dialog lands without JavaScript. */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const course = await courseOf(params.id)
	const state = await courseStateFor(getDb(), user.id, course.id)
	// The course page says where an enrolled, paying or waiting person stands.
	if (!canBuySeat(state)) throw redirect(`/courses/${course.id}`)
	const checkoutOpenUntil = openCheckoutUntil(state)
	// A full course is full for everyone but the buyer whose checkout holds one of its seats.
	if (course.isFull && !checkoutOpenUntil) throw redirect(`/courses/${course.id}?dialog=waitlist`)
	const plan = course.registrationFee > 0 ? await planOfferForBuyer(getDb(), course.id) : null
	const agreement = await agreementForCourse(getDb(), course.id, { plan })
	if (!agreement) throw data('Course Not Found', { status: 404 })
	const { id, title, registrationFee } = course
	return { course: { id, title, registrationFee }, agreement, checkoutOpenUntil, plan }
}

/**
 * 'Secure Your Spot Now' for a signed-in user: a free course (or one a
 * promotion code makes free) enrols at once, a paid one holds the seat and goes
 * to the checkout; a full one offers the waitlist. Apply only prices a code.
 */
export async function action(args: Route.ActionArgs) {
	const { request, params } = args
	const user = await requireUser(request)
	const course = await courseOf(params.id)
	const formData = await readFormData(request)
	if (formData.get('intent') === CANCEL_CHECKOUT_INTENT) return cancelCheckout(user.id, course.id)
	const submission = parseWithZod(formData, { schema: PurchaseSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), preview: null }, { status: 400 })
	const guessing = await refuseCodeGuessing(request, submission, submission.value.promotionCode)
	if (guessing) return guessing
	const db = getDb()
	if (submission.value.intent === APPLY_CODE_INTENT) {
		return previewCode(db, submission, { code: submission.value.promotionCode, courseId: course.id, withPlan: true })
	}
	const promotionCode = submission.value.promotionCode ?? null
	const agreementVersionId = submission.value.agreementVersion
	const paymentPlan = submission.value.paymentOption === 'plan'

	const payments = getPayments()
	try {
		const claim = await transaction(db, (trx) =>
			claimSeat(trx, {
				userId: user.id,
				courseId: course.id,
				promotionCode,
				agreementVersionId,
				paymentPlan,
			}),
		)
		if (claim.kind === 'enrolled') {
			return redirectWithToast(href('/dashboard'), {
				type: 'success',
				title: 'Enrollment Successful',
				description: `You are enrolled in ${claim.course.title}.`,
			})
		}
		const checkout = await openCheckout(db, payments, {
			claim,
			user: { id: user.id, email: user.email },
			appUrl: getEnv().APP_URL,
			cancelPath: `/courses/${course.id}`,
		})
		return redirect(checkout.url, 303)
	} catch (error) {
		if (error instanceof SeatUnavailableError) {
			if (error.reason === 'course-full') return courseFullRedirect(course.id)
			if (error.reason === 'already-enrolled') {
				return redirectWithToast(href('/dashboard'), { type: 'info', title: 'You are already enrolled in this course.' })
			}
			throw data('Course Not Found', { status: 404 })
		}
		const refused = await purchaseRefused(args, submission, error)
		if (refused) return refused
		throw error
	}
}

/** The buyer gives up their open checkout (docs/decisions/040) and is back on the course page. */
async function cancelCheckout(userId: string, courseId: number) {
	const outcome = await cancelOpenCheckout(getDb(), getPayments(), { userId, courseId })
	if (outcome === 'paid') {
		return redirectWithToast(href('/dashboard'), { type: 'success', title: 'Your payment was already received: you are enrolled.' })
	}
	return redirectWithToast(
		`/courses/${courseId}`,
		outcome === 'cancelled'
			? { type: 'info', title: 'Checkout cancelled', description: 'Your held spot was released.' }
			: { type: 'info', title: 'No checkout is open for this course.' },
	)
}

export default function EnrollPage({ loaderData, actionData }: Route.ComponentProps) {
	const { course, agreement, checkoutOpenUntil, plan } = loaderData
	return (
		<div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
			<div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
				<h1 className="mb-4 text-2xl font-bold text-ink">Secure Your Spot</h1>
				<PurchaseForm
					course={course}
					agreement={agreement}
					plan={plan}
					cancelTo={`/courses/${course.id}`}
					lastResult={actionData?.result}
					preview={actionData?.preview ?? null}
					checkoutOpenUntil={checkoutOpenUntil}
				/>
			</div>
		</div>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
	pageTitle(`Secure Your Spot${loaderData ? ` in ${loaderData.course.title}` : ''}`)

export const ErrorBoundary = RegisterErrorBoundary
