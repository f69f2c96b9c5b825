import { EmailLayout } from './layout.tsx'
import { DetailsTable, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function refundNoticeSubject(courseTitle: string) {
	return `Refund issued: ${courseTitle}`
}

export type RefundNoticeProps = {
	site: EmailSite
	name: string | null
	courseTitle: string
	/** Formatted amounts, e.g. '$500.00'. */
	amountRefunded: string
	totalRefunded: string
	amountPaid: string
	/** The school's words; empty when the refund was made outside the app with none. */
	note: string
	/** The payment provider's reference of the refund. */
	refundReference: string
	/** The enrolment ended with this refund (a full refund, or the school's choice). */
	enrollmentEnded: boolean
}

/** Sent when money goes back to a student, from the admin area or the payment provider's dashboard (decision 036). */
export function RefundNoticeEmail({
	site,
	name,
	courseTitle,
	amountRefunded,
	totalRefunded,
	amountPaid,
	note,
	refundReference,
	enrollmentEnded,
}: RefundNoticeProps) {
	const details: Array<[string, string]> = [
		['Course', courseTitle],
		['Refunded now', amountRefunded],
		['Refunded in total', `${totalRefunded} of ${amountPaid}`],
		...(note ? [['Reason', note] as [string, string]] : []),
		['Refund reference', refundReference],
	]
	return (
		<EmailLayout
			site={site}
			title={refundNoticeSubject(courseTitle)}
			preview={`${amountRefunded} is on its way back to you.`}
			reason={`You get this email because you paid for ${courseTitle} at ${site.name} and part or all of it was refunded.`}
		>
			<EmailHeading>Your refund is on its way</EmailHeading>
			<Greeting name={name} />
			<Paragraph>
				{`We have refunded ${amountRefunded} of your payment for ${courseTitle} to the card you paid with. Banks usually take 5 to 10 business days to show it.`}
			</Paragraph>
			<DetailsTable rows={details} />
			<Paragraph>
				{enrollmentEnded
					? `Your enrollment in ${courseTitle} has ended, and with it your access to the course.`
					: `You are still enrolled in ${courseTitle}; nothing changes in your access to the course.`}
			</Paragraph>
		</EmailLayout>
	)
}
