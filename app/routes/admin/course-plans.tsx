import { parseWithZod } from '@conform-to/zod/v4'
import { data, href, Outlet } from 'react-router'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { CoursePlanCard } from '#app/components/admin/course-plan-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { PlanActionSchema } from '#app/models/payments/plan-purchases.ts'
import { changePlan, chargeInstalmentNow, listCoursePlans } from '#app/models/payments/plan-purchases-admin.server.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/course-plans'

function courseIdOf(params: { courseId: string }) {
	const courseId = parseRowId(params.courseId)
	if (!courseId) throw data('Course not found', { status: 404 })
	return courseId
}

/**
 * Every plan bought for the course (docs/decisions/054, 059, 063): paid k of n, the next payment,
 * failing since, each instalment; `?confirm=cancel-rest&plan=` asks before cancelling the rest.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const page = await listCoursePlans(getDb(), courseIdOf(params))
	if (!page) throw data('Course not found', { status: 404 })
	const searchParams = new URL(request.url).searchParams
	const asked = searchParams.get('confirm') === 'cancel-rest' ? parseRowId(searchParams.get('plan') ?? '') : null
	const confirm = page.plans.find((plan) => plan.id === asked && ['active', 'past_due', 'paused'].includes(plan.status)) ?? null
	return {
		course: page.course,
		plans: page.plans.map((plan) => ({ ...plan, failingSince: plan.failingSince?.toISOString() ?? null })),
		testMode: getPayments().name === 'test',
		confirm: confirm
			? {
					planId: confirm.id,
					student: confirm.studentName ?? confirm.studentEmail ?? 'this student',
					openCents: confirm.instalments
						.filter((instalment) => instalment.status === 'scheduled' || instalment.status === 'failed')
						.reduce((sum, instalment) => sum + instalment.amountCents, 0),
				}
			: null,
	}
}

const CHANGED: Record<string, string> = {
	'cancel-rest': 'The rest of the plan is cancelled. The student stays enrolled.',
	'paid-outside': 'Instalment marked paid outside.',
	pause: 'Plan paused. Access to the course pauses until you resume it.',
	resume: 'Plan resumed.',
}

/** Test mode's charge now, and the admin's changes: cancel the rest, mark paid outside, pause, resume. */
export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const courseId = courseIdOf(params)
	const back = href('/dashboard/admin/courses/:courseId/plans', { courseId: String(courseId) })
	const submission = parseWithZod(await readFormData(request), { schema: PlanActionSchema })
	if (submission.status !== 'success') return redirectWithToast(back, { type: 'error', title: 'Choose a plan and what to do with it.' })
	const value = submission.value
	if (value.intent === 'charge') {
		const payments = getPayments()
		if (!(payments instanceof TestCheckoutPayments)) throw data('Charging by hand is for the test checkout only', { status: 404 })
		const outcome = await chargeInstalmentNow(getDb(), payments, { adminId: admin.id, courseId, ...value })
		if (outcome === 'not-found') throw data('Plan not found', { status: 404 })
		if (outcome === 'already') return redirectWithToast(back, { type: 'info', title: 'That instalment was already charged.' })
		return redirectWithToast(
			back,
			value.outcome === 'succeed'
				? { type: 'success', title: 'Instalment paid' }
				: { type: 'info', title: 'Instalment failed', description: 'The student was e-mailed a link to update their card.' },
		)
	}
	const outcome = await changePlan(getDb(), getPayments(), { adminId: admin.id, courseId, ...value })
	if (outcome === 'not-found') throw data('Plan not found', { status: 404 })
	if (outcome === 'already') return redirectWithToast(back, { type: 'info', title: 'That was done already.' })
	if (outcome === 'collected-by-provider') {
		return redirectWithToast(back, {
			type: 'error',
			title: 'Stripe collects this plan: cancel the rest instead.',
			description: 'Stripe would still charge this instalment. To forgive or settle what is left, cancel the rest of the plan.',
		})
	}
	if (outcome === 'changed-provider-retrying') {
		return redirectWithToast(back, {
			type: 'warning',
			title: `${CHANGED[value.intent] ?? 'Plan changed'} Stripe has not confirmed it yet.`,
			description:
				'Stripe could not be reached. The app keeps asking it every few minutes until it follows; check the subscription in Stripe if this lasts.',
		})
	}
	return redirectWithToast(back, { type: 'success', title: CHANGED[value.intent] ?? 'Plan changed' })
}

export default function CoursePlans({ loaderData }: Route.ComponentProps) {
	const { course, plans, testMode, confirm } = loaderData
	const back = href('/dashboard/admin/courses/:courseId/plans', { courseId: String(course.id) })
	return (
		<div className="space-y-6">
			{confirm ? (
				<ConfirmDialog
					title="Cancel the Rest of the Plan"
					description={`Cancel what ${confirm.student} still has to pay (${formatMoney(confirm.openCents)})? Nothing more is charged; the student stays enrolled and keeps access. To give money back or end the enrollment, refund the plan instead.`}
					closeTo={back}
					fields={{ intent: 'cancel-rest', planId: String(confirm.planId) }}
					confirmLabel="Cancel the Rest"
					busyLabel="Cancelling..."
				/>
			) : null}
			<div className="flex flex-wrap items-start justify-between gap-3">
				<div>
					<h1 className="text-2xl font-bold text-ink">Plans Bought</h1>
					<p className="text-slate-700">{course.title}: every student paying in instalments.</p>
				</div>
				<ButtonLink to={href('/dashboard/admin/courses/:courseId/payment-plan', { courseId: String(course.id) })} variant="outline">
					Payment Plan
				</ButtonLink>
			</div>
			{testMode ? (
				<Alert tone="warning" title="Test mode">
					The built-in test checkout collects these plans: instalments are charged on their due dates, or now with the buttons below to see
					a whole plan run, a failure included.
				</Alert>
			) : null}
			{plans.length === 0 ? (
				<p className="text-slate-700">Nobody has bought this course on its payment plan yet.</p>
			) : (
				<ul className="space-y-4">
					{plans.map((plan) => (
						<CoursePlanCard key={plan.id} plan={plan} courseId={course.id} testMode={testMode} />
					))}
				</ul>
			)}
			<Outlet />
		</div>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Plans Bought | Admin' }]

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
