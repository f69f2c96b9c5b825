import { Form, href, Link, useNavigation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { type CoursePlanView, PLAN_INSTALMENT_LABELS, PLAN_STATUS_LABELS } from '#app/models/payments/plan-purchases.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'

export type CoursePlanCardProps = {
	plan: CoursePlanView
	courseId: number
	testMode: boolean
}

const RUNNING = ['active', 'past_due', 'paused']

/** One plan bought on the admin's plans page: where it stands, each instalment, and what the admin can do with it. */
export function CoursePlanCard({ plan, courseId, testMode }: CoursePlanCardProps) {
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	const running = RUNNING.includes(plan.status)
	const student = plan.studentName ?? plan.studentEmail ?? 'Deleted account'
	const page = href('/dashboard/admin/courses/:courseId/plans', { courseId: String(courseId) })
	const status =
		plan.status === 'paused' && plan.pauseReason === 'admin' ? 'Paused by an admin' : (PLAN_STATUS_LABELS[plan.status] ?? plan.status)
	return (
		<li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby={`plan-${plan.id}`}>
			<h2 id={`plan-${plan.id}`} className="font-semibold text-ink">
				{student}
			</h2>
			<dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
				<div className="flex gap-2">
					<dt className="text-slate-600">Status</dt>
					<dd className="text-ink">{status}</dd>
				</div>
				<div className="flex gap-2">
					<dt className="text-slate-600">Paid</dt>
					<dd className="text-ink">
						{plan.paidCount} of {plan.paymentCount} ({formatMoney(plan.totalCents)} in all)
					</dd>
				</div>
				<div className="flex gap-2">
					<dt className="text-slate-600">Next due</dt>
					<dd className="text-ink">
						{plan.next && running
							? `${plan.next.label}, ${formatMoney(plan.next.amountCents)}, ${formatDateOnly(plan.next.dueOn)}${plan.next.status === 'failed' ? ' (failed)' : ''}`
							: 'Nothing left to pay'}
					</dd>
				</div>
				{plan.failingSince ? (
					<div className="flex gap-2">
						<dt className="text-slate-600">Failing since</dt>
						<dd className="text-ink">{formatDateOnly(plan.failingSince.slice(0, 10))}</dd>
					</div>
				) : null}
			</dl>
			<ol aria-label={`Instalments of ${student}`} className="mt-3 divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
				{plan.instalments.map((instalment) => (
					<li key={instalment.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
						<span className="text-ink">
							{instalment.label}, {formatMoney(instalment.amountCents)}, due {formatDateOnly(instalment.dueOn)}:{' '}
							<span className="font-medium">{PLAN_INSTALMENT_LABELS[instalment.status] ?? instalment.status}</span>
						</span>
						{running && plan.provider === 'test' && (instalment.status === 'scheduled' || instalment.status === 'failed') ? (
							<Form method="post" action={page}>
								<input type="hidden" name="intent" value="paid-outside" />
								<input type="hidden" name="planId" value={plan.id} />
								<input type="hidden" name="instalmentId" value={instalment.id} />
								<Button type="submit" size="sm" variant="outline" disabled={busy}>
									Mark paid outside<span className="sr-only">: {instalment.label.toLowerCase()}</span>
								</Button>
							</Form>
						) : null}
					</li>
				))}
			</ol>
			{running && plan.provider === 'stripe' ? (
				<p className="mt-2 text-sm text-slate-700">
					Stripe collects this plan, so an instalment cannot be marked paid outside: to forgive or settle what is left, cancel the rest.
				</p>
			) : null}
			<div className="mt-3 flex flex-wrap items-center gap-2">
				{testMode && running && plan.next && plan.provider === 'test' ? (
					<Form method="post" action={page} className="flex flex-wrap items-center gap-2">
						<input type="hidden" name="intent" value="charge" />
						<input type="hidden" name="planId" value={plan.id} />
						<input type="hidden" name="instalmentId" value={plan.next.id} />
						<span className="text-sm text-slate-700">Charge {plan.next.label.toLowerCase()} now:</span>
						<Button type="submit" name="outcome" value="succeed" size="sm" disabled={busy}>
							Succeed
						</Button>
						<Button type="submit" name="outcome" value="fail" size="sm" variant="outline" disabled={busy}>
							Fail
						</Button>
					</Form>
				) : null}
				{running ? (
					<Form method="post" action={page}>
						<input type="hidden" name="intent" value={plan.pauseReason === 'admin' ? 'resume' : 'pause'} />
						<input type="hidden" name="planId" value={plan.id} />
						<Button type="submit" size="sm" variant="outline" disabled={busy}>
							{plan.pauseReason === 'admin' ? 'Resume' : 'Pause'}
						</Button>
					</Form>
				) : null}
				{running ? (
					<Link
						to={`${page}?confirm=cancel-rest&plan=${plan.id}`}
						preventScrollReset
						className="text-sm font-medium text-brand-700 underline underline-offset-2"
					>
						Cancel the rest
					</Link>
				) : null}
				{plan.refundableCents > 0 ? (
					<Link
						to={href('/dashboard/admin/courses/:courseId/plans/:planId/refund', { courseId: String(courseId), planId: String(plan.id) })}
						preventScrollReset
						className="text-sm font-medium text-red-700 underline underline-offset-2"
					>
						Refund the plan
					</Link>
				) : null}
			</div>
		</li>
	)
}
