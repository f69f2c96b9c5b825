import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import { NameEmailFields } from '#app/components/name-email-fields.tsx'
import { PlanDiscountLines, PlanPaymentList } from '#app/components/payment-plan-choice.tsx'
import { TestCardFields } from '#app/components/test-card-fields.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { getUserContact } from '#app/models/accounts/users.server.ts'
import { expireCheckout, fulfil } from '#app/models/payments/payments.server.ts'
import { planOfCheckout } from '#app/models/payments/plan-purchases.server.ts'
import { isDeclinedTestCard, TEST_CARD_FIELDS, TestCardSchema } from '#app/models/payments/test-card.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { formatPrice } from '#app/utils/money.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { RegisterErrorBoundary } from './+shared/wizard.tsx'
import type { Route } from './+types/test-checkout'

/** The spec's simulated processing time. */
const PROCESSING_DELAY_MS = 1500

const CardSchema = TestCardSchema.extend({
	intent: z.literal('pay'),
	name: z
		.string({ error: 'Name must be at least 2 characters.' })
		.trim()
		.min(2, 'Name must be at least 2 characters.')
		.max(200, 'Name must be at most 200 characters.'),
	email: z
		.string({ error: 'Please enter a valid email.' })
		.trim()
		.max(254, 'Please enter a valid email.')
		.pipe(z.email({ error: 'Please enter a valid email.' })),
	cardHolder: z
		.string({ error: 'Cardholder name must be at least 2 characters.' })
		.trim()
		.min(2, 'Cardholder name must be at least 2 characters.')
		.max(200, 'Cardholder name must be at most 200 characters.'),
})

const SessionIdSchema = z.string().regex(/^cs_test_[0-9a-f]{32}$/)

/** The page exists only while the built-in test checkout is the payment adapter. */
async function loadSession(sessionId: string | undefined) {
	const payments = getPayments()
	const id = SessionIdSchema.safeParse(sessionId)
	if (!(payments instanceof TestCheckoutPayments) || !id.success) throw data('Checkout session not found', { status: 404 })
	const session = await payments.getSession(id.data)
	if (!session) throw data('Checkout session not found', { status: 404 })
	return { payments, session }
}

/** Only the path of a return URL is used, so the test checkout never leaves the site it runs on. */
function localPath(url: string) {
	const parsed = new URL(url, 'http://localhost')
	return `${parsed.pathname}${parsed.search}`
}

export async function loader({ params }: Route.LoaderArgs) {
	const { session } = await loadSession(params.sessionId)
	if (session.status === 'complete') throw redirect(localPath(session.successUrl))
	// The checkout is for an account the site made: its name fills the form as its e-mail does.
	const customer = session.metadata.userId ? await getUserContact(getDb(), session.metadata.userId) : null
	// A plan's first payment: the page shows the whole schedule the buyer agrees to (docs/decisions/059).
	const plan = await planOfCheckout(getDb(), session.id)
	return {
		plan: plan ? { totalCents: plan.totalCents, discount: plan.discount, payments: plan.payments } : null,
		session: {
			id: session.id,
			description: session.description,
			amountCents: session.amountCents,
			// Shown as Stripe's page shows a promotion code: the price, the code and what it takes off.
			subtotalCents: session.amountSubtotal ?? session.amountCents,
			discountCents: session.amountDiscount,
			promotionCode: session.promotionCode,
			customerEmail: session.customerEmail ?? '',
			customerName: customer?.name ?? '',
			expired: session.status === 'expired',
			cancelPath: localPath(session.cancelUrl),
		},
	}
}

export async function action({ request, params }: Route.ActionArgs) {
	const { payments, session } = await loadSession(params.sessionId)
	const formData = await readFormData(request)
	const db = getDb()
	if (formData.get('intent') === 'cancel') {
		await payments.expireCheckoutSession(session.id)
		await expireCheckout(db, session.id)
		return redirectWithToast(localPath(session.cancelUrl), { type: 'info', title: 'Payment cancelled' })
	}
	const submission = parseWithZod(formData, { schema: CardSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: TEST_CARD_FIELDS }) }, { status: 400 })
	}
	await new Promise((resolve) => setTimeout(resolve, PROCESSING_DELAY_MS))
	const declined = isDeclinedTestCard(submission.value.cardNumber)
	if (declined || !(await payments.markPaid(session.id))) {
		return data(
			{ result: submission.reply({ formErrors: ['Payment failed. Please try again.'], hideFields: TEST_CARD_FIELDS }) },
			{ status: 402 },
		)
	}
	await fulfil(db, payments, session.id)
	return redirectWithToast(localPath(session.successUrl), { type: 'success', title: 'Payment processed successfully!' })
}

