import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function waitlistJoinedSubject(courseTitle: string) {
	return `You are on the waitlist: ${courseTitle}`
}

export type WaitlistJoinedProps = {
	site: EmailSite
	name: string
	courseTitle: string
	/** 1 = next in line. */
	position: number
	/** Hours an offer holds a seat for this course. */
	offerHours: number
	/** The person's own page for this place in line: see it, leave it. */
	entryUrl: string
}

/** Sent when someone joins a course's waitlist: their place in line and how offers work. */
export function WaitlistJoinedEmail({ site, name, courseTitle, position, offerHours, entryUrl }: WaitlistJoinedProps) {
	return (
		<EmailLayout
			site={site}
			title={waitlistJoinedSubject(courseTitle)}
			preview={`You are number ${position} in line for ${courseTitle}.`}
			reason={`You get this email because this address joined the waitlist for ${courseTitle} at ${site.name}.`}
		>
			<EmailHeading>You are on the waitlist</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`You are number ${position} in line for ${courseTitle}.`}</Paragraph>
			<Paragraph>
				{`When a seat frees up and it is your turn, we email you a link that holds the seat for you for ${offerHours} hours.`}
			</Paragraph>
			<ActionButton href={entryUrl}>See your place in line</ActionButton>
			<Paragraph>You can leave the waitlist from that page at any time.</Paragraph>
		</EmailLayout>
	)
}
