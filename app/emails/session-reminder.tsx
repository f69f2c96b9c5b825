import { describeMinutes } from './durations.ts'
import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export function sessionReminderSubject({
	courseTitle,
	weekNumber,
	leadMinutes,
}: {
	courseTitle: string
	weekNumber: number
	leadMinutes: number
}) {
	return `Reminder: ${courseTitle}, week ${weekNumber} live session in ${describeMinutes(leadMinutes)}`
}

export type SessionReminderProps = {
	site: EmailSite
	name: string | null
	courseTitle: string
	weekNumber: number
	topic: string | null
	/** 'Tue 13 Jan, 7:00–8:00 pm EST', in the student's zone. */
	when: string
	leadMinutes: number
	/** The session's video-call link, or null when none is set yet. */
	joinUrl: string | null
	dashboardUrl: string
	settingsUrl: string
}

/** A reminder before a live session, with its time in the student's zone and the join link. */
export function SessionReminderEmail(props: SessionReminderProps) {
	const { site, name, courseTitle, weekNumber, topic, when, joinUrl, dashboardUrl, settingsUrl } = props
	const subject = sessionReminderSubject(props)
	return (
		<EmailLayout
			site={site}
			title={subject}
			preview={`${courseTitle}, week ${weekNumber}: ${when}`}
			reason={`You get this email because you are enrolled in ${courseTitle} at ${site.name} and live-session reminders are on. Turn them off in your settings: ${settingsUrl}`}
		>
			<EmailHeading>{`Week ${weekNumber} meets in ${describeMinutes(props.leadMinutes)}`}</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`The live session of ${courseTitle}, week ${weekNumber}${topic ? ` (${topic})` : ''}, is on ${when}.`}</Paragraph>
			{joinUrl ? (
				<>
					<ActionButton href={joinUrl}>Join the live session</ActionButton>
					<Paragraph>The link works from 15 minutes before the start.</Paragraph>
				</>
			) : (
				<>
					<Paragraph>The join link will be in your dashboard.</Paragraph>
					<ActionButton href={dashboardUrl}>Open your dashboard</ActionButton>
				</>
			)}
		</EmailLayout>
	)
}
