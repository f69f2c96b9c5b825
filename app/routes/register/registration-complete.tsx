import { useEffect, useState } from 'react'
import { href, Link, redirect, useLocation, useNavigate, useRevalidator } from 'react-router'
import { z } from 'zod'
import { PlanDiscountLines, PlanPaymentList } from '#app/components/payment-plan-choice.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { deleteDraft, getDraft } from '#app/models/enrollment/registration.server.ts'
import { fulfil, paidCheckoutAmounts } from '#app/models/payments/payments.server.ts'
import { planOfCheckout } from '#app/models/payments/plan-purchases.server.ts'
import type { PlanDiscountView, PlanPaymentView } from '#app/models/payments/plan-purchases.ts'
import { getPayments } from '#app/services/payments/index.server.ts'
import { getUser, pageUrl, startSession } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { errorPageToast } from '#app/utils/page-toast.server.ts'
import type { NoscriptRefreshHandle } from '#app/utils/root-data.ts'
import type { ToastMessage } from '#app/utils/toast.ts'
import { clearDraftCookieHeader, readDraftId } from './+shared/draft-cookie.server.ts'
import type { Route } from './+types/registration-complete'

const SessionIdSchema = z.string().regex(/^cs_[A-Za-z0-9_]{1,200}$/)

/** How often, and how many times, the page asks again while a payment is still being confirmed. */
const RECHECK_MS = 2000
const MAX_RECHECKS = 5
/** The spec's pause on the success state before the dashboard. */
const DASHBOARD_DELAY_MS = 2000

const MESSAGES = {
	missing: 'Missing information required to complete registration.',
	unverified: 'Failed to verify your registration payment.',
	unexpected: 'An unexpected error occurred during registration.',
} as const

function failure(message: string, pageToast: ToastMessage | null = null) {
	return { state: 'error', message, pageToast } as const
}

/** The spec's toasts for a payment that could not be verified, and for a verification that broke. */
function verificationToast(kind: 'unverified' | 'unexpected') {
	return kind === 'unverified'
		? errorPageToast('Payment Verification Error', 'Failed to verify payment')
		: errorPageToast('Verification Error', 'Failed to complete verification. Please try again.')
}

/** What the buyer paid, formatted as the receipt shows it: the price, the code and its discount when one was used. */
async function amountsOf(sessionId: string) {
	const amounts = await paidCheckoutAmounts(getDb(), sessionId)
	if (!amounts) return null
	const money = (cents: number) => formatMoney(cents, { currency: amounts.currency })
	return {
		paid: money(amounts.paidCents),
		discount: amounts.discount
			? { code: amounts.discount.code, price: money(amounts.discount.priceCents), amountOff: money(amounts.discount.amountOffCents) }
			: null,
	}
}

/**
 * Where the checkout returns. Fulfils the session (the same idempotent path
 * as the webhook, so whichever comes first enrols) and signs in the browser
 * that started the registration: the one holding its draft.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const sessionId = SessionIdSchema.safeParse(new URL(request.url).searchParams.get('session_id'))
	if (!sessionId.success) return failure(MESSAGES.missing)
	const db = getDb()
	let result: Awaited<ReturnType<typeof fulfil>>
	try {
		result = await fulfil(db, getPayments(), sessionId.data)
	} catch (error) {
		console.error('[registration-complete] fulfilment failed:', error instanceof Error ? error.message : error)
		return failure(MESSAGES.unexpected, verificationToast('unexpected'))
	}
	switch (result.status) {
		case 'unpaid':
			return { state: 'pending' } as const
		case 'not-found':
		case 'expired':
			return failure(MESSAGES.unverified, verificationToast('unverified'))
		case 'needs_refund':
			return failure(
				`Failed to complete registration: ${result.courseTitle} filled up before your payment was confirmed. Your payment is recorded and will be refunded.`,
			)
	}
	const plan = await planOfCheckout(db, sessionId.data)
	const success = {
		state: 'success',
		courseTitle: result.courseTitle,
		amounts: await amountsOf(sessionId.data),
		plan: plan ? { totalCents: plan.totalCents, discount: plan.discount, payments: plan.payments } : null,
	} as const
	const user = await getUser(request)
	if (user?.id === result.userId) return { ...success, signedIn: true }
	const draftId = await readDraftId(request)
	const draft = await getDraft(db, draftId)
	if (!draftId || draft?.userId !== result.userId) return { ...success, signedIn: false }
	await deleteDraft(db, draftId)
	const headers = new Headers()
	headers.append('Set-Cookie', await startSession(request, result.userId))
	headers.append('Set-Cookie', await clearDraftCookieHeader())
	// The page again, now with the session: the header (read by the root loader alongside this one) shows the signed-in links.
	throw redirect(`${pageUrl(request).pathname}?session_id=${sessionId.data}`, { headers })
}

export default function RegistrationCompletePage({ loaderData }: Route.ComponentProps) {
	const [gaveUp, setGaveUp] = useState(false)
	const view = gaveUp ? failure(MESSAGES.unverified) : loaderData
	return (
		<div className="mx-auto max-w-xl px-4 py-12 sm:py-16">
			<div className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-8">
				{view.state === 'pending' ? (
					<Pending onGiveUp={setGaveUp} />
				) : view.state === 'success' ? (
					<Success courseTitle={view.courseTitle} amounts={view.amounts} plan={view.plan} signedIn={view.signedIn} />
				) : (
					<Failure message={view.message} />
				)}
			</div>
		</div>
	)
}

/** The payment is not confirmed yet: with JavaScript the page asks again a few times; without, a link does. */
function Pending({ onGiveUp }: { onGiveUp: (gaveUp: true) => void }) {
	const location = useLocation()
	const { revalidate, state } = useRevalidator()
	const [attempts, setAttempts] = useState(0)
	useEffect(() => {
		if (state !== 'idle') return
		if (attempts >= MAX_RECHECKS) {
			onGiveUp(true)
			return
		}
		const timer = setTimeout(() => {
			setAttempts((count) => count + 1)
			void revalidate()
		}, RECHECK_MS)
		return () => clearTimeout(timer)
	}, [attempts, state, revalidate, onGiveUp])
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Completing Your Registration</h1>
			<p className="mt-4 flex items-center justify-center gap-3 text-slate-700">
				<Spinner label="Verifying your payment" />
				Verifying your payment...
			</p>
			<p className="mt-6 text-sm text-slate-600">
				This usually takes a few seconds.{' '}
				<Link
					reloadDocument
					to={`${location.pathname}${location.search}`}
					className="font-semibold text-brand-700 underline-offset-4 hover:underline"
				>
					Check again
				</Link>
			</p>
		</>
	)
}