export default function TestCheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
	const { session, plan } = loaderData
	const navigation = useNavigation()
	const paying = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'pay'
	const [form, fields] = useForm({
		id: 'test-checkout',
		lastResult: actionData?.result,
		defaultValue: { name: session.customerName, cardHolder: session.customerName, email: session.customerEmail },
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CardSchema }),
	})
	const amount = formatPrice(session.amountCents)

	return (
		<div className="mx-auto max-w-lg px-4 py-10 sm:py-14">
			<Alert tone="warning" title="Test mode — no real charge" className="mb-6">
				This is the built-in test checkout. No card is charged and no card details are stored. Any card number of 16 to 19 digits succeeds,
				for example 4242 4242 4242 4242; the card number 4000 0000 0000 0002 is always declined.
			</Alert>
			<div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
				<h1 className="text-2xl font-bold text-ink">Secure Checkout</h1>
				<dl className="mt-4 flex items-start justify-between gap-4 rounded-lg bg-slate-50 p-4 text-sm">
					<div>
						<dt className="text-slate-600">Course</dt>
						<dd className="font-semibold text-ink">{session.description}</dd>
					</div>
					<div className="text-right">
						<dt className="text-slate-600">{plan ? 'Due today' : 'Total'}</dt>
						<dd className="text-lg font-bold text-ink">{amount}</dd>
					</div>
				</dl>
				{plan ? (
					<section aria-labelledby="plan-heading" className="mt-2 rounded-lg bg-slate-50 p-4 text-sm">
						<h2 id="plan-heading" className="font-semibold text-ink">
							Payment plan: {formatPrice(plan.totalCents)} in {plan.payments.length} payments
						</h2>
						<p className="mt-1 mb-2 text-slate-700">
							Today's payment is the first; the card you use is charged for the others on their due dates.
						</p>
						{plan.discount ? (
							<div className="mb-2">
								<PlanDiscountLines discount={plan.discount} totalCents={plan.totalCents} />
							</div>
						) : null}
						<PlanPaymentList payments={plan.payments} />
					</section>
				) : null}
				{session.promotionCode ? (
					<dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-4 text-sm text-slate-700">
						<dt>Subtotal</dt>
						<dd className="text-right">{formatPrice(session.subtotalCents)}</dd>
						<dt>Promotion code {session.promotionCode}</dt>
						<dd className="text-right">−{formatPrice(session.discountCents)}</dd>
					</dl>
				) : null}

				{session.expired ? (
					<div className="mt-6 space-y-4">
						<Alert tone="error">This checkout session has expired and can no longer be paid. Your held spot was released.</Alert>
						<ButtonLink to="/register" className="w-full">
							Try Registration Again
						</ButtonLink>
					</div>
				) : (
					<>
						{form.errors?.length ? (
							<Alert tone="error" className="mt-6">
								{form.errors[0]}
							</Alert>
						) : null}
						<Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
							<input type="hidden" name="intent" value="pay" />
							<NameEmailFields name={fields.name} email={fields.email} nameLabel="Name" />
							<Field
								label="Cardholder Name"
								errors={fields.cardHolder.errors}
								inputProps={{ ...getInputProps(fields.cardHolder, { type: 'text' }), autoComplete: 'cc-name', maxLength: 200 }}
							/>
							<TestCardFields fields={fields} />
							<Button type="submit" size="lg" className="w-full" disabled={paying}>
								{paying ? 'Processing...' : `Pay ${amount}`}
							</Button>
						</Form>
						<Form method="post" className="mt-3">
							<input type="hidden" name="intent" value="cancel" />
							<Button type="submit" variant="ghost" className="w-full">
								Cancel and go back
							</Button>
						</Form>
					</>
				)}
			</div>
		</div>
	)
}

export const meta: Route.MetaFunction = () => [...pageTitle('Test Checkout'), { name: 'robots', content: 'noindex' }]

export const ErrorBoundary = RegisterErrorBoundary
