import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function seatOfferSubject(courseTitle: string) {
	return `A seat is free for you: ${courseTitle}`
}

export type SeatOfferProps = {
	site: EmailSite
	name: string
	courseTitle: string
	/** Formatted, e.g. '$2,500.00' or 'Free'. */
	price: string
	/** Formatted end of the offer, with its time zone. */
	heldUntil: string
	offerUrl: string
}

/** Sent when a freed seat is offered to the next person on a course's waitlist. */
export function SeatOfferEmail({ site, name, courseTitle, price, heldUntil, offerUrl }: SeatOfferProps) {
	return (
		<EmailLayout
			site={site}
			title={seatOfferSubject(courseTitle)}
			preview={`A seat in ${courseTitle} is held for you until ${heldUntil}.`}
			reason={`You get this email because you are on the waitlist for ${courseTitle} at ${site.name}.`}
		>
			<EmailHeading>A seat is free for you</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`A seat in ${courseTitle} has opened and it is your turn. We hold it for you until ${heldUntil}.`}</Paragraph>
			<Paragraph>{`Price: ${price}.`}</Paragraph>
			<ActionButton href={offerUrl}>Claim your seat</ActionButton>
			<Paragraph>
				If you no longer want it, you can decline from the same page, and the seat goes to the next person in line. If you do nothing, the
				offer ends at that time.
			</Paragraph>
		</EmailLayout>
	)
}
