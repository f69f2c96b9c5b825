import { EmailLayout } from './layout.tsx'
import { ActionButton, DetailsTable, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function enrollmentReceiptSubject(courseTitle: string) {
	return `Enrollment confirmed: ${courseTitle}`
}

/** The school's address (one line per line) and tax id as the admin set them under School Details; empty when not set. The name is `site.name`. */
export type ReceiptIssuer = { address: string; taxId: string }

/** Who issued a receipt: the school's name, its address line by line, its tax id. */
export function IssuerDetails({ site, school }: { site: EmailSite; school: ReceiptIssuer }) {
	const rows: Array<[string, string]> = [
		['Issued by', site.name],
		...school.address.split('\n').flatMap((line, index): Array<[string, string]> => (line ? [[index === 0 ? 'Address' : '', line]] : [])),
		...(school.taxId ? [['Tax ID', school.taxId] as [string, string]] : []),
	]
	return <DetailsTable rows={rows} />
}

export type EnrollmentReceiptProps = {
	site: EmailSite
	school: ReceiptIssuer
	name: string | null
	courseTitle: string
	/** Formatted, e.g. '$2,500.00' or 'Free'. */
	amountPaid: string
	/** The promotion code used, with the price before it and what it took off, formatted. */
	discount?: { code: string; price: string; amountOff: string } | null
	/** Bought on a payment plan: its total (after a code) and its number of payments, the first being `amountPaid`. */
	plan?: { total: string; payments: number } | null
	/** Formatted start date, when the course has one. */
	startsOn: string | null
	/** The payment provider's reference of a paid checkout. */
	paymentReference: string | null
	courseUrl: string
}

/** Sent once, when an enrollment becomes active through a paid checkout or a free course: the student's receipt. */
export function EnrollmentReceiptEmail({
	site,
	school,
	name,
	courseTitle,
	amountPaid,
	discount = null,
	plan = null,
	startsOn,
	paymentReference,
	courseUrl,
}: EnrollmentReceiptProps) {
	const details: Array<[string, string]> = [
		['Course', courseTitle],
		...(startsOn ? [['Starts', startsOn] as [string, string]] : []),
		...(discount
			? [
					[plan ? 'Plan price' : 'Price', discount.price] as [string, string],
					[`Promotion code ${discount.code}`, `−${discount.amountOff}`] as [string, string],
				]
			: []),
		...(plan ? [['Payment plan', `${plan.total} in ${plan.payments} payments`] as [string, string]] : []),
		[plan ? 'Paid today' : 'Amount paid', amountPaid],
		...(paymentReference ? [['Payment reference', paymentReference] as [string, string]] : []),
	]
	return (
		<EmailLayout
			site={site}
			title={enrollmentReceiptSubject(courseTitle)}
			preview={`You are enrolled in ${courseTitle}. Keep this email as your receipt.`}
			reason={`You get this email because you enrolled in ${courseTitle} at ${site.name}. Keep it as your receipt.`}
		>
			<EmailHeading>You are enrolled</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`Welcome to ${courseTitle}. Your seat is confirmed; here are the details for your records.`}</Paragraph>
			<DetailsTable rows={details} />
			<IssuerDetails site={site} school={school} />
			<ActionButton href={courseUrl}>Go to your course</ActionButton>
			<Paragraph>Your materials, live-session links and messages are all in your dashboard.</Paragraph>
		</EmailLayout>
	)
}
