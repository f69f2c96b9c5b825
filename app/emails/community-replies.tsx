import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export type CommunityRepliesProps = {
	site: EmailSite
	name: string | null
	courseTitle: string
	threadTitle: string
	/** The replies since the last mail, oldest first, each its author and the start of its text. */
	replies: Array<{ authorName: string; excerpt: string }>
	/** Replies beyond those listed. */
	more: number
	threadUrl: string
	/** The recipient's unsubscribe page: these mails follow the same switch as announcements. */
	unsubscribeUrl: string
}

/** New replies to a discussion its author asked to hear about, gathered: at most one mail an hour per discussion. */
export function CommunityRepliesEmail({
	site,
	name,
	courseTitle,
	threadTitle,
	replies,
	more,
	threadUrl,
	unsubscribeUrl,
}: CommunityRepliesProps) {
	const subject = communityRepliesSubject(replies.length + more, threadTitle)
	return (
		<EmailLayout
			site={site}
			title={subject}
			preview={replies[0] ? `${replies[0].authorName}: ${replies[0].excerpt}` : subject}
			reason={`You get this email because you asked to hear about replies to your discussion in ${courseTitle} and course e-mails are on. Turn them off: ${unsubscribeUrl}`}
		>
			<EmailHeading>{subject}</EmailHeading>
			<Greeting name={name} />
			{replies.map((reply, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the list is rendered once
				<Paragraph key={index}>{`${reply.authorName} wrote: ${reply.excerpt}`}</Paragraph>
			))}
			{more > 0 ? <Paragraph>{`And ${more} more.`}</Paragraph> : null}
			<ActionButton href={threadUrl}>Read the discussion</ActionButton>
		</EmailLayout>
	)
}

/** The mail's subject, also its heading. */
export function communityRepliesSubject(count: number, threadTitle: string) {
	return `${count === 1 ? 'A new reply' : `${count} new replies`} to "${threadTitle}"`
}
