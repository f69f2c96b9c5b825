import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, redirect, useNavigation } from 'react-router'
import { PlanPaymentList } from '#app/components/payment-plan-choice.tsx'
import { TestCardFields } from '#app/components/test-card-fields.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { ownPlan, payFailedInstalments } from '#app/models/payments/plan-purchases.server.ts'
import { isDeclinedTestCard, TEST_CARD_FIELDS, TestCardSchema } from '#app/models/payments/test-card.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/plan-pay'

/**
 * The student's own plan, collected by the provider the app runs with: another person's plan (the
 * admin's included), or one bought with the other provider, is not found.
 */
async function planOf(request: Request, planIdParam: string) {
	const user = await requireUser(request)
	const planId = parseRowId(planIdParam)
	const plan = planId ? await ownPlan(getDb(), { planId, userId: user.id }) : null
	if (!plan || plan.provider !== getPayments().name) throw data('Plan not found', { status: 404 })
	return plan
}

/** Where the failed-payment e-mail and the dashboard's banner send the student: update the card, pay what failed. */
export async function loader({ request, params }: Route.LoaderArgs) {
	const plan = await planOf(request, params.planId)
	const failed = plan.payments.filter((payment) => payment.status === 'failed')
	return {
		plan: { id: plan.id, courseTitle: plan.title, status: plan.status, pauseReason: plan.pause_reason, payments: plan.payments },
		/** Stripe: the card is updated, and what failed paid, in its customer portal (docs/decisions/062). */
		portal: plan.provider === 'stripe',
		overdueCents: failed.reduce((sum, payment) => sum + payment.amountCents, 0),
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	const plan = await planOf(request, params.planId)
	if (plan.provider === 'stripe') {
		const collector = getPayments().plans
		if (!collector || !plan.provider_subscription_id) throw data('Plan not found', { status: 404 })
		const url = await collector.updateCardUrl({ subscriptionId: plan.provider_subscription_id, returnUrl: `${getEnv().APP_URL}/dashboard` })
		return redirect(url, 303)
	}
	const submission = parseWithZod(await readFormData(request), { schema: TestCardSchema })
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: TEST_CARD_FIELDS }) }, { status: 400 })
	if (isDeclinedTestCard(submission.value.cardNumber)) {
		return data(
			{ result: submission.reply({ formErrors: ['Payment failed. Please try another card.'], hideFields: TEST_CARD_FIELDS }) },
			{ status: 402 },
		)
	}
	// A test-checkout plan is charged by the test checkout; once the site runs on Stripe it can no longer be.
	const payments = getPayments()
	if (!(payments instanceof TestCheckoutPayments)) throw data('Plan not found', { status: 404 })
	const paid = await payFailedInstalments(getDb(), payments, { planId: plan.id })
	return redirectWithToast(
		href('/dashboard'),
		paid > 0
			? { type: 'success', title: 'Payment received', description: `Your access to ${plan.title} is restored.` }
			: { type: 'info', title: 'Nothing is overdue on this plan.' },
	)
}

export default function PlanPayPage({ loaderData, actionData }: Route.ComponentProps) {
	const { plan, portal, overdueCents } = loaderData
	const navigation = useNavigation()
	const [form, fields] = useForm({
		id: 'update-card',
		lastResult: actionData?.result,
		shouldValidate: 'onBlur',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: TestCardSchema }),
	})
	return (
		<div className="mx-auto max-w-lg space-y-6">
			{portal ? null : (
				<Alert tone="warning" title="Test mode — no real charge">
					Any card number of 16 to 19 digits succeeds, for example 4242 4242 4242 4242; 4000 0000 0000 0002 is always declined.
				</Alert>
			)}
			<div>
				<h1 className="text-2xl font-bold text-ink">Update Card and Pay</h1>
				<p className="mt-1 text-slate-700">Your payment plan for {plan.courseTitle}.</p>
			</div>
			<PlanPaymentList payments={plan.payments} bought />
			{portal ? (
				<Form method="post" className="space-y-3">
					<p className="text-slate-700">
						{overdueCents === 0
							? 'Nothing is overdue. You can change the card your next payments are charged to on Stripe.'
							: `${formatMoney(overdueCents)} is overdue. Update your card on Stripe: its next attempt charges the new card, and your access comes back as soon as the payment is made.`}
					</p>
					<Button type="submit" size="lg" className="w-full" disabled={navigation.state === 'submitting'}>
						{navigation.state === 'submitting' ? 'Opening Stripe...' : 'Update card on Stripe'}
					</Button>
				</Form>
			) : overdueCents === 0 ? (
				<p className="text-slate-700">Nothing is overdue: your next payment is charged to your card on its due date.</p>
			) : (
				<>
					{form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
					<Form method="post" {...getFormProps(form)} className="space-y-4">
						<TestCardFields fields={fields} />
						<Button type="submit" size="lg" className="w-full" disabled={navigation.state === 'submitting'}>
							{navigation.state === 'submitting' ? 'Processing...' : `Pay ${formatMoney(overdueCents)}`}
						</Button>
					</Form>
				</>
			)}
		</div>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Update Card and Pay')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
