import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export type SessionChange = 'moved' | 'cancelled' | 'restored'

export function sessionChangedSubject({
	change,
	courseTitle,
	weekNumber,
}: {
	change: SessionChange
	courseTitle: string
	weekNumber: number
}) {
	const what = change === 'cancelled' ? 'cancelled' : change === 'restored' ? 'back on' : 'moved'
	return `${courseTitle}: week ${weekNumber} live session ${what}`
}

export type SessionChangedProps = {
	site: EmailSite
	name: string | null
	change: SessionChange
	courseTitle: string
	weekNumber: number
	/** The new time ('Tue 13 Jan, 7:00–8:00 pm EST', the student's zone). */
	when: string
	/** The time it had before a move, in the same zone. */
	previously: string | null
	note: string | null
	dashboardUrl: string
}

/** Sent when an admin moves, shortens, cancels or restores a live session. */
export function SessionChangedEmail(props: SessionChangedProps) {
	const { site, name, change, courseTitle, weekNumber, when, previously, note, dashboardUrl } = props
	const subject = sessionChangedSubject(props)
	const heading =
		change === 'cancelled'
			? `Week ${weekNumber}'s live session is cancelled`
			: change === 'restored'
				? `Week ${weekNumber}'s live session is back on`
				: `Week ${weekNumber}'s live session has a new time`
	return (
		<EmailLayout
			site={site}
			title={subject}
			preview={change === 'cancelled' ? `${courseTitle}: the session on ${when} is cancelled.` : `${courseTitle}: now ${when}.`}
			reason={`You get this email because you are enrolled in ${courseTitle} at ${site.name}. Your calendar feed has the change too.`}
		>
			<EmailHeading>{heading}</EmailHeading>
			<Greeting name={name} />
			{change === 'cancelled' ? (
				<Paragraph>{`The live session of ${courseTitle}, week ${weekNumber}, on ${when} will not take place.`}</Paragraph>
			) : (
				<Paragraph>{`The live session of ${courseTitle}, week ${weekNumber}, is now on ${when}${previously && previously !== when ? ` (it was ${previously})` : ''}.`}</Paragraph>
			)}
			{note ? <Paragraph>{`Note from your instructor: ${note}`}</Paragraph> : null}
			<ActionButton href={dashboardUrl}>Open your dashboard</ActionButton>
		</EmailLayout>
	)
}
