import type { ReceiptIssuer } from './enrollment-receipt.tsx'
import { EmailLayout } from './layout.tsx'
import { DetailsTable, EmailHeading, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function instalmentPaidSubject(courseTitle: string) {
	return `Payment received: ${courseTitle}`
}

export type InstalmentPaidProps = {
	site: EmailSite
	school: ReceiptIssuer
	name: string | null
	courseTitle: string
	/** The instalment, e.g. 'Instalment 2 of 3'. */
	label: string
	/** Formatted, e.g. '$866.66'. */
	amount: string
	/** What is still to pay on the plan, formatted; '$0.00' once it is paid in full. */
	left: string
	/** The payment provider's reference of the charge, when it has one. */
	paymentReference: string | null
}

/** Sent once per instalment paid after the purchase (the first payment's receipt is the enrolment's): the student's receipt. */
export function InstalmentPaidEmail({ site, school, name, courseTitle, label, amount, left, paymentReference }: InstalmentPaidProps) {
	const issuer: Array<[string, string]> = [
		['Issued by', site.name],
		...school.address.split('\n').flatMap((line, index): Array<[string, string]> => (line ? [[index === 0 ? 'Address' : '', line]] : [])),
		...(school.taxId ? [['Tax ID', school.taxId] as [string, string]] : []),
	]
	return (
		<EmailLayout
			site={site}
			title={instalmentPaidSubject(courseTitle)}
			preview={`${amount} for ${courseTitle} was paid. Keep this email as your receipt.`}
			reason={`You get this email because you pay for ${courseTitle} at ${site.name} in instalments. Keep it as your receipt.`}
		>
			<EmailHeading>Thank you for your payment</EmailHeading>
			<Paragraph>{`Hi ${name || 'there'},`}</Paragraph>
			<Paragraph>{`We received ${amount} (${label}) for ${courseTitle}.`}</Paragraph>
			<DetailsTable
				rows={[
					['Course', courseTitle],
					['Payment', label],
					['Amount paid', amount],
					['Left to pay', left],
					...(paymentReference ? [['Payment reference', paymentReference] as [string, string]] : []),
				]}
			/>
			<DetailsTable rows={issuer} />
		</EmailLayout>
	)
}
