import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function weekOpenSubject({ courseTitle, weekNumber }: { courseTitle: string; weekNumber: number }) {
	return `${courseTitle}: week ${weekNumber} is open`
}

export type WeekOpenProps = {
	site: EmailSite
	name: string | null
	courseTitle: string
	weekNumber: number
	topic: string | null
	/** The week's live session, in the student's zone, or null when it is cancelled. */
	sessionWhen: string | null
	dashboardUrl: string
}

/** Sent when a week's files open, for courses that announce it. */
export function WeekOpenEmail(props: WeekOpenProps) {
	const { site, name, courseTitle, weekNumber, topic, sessionWhen, dashboardUrl } = props
	return (
		<EmailLayout
			site={site}
			title={weekOpenSubject(props)}
			preview={`The materials of week ${weekNumber}${topic ? `, ${topic},` : ''} are ready.`}
			reason={`You get this email because you are enrolled in ${courseTitle} at ${site.name}.`}
		>
			<EmailHeading>{`Week ${weekNumber} is open`}</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`The materials of ${courseTitle}, week ${weekNumber}${topic ? ` (${topic})` : ''}, are ready for you.`}</Paragraph>
			{sessionWhen ? <Paragraph>{`The week's live session is on ${sessionWhen}.`}</Paragraph> : null}
			<ActionButton href={dashboardUrl}>{`Open week ${weekNumber}`}</ActionButton>
		</EmailLayout>
	)
}
