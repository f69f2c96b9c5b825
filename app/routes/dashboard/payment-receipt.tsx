import { data, href, Link } from 'react-router'
import { LocalDate } from '#app/components/local-date.tsx'
import { studentReceipt } from '#app/models/payments/student-payments.server.ts'
import { ChargeRefSchema } from '#app/models/payments/student-payments.ts'
import { getSchoolDetails } from '#app/models/site/site-settings.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import type { Route } from './+types/payment-receipt'

/** A receipt for one of the student's own charges (docs/decisions/064): anyone else's, or a made-up id, is not found. */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const ref = ChargeRefSchema.safeParse(params)
	const db = getDb()
	const receipt = ref.success ? await studentReceipt(db, { userId: user.id, kind: ref.data.chargeKind, id: ref.data.chargeId }) : null
	if (!receipt) throw data('Receipt not found', { status: 404 })
	// The school's details as they are now, as the e-mailed receipt states them (docs/decisions/050).
	const school = await getSchoolDetails(db)
	return { receipt, school }
}

export default function PaymentReceiptPage({ loaderData }: Route.ComponentProps) {
	const { receipt, school } = loaderData
	const money = (cents: number) => formatMoney(cents, { currency: receipt.currency })
	return (
		<div className="mx-auto max-w-lg space-y-6">
			<p>
				<Link to={href('/dashboard/settings')} className="text-sm font-semibold text-brand-700 underline underline-offset-4">
					Back to Settings
				</Link>
			</p>
			<article aria-labelledby="receipt-heading" className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
				<header>
					<h1 id="receipt-heading" className="text-2xl font-bold text-ink">
						Receipt
					</h1>
					<p className="mt-1 text-sm whitespace-pre-line text-slate-700">
						{school.name}
						{school.address ? `\n${school.address}` : ''}
						{school.taxId ? `\nTax ID: ${school.taxId}` : ''}
					</p>
				</header>
				<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
					<dt className="text-slate-600">Date</dt>
					<dd className="text-right text-ink">
						<LocalDate value={receipt.paidAt} time />
					</dd>
					<dt className="text-slate-600">Course</dt>
					<dd className="text-right text-ink">{receipt.courseTitle}</dd>
					<dt className="text-slate-600">For</dt>
					<dd className="text-right text-ink">
						{receipt.description}
						{receipt.paidOutside ? ' (paid another way)' : ''}
					</dd>
					<dt className="text-slate-600">Paid by</dt>
					<dd className="text-right break-all text-ink">{receipt.paidBy}</dd>
					{receipt.discount && receipt.priceCents !== null ? (
						<>
							<dt className="text-slate-600">Price</dt>
							<dd className="text-right text-ink">{money(receipt.priceCents)}</dd>
							<dt className="text-slate-600">Promotion code {receipt.discount.code}</dt>
							<dd className="text-right text-ink">−{money(receipt.discount.amountOffCents)}</dd>
						</>
					) : null}
					<dt className="font-semibold text-ink">Amount paid</dt>
					<dd className="text-right font-semibold text-ink">{money(receipt.amountCents)}</dd>
					{receipt.refundedCents > 0 ? (
						<>
							<dt className="text-slate-600">Refunded</dt>
							<dd className="text-right text-ink">−{money(receipt.refundedCents)}</dd>
						</>
					) : null}
					{receipt.reference ? (
						<>
							<dt className="text-slate-600">Reference</dt>
							<dd className="text-right font-mono text-xs break-all text-ink">{receipt.reference}</dd>
						</>
					) : null}
				</dl>
				{receipt.toBeRefunded ? (
					<p className="text-sm text-slate-700">The course was full when this payment arrived: it will be refunded.</p>
				) : null}
			</article>
		</div>
	)
}

export const meta: Route.MetaFunction = () => [...pageTitle('Receipt'), { name: 'robots', content: 'noindex' }]

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
