import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function offerExpiredSubject(courseTitle: string) {
	return `Your held seat has been released: ${courseTitle}`
}

export type OfferExpiredProps = {
	site: EmailSite
	name: string
	courseTitle: string
	/** Formatted end of the offer, with its time zone. */
	heldUntil: string
	courseUrl: string
}

/** Sent when a waitlist offer ran out unclaimed: the seat goes to the next person in line. */
export function OfferExpiredEmail({ site, name, courseTitle, heldUntil, courseUrl }: OfferExpiredProps) {
	return (
		<EmailLayout
			site={site}
			title={offerExpiredSubject(courseTitle)}
			preview={`The seat held for you in ${courseTitle} until ${heldUntil} has been released.`}
			reason={`You get this email because a seat in ${courseTitle} at ${site.name} was held for you.`}
		>
			<EmailHeading>Your held seat has been released</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`We held a seat in ${courseTitle} for you until ${heldUntil}. It was not claimed in time, so it has gone to the next person in line, and your place in line has ended.`}</Paragraph>
			<Paragraph>If you still want to join, the course page shows whether a seat is free, or lets you join the waitlist again.</Paragraph>
			<ActionButton href={courseUrl}>See the course</ActionButton>
		</EmailLayout>
	)
}
