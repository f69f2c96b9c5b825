import { Fragment } from 'react'
import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'
import { emailColors } from './theme.ts'

export type AnnouncementEmailProps = {
	site: EmailSite
	subject: string
	/** The announcement as the admin wrote it: blank lines part paragraphs, single line breaks stay. */
	body: string
	/** The course it was addressed to; null when it is for every student. */
	courseTitle: string | null
	/** The name of its attached file, which is read on the site (signed in), not mailed. */
	attachmentName: string | null
	/** The announcements tab of the student's messages. */
	announcementsUrl: string
	/** The recipient's one-click unsubscribe page. */
	unsubscribeUrl: string
}

/** The first lines an inbox shows beside the subject. */
function previewOf(body: string) {
	const flat = body.replace(/\s+/g, ' ').trim()
	return flat.length > 140 ? `${flat.slice(0, 139)}…` : flat
}

/** A copy of an announcement, for each student it is addressed to who keeps announcement e-mails on. */
export function AnnouncementEmail({
	site,
	subject,
	body,
	courseTitle,
	attachmentName,
	announcementsUrl,
	unsubscribeUrl,
}: AnnouncementEmailProps) {
	// Paragraphs and their lines never move, so their place is their key.
	const paragraphs = body
		.split(/\n\s*\n/)
		.map((paragraph) => paragraph.trim())
		.filter(Boolean)
		.map((paragraph, place) => ({ key: `p${place}`, lines: paragraph.split('\n').map((text, line) => ({ key: `l${line}`, text })) }))
	const audience = courseTitle ? `a student of ${courseTitle}` : `a student at ${site.name}`
	return (
		<EmailLayout
			site={site}
			title={subject}
			preview={previewOf(body) || subject}
			reason={`You get this email because you are ${audience} and announcement emails are on in your Settings.`}
			unsubscribe={{ url: unsubscribeUrl, label: 'Unsubscribe from announcement emails' }}
		>
			<Paragraph>
				<span style={{ color: emailColors.muted, fontSize: '13px', textTransform: 'uppercase', letterSpacing: '0.04em' }}>
					{courseTitle ? `Announcement · ${courseTitle}` : 'Announcement'}
				</span>
			</Paragraph>
			<EmailHeading>{subject}</EmailHeading>
			{paragraphs.map((paragraph) => (
				<Paragraph key={paragraph.key}>
					{paragraph.lines.map((line, index) => (
						<Fragment key={line.key}>
							{index > 0 ? <br /> : null}
							{line.text}
						</Fragment>
					))}
				</Paragraph>
			))}
			{attachmentName ? <Paragraph>{`A file is attached on the site: ${attachmentName}.`}</Paragraph> : null}
			<ActionButton href={announcementsUrl}>Read it on the site</ActionButton>
		</EmailLayout>
	)
}
