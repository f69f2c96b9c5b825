import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export type CourseUpdateProps = {
	site: EmailSite
	name: string | null
	courseTitle: string
	subject: string
	heading: string
	/** Each a paragraph, as plain text. */
	lines: string[]
	action: { label: string; url: string }
	/** The recipient's unsubscribe page: these mails follow the announcements switch. */
	unsubscribeUrl: string
}

/** A course's news for its students: an assignment posted, a recording added, their work graded (issue 39 point 6). */
export function CourseUpdateEmail({ site, name, courseTitle, subject, heading, lines, action, unsubscribeUrl }: CourseUpdateProps) {
	return (
		<EmailLayout
			site={site}
			title={subject}
			preview={lines[0] ?? heading}
			reason={`You get this email because you are enrolled in ${courseTitle} at ${site.name} and course e-mails are on. Turn them off: ${unsubscribeUrl}`}
		>
			<EmailHeading>{heading}</EmailHeading>
			<Greeting name={name} />
			{lines.map((line) => (
				<Paragraph key={line}>{line}</Paragraph>
			))}
			<ActionButton href={action.url}>{action.label}</ActionButton>
		</EmailLayout>
	)
}
