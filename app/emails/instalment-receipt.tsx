import { IssuerDetails, type ReceiptIssuer } from './enrollment-receipt.tsx'
import { EmailLayout } from './layout.tsx'
import { DetailsTable, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function instalmentReceiptSubject(courseTitle: string) {
	return `Payment received: ${courseTitle}`
}

export type InstalmentReceiptProps = {
	site: EmailSite
	school: ReceiptIssuer
	name: string | null
	courseTitle: string
	/** The instalment, e.g. 'Instalment 2 of 3'. */
	label: string
	/** Formatted amounts and day, e.g. '$866.66', 'March 3, 2027'. */
	amountPaid: string
	paidOn: string
	/** What is left of the plan after this payment, formatted; null when it is paid in full. */
	stillToPay: string | null
	/** The next payment, e.g. 'Instalment 3 of 3, $866.66, due April 3, 2027'; null when none is left. */
	nextPayment: string | null
	/** The payment provider's reference of the charge. */
	paymentReference: string | null
}

/** Sent once per instalment charged after the checkout (docs/decisions/063): the student's receipt for it. */
export function InstalmentReceiptEmail({
	site,
	school,
	name,
	courseTitle,
	label,
	amountPaid,
	paidOn,
	stillToPay,
	nextPayment,
	paymentReference,
}: InstalmentReceiptProps) {
	const details: Array<[string, string]> = [
		['Course', courseTitle],
		['Payment', label],
		['Amount paid', amountPaid],
		['Paid on', paidOn],
		['Still to pay', stillToPay ?? 'Nothing: your plan is paid in full'],
		...(nextPayment ? [['Next payment', nextPayment] as [string, string]] : []),
		...(paymentReference ? [['Payment reference', paymentReference] as [string, string]] : []),
	]
	return (
		<EmailLayout
			site={site}
			title={instalmentReceiptSubject(courseTitle)}
			preview={`${amountPaid} received for ${courseTitle}. Keep this email as your receipt.`}
			reason={`You get this email because you pay for ${courseTitle} at ${site.name} in instalments. Keep it as your receipt.`}
		>
			<EmailHeading>Payment received</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`We received ${amountPaid} (${label}) for ${courseTitle}. Thank you.`}</Paragraph>
			<DetailsTable rows={details} />
			<IssuerDetails site={site} school={school} />
		</EmailLayout>
	)
}