type Amounts = { paid: string; discount: { code: string; price: string; amountOff: string } | null }

function Success({
	courseTitle,
	amounts,
	plan,
	signedIn,
}: {
	courseTitle: string
	amounts: Amounts | null
	plan: { totalCents: number; discount: PlanDiscountView | null; payments: PlanPaymentView[] } | null
	signedIn: boolean
}) {
	const navigate = useNavigate()
	useEffect(() => {
		if (!signedIn) return
		const timer = setTimeout(() => void navigate(href('/dashboard')), DASHBOARD_DELAY_MS)
		return () => clearTimeout(timer)
	}, [signedIn, navigate])
	return (
		<>
			<span
				aria-hidden="true"
				className="mx-auto flex size-14 items-center justify-center rounded-full bg-green-100 text-2xl text-green-800"
			>
				✓
			</span>
			<h1 className="mt-4 text-2xl font-bold text-ink">Registration Complete!</h1>
			<p className="mt-3 text-slate-700">
				Your payment was received and you are enrolled in <strong className="text-ink">{courseTitle}</strong>.
			</p>
			{amounts ? <AmountsPaid amounts={amounts} /> : null}
			{plan ? (
				<section aria-labelledby="plan-heading" className="mx-auto mt-4 max-w-md text-left">
					<h2 id="plan-heading" className="text-sm font-semibold text-ink">
						Your payment plan: {formatMoney(plan.totalCents)} in {plan.payments.length} payments
					</h2>
					{plan.discount ? (
						<div className="mt-2">
							<PlanDiscountLines discount={plan.discount} totalCents={plan.totalCents} />
						</div>
					) : null}
					<div className="mt-2">
						<PlanPaymentList payments={plan.payments} bought />
					</div>
				</section>
			) : null}
			{signedIn ? (
				<>
					<p className="mt-2 text-sm text-slate-600">Taking you to your dashboard...</p>
					<ButtonLink to={href('/dashboard')} size="lg" className="mt-6">
						Go to Dashboard Now
					</ButtonLink>
				</>
			) : (
				<>
					<p className="mt-2 text-slate-700">Account Created, please log in. Confirm your email address with the link we sent you first.</p>
					<ButtonLink to="/login" size="lg" className="mt-6">
						Login Now
					</ButtonLink>
				</>
			)}
		</>
	)
}

/** The receipt's lines: the price, the code and what it took off when one was used, and the amount paid. */
function AmountsPaid({ amounts }: { amounts: Amounts }) {
	return (
		<dl className="mx-auto mt-4 max-w-xs space-y-1 rounded-lg bg-slate-50 px-4 py-3 text-left text-sm">
			{amounts.discount ? (
				<>
					<div className="flex justify-between gap-4">
						<dt className="text-slate-600">Price</dt>
						<dd className="text-ink">{amounts.discount.price}</dd>
					</div>
					<div className="flex justify-between gap-4">
						<dt className="text-slate-600">Promotion code {amounts.discount.code}</dt>
						<dd className="text-ink">−{amounts.discount.amountOff}</dd>
					</div>
				</>
			) : null}
			<div className="flex justify-between gap-4">
				<dt className="font-semibold text-ink">Amount paid</dt>
				<dd className="font-semibold text-ink">{amounts.paid}</dd>
			</div>
		</dl>
	)
}

function Failure({ message }: { message: string }) {
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Registration Problem</h1>
			<Alert tone="error" title="Payment Verification Error" className="mt-4 text-left">
				{message}
			</Alert>
			<p className="mt-4 text-sm text-slate-700">
				If you completed a payment, it may have been processed even though we could not confirm your registration here. Please try logging
				in, or contact support and we will sort it out.
			</p>
			<div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
				<ButtonLink to="/login">Try Login</ButtonLink>
				<ButtonLink to="/register" variant="outline">
					Try Registration Again
				</ButtonLink>
			</div>
			<p className="mt-4 text-sm">
				<Link to="/contact" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
					Contact support
				</Link>
			</p>
		</>
	)
}

/** Without JavaScript the browser itself moves on after the same pause (root.tsx puts this in the head's <noscript>). */
export const handle: NoscriptRefreshHandle = {
	noscriptRefresh: (data) => {
		const page = data as Route.ComponentProps['loaderData'] | undefined
		return page?.state === 'success' && page.signedIn ? `${DASHBOARD_DELAY_MS / 1000}; url=${href('/dashboard')}` : null
	},
}

export const meta: Route.MetaFunction = () => [...pageTitle('Registration Complete'), { name: 'robots', content: 'noindex' }]
