import { EmailLayout } from './layout.tsx'
import { ActionButton, DetailsTable, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function instalmentFailedSubject(courseTitle: string) {
	return `Payment failed: ${courseTitle}`
}

export type InstalmentFailedProps = {
	site: EmailSite
	name: string | null
	courseTitle: string
	/** The instalment, e.g. 'Instalment 2 of 3'. */
	label: string
	/** Formatted, e.g. '$866.66'. */
	amount: string
	graceDays: number
	/** Absolute: the page where the student updates their card and pays. */
	updateCardUrl: string
}

/** Sent once per instalment whose charge failed (docs/decisions/054, 059). */
export function InstalmentFailedEmail({ site, name, courseTitle, label, amount, graceDays, updateCardUrl }: InstalmentFailedProps) {
	return (
		<EmailLayout
			site={site}
			title={instalmentFailedSubject(courseTitle)}
			preview={`${amount} for ${courseTitle} could not be charged.`}
			reason={`You get this email because you pay for ${courseTitle} at ${site.name} in instalments.`}
		>
			<EmailHeading>A payment of your plan failed</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`We could not charge ${amount} (${label}) for ${courseTitle} to your card.`}</Paragraph>
			<DetailsTable
				rows={[
					['Course', courseTitle],
					['Payment', label],
					['Amount', amount],
				]}
			/>
			<Paragraph>
				{`Please update your card and pay within ${graceDays} ${graceDays === 1 ? 'day' : 'days'}. After that, access to the course's materials, recordings and live sessions pauses until the payment is made; it comes back as soon as it is.`}
			</Paragraph>
			<ActionButton href={updateCardUrl}>Update card and pay</ActionButton>
		</EmailLayout>
	)
}
