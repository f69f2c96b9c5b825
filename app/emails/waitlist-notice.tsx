import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

/**
 * What a waitlist request for an address that is already enrolled, or already in line, tells that
 * address (docs/decisions/041). The form answers everybody the same, so only the address's owner
 * learns where they stand. No link to the place: its link went with the first mail, and a request
 * anyone can make must not hand out a new one.
 */
export function waitlistNoticeSubject(kind: WaitlistNoticeProps['kind'], courseTitle: string) {
	return kind === 'enrolled' ? `You are already enrolled: ${courseTitle}` : `You are already on the waitlist: ${courseTitle}`
}

export type WaitlistNoticeProps = {
	site: EmailSite
	name: string
	courseTitle: string
	/** Where the address stands: enrolled in the course, or in its line (1 = next; null while holding an offer). */
	kind: 'enrolled' | 'in-line'
	position: number | null
	/** Where the owner signs in to see their courses and places. */
	loginUrl: string
}

export function WaitlistNoticeEmail({ site, name, courseTitle, kind, position, loginUrl }: WaitlistNoticeProps) {
	const subject = waitlistNoticeSubject(kind, courseTitle)
	return (
		<EmailLayout
			site={site}
			title={subject}
			preview={kind === 'enrolled' ? `You already have a seat in ${courseTitle}.` : `You are already in line for ${courseTitle}.`}
			reason={`You get this email because someone asked to put this address on the waitlist for ${courseTitle} at ${site.name}. If it was not you, you can ignore it.`}
		>
			<EmailHeading>{kind === 'enrolled' ? 'You are already enrolled' : 'You are already on the waitlist'}</EmailHeading>
			<Greeting name={name} />
			{kind === 'enrolled' ? (
				<Paragraph>{`We received a request to join the waitlist for ${courseTitle}, but this address already has a seat in it: there is nothing to wait for.`}</Paragraph>
			) : (
				<Paragraph>
					{`We received a request to join the waitlist for ${courseTitle}. This address is already in line${
						position ? `: you are number ${position} in line` : ', and a seat is being held for you'
					}. Your place is unchanged; the link to it is in the first email we sent you.`}
				</Paragraph>
			)}
			<ActionButton href={loginUrl}>Log in to see your courses</ActionButton>
		</EmailLayout>
	)
}
