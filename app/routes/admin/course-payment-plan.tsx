import { parseWithZod } from '@conform-to/zod/v4'
import { data, href, Link, useNavigation } from 'react-router'
import { PaymentPlanForm, PaymentPlanSchedule } from '#app/components/admin/payment-plan-form.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { getPaymentPlanPage, previewPaymentPlan, savePaymentPlan } from '#app/models/payments/instalment-plans.server.ts'
import { DEFAULT_GRACE_DAYS, PaymentPlanFormSchema, planValues } from '#app/models/payments/instalment-plans.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { centsToDollars, formatPrice } from '#app/utils/money.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/course-payment-plan'

function courseIdOf(params: { courseId: string }) {
	const courseId = parseRowId(params.courseId)
	if (!courseId) throw data('Course not found', { status: 404 })
	return courseId
}

/** What stops a plan, by field, as Conform's field errors. */
function fieldErrorsOf(errors: Record<string, string | undefined>) {
	return Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, message ? [message] : []]))
}

/** A course's payment plan (issue 41, docs/decisions/054): its terms, and its schedule for a purchase today. */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const page = await getPaymentPlanPage(getDb(), courseIdOf(params))
	if (!page) throw data('Course not found', { status: 404 })
	return page
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const courseId = courseIdOf(params)
	const submission = parseWithZod(await readFormData(request), { schema: PaymentPlanFormSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), preview: null }, { status: 400 })
	const value = submission.value
	const db = getDb()
	if (value.intent === 'preview') {
		if (value.offered === 'no') return data({ result: submission.reply(), preview: null })
		const preview = await previewPaymentPlan(db, courseId, planValues(value).terms)
		if (!preview) throw data('Course not found', { status: 404 })
		const { form, ...fieldErrors } = preview.problems
		const refused = Boolean(form) || Object.keys(fieldErrors).length > 0
		return data(
			{ result: submission.reply({ formErrors: form ? [form] : undefined, fieldErrors: fieldErrorsOf(fieldErrors) }), preview },
			{ status: refused ? 400 : 200 },
		)
	}
	const saved = await savePaymentPlan(db, { adminId: admin.id, courseId, value })
	if (saved.kind === 'not-found') throw data('Course not found', { status: 404 })
	if (saved.kind === 'refused') {
		const { form, ...fieldErrors } = saved.problems
		return data(
			{ result: submission.reply({ formErrors: form ? [form] : undefined, fieldErrors: fieldErrorsOf(fieldErrors) }), preview: null },
			{ status: 400 },
		)
	}
	const back = href('/dashboard/admin/courses/:courseId/payment-plan', { courseId: String(courseId) })
	if (!saved.changed) return redirectWithToast(back, { type: 'info', title: 'Nothing to save: the payment plan is unchanged.' })
	return redirectWithToast(back, { type: 'success', title: saved.offered ? 'Payment plan saved' : 'Payment plan no longer offered' })
}

export default function CoursePaymentPlan({ loaderData, actionData }: Route.ComponentProps) {
	const { course, plan, preview } = loaderData
	const navigation = useNavigation()
	const intent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
	const shown = actionData?.preview ?? (actionData ? null : preview)
	return (
		<div className="space-y-6">
			<div className="flex flex-wrap items-start justify-between gap-3">
				<div>
					<h1 className="text-2xl font-bold text-ink">Payment Plan</h1>
					<p className="text-slate-700">
						{course.title}: {formatPrice(course.priceCents)} in full; the course's last day is {formatDateOnly(course.lastDay)}.
					</p>
					<p className="mt-1 text-sm">
						<Link
							to={href('/dashboard/admin/courses/:courseId/plans', { courseId: String(course.id) })}
							className="font-semibold text-brand-700 underline-offset-4 hover:underline"
						>
							Plans bought for this course
						</Link>
					</p>
				</div>
				<ButtonLink to={href('/dashboard/admin/courses')} variant="outline" size="sm">
					Back to Courses
				</ButtonLink>
			</div>
			<PaymentPlanForm
				action={href('/dashboard/admin/courses/:courseId/payment-plan', { courseId: String(course.id) })}
				defaultValue={{
					offered: plan?.offered ? 'yes' : 'no',
					kind: plan?.kind ?? 'equal',
					depositDollars: plan?.depositCents ? centsToDollars(plan.depositCents) : '',
					instalmentCount: String(plan?.instalmentCount ?? 3),
					surchargeDollars: plan?.surchargeCents ? centsToDollars(plan.surchargeCents) : '',
					graceDays: String(plan?.graceDays ?? DEFAULT_GRACE_DAYS),
				}}
				lastResult={actionData?.result}
				busy={intent === 'save' || intent === 'preview' ? intent : null}
			/>
			{shown ? (
				<PaymentPlanSchedule preview={shown} heading={actionData?.preview ? 'Preview of the Schedule' : 'Schedule of the Saved Plan'} />
			) : null}
		</div>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
	{ title: `Payment Plan${loaderData ? ` of ${loaderData.course.title}` : ''} | Admin` },
]

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
