import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export const INVITATION_SUBJECT = 'You are invited: set your password'
export const ACCESS_CHANGED_SUBJECT = 'Your account has changed'

type InviteRole = 'student' | 'instructor'

function roleWords(role: InviteRole, courses: readonly string[]) {
	if (role === 'student') return 'a student'
	return courses.length ? `an instructor of ${courses.join(', ')}` : 'an instructor'
}

export type InvitationEmailProps = {
	site: EmailSite
	name: string | null
	/** What the account is now. */
	invitedAs: InviteRole
	courses: readonly string[]
	acceptUrl: string
	/** How many days the link works. */
	linkDays: number
}

export function InvitationEmail({ site, name, invitedAs, courses, acceptUrl, linkDays }: InvitationEmailProps) {
	return (
		<EmailLayout
			site={site}
			title={INVITATION_SUBJECT}
			preview={`You have an account at ${site.name}. Choose a password within ${linkDays} days.`}
			reason={`You get this email because an administrator of ${site.name} invited this address. If you did not expect it, ignore it: nobody can sign in to the account until a password is chosen with this link.`}
		>
			<EmailHeading>{INVITATION_SUBJECT}</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`An administrator of ${site.name} has made you an account as ${roleWords(invitedAs, courses)}. Choose a password to sign in:`}</Paragraph>
			<ActionButton href={acceptUrl}>Set my password</ActionButton>
			<Paragraph>{`The link works once, for ${linkDays} days. If another invitation follows, only the newest link works.`}</Paragraph>
		</EmailLayout>
	)
}

export type AccessChangedEmailProps = {
	site: EmailSite
	name: string | null
	/** What the account is now. */
	invitedAs: InviteRole
	/** Courses newly added; empty when only the role changed. */
	courses: readonly string[]
	dashboardUrl: string
}

export function AccessChangedEmail({ site, name, invitedAs, courses, dashboardUrl }: AccessChangedEmailProps) {
	return (
		<EmailLayout
			site={site}
			title={ACCESS_CHANGED_SUBJECT}
			preview={`An administrator of ${site.name} changed what your account can do.`}
			reason={`You get this email because an administrator of ${site.name} changed the role or courses of the account with this address.`}
		>
			<EmailHeading>{ACCESS_CHANGED_SUBJECT}</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`An administrator of ${site.name} has made you ${roleWords(invitedAs, courses)}. Your password stays the same.`}</Paragraph>
			<ActionButton href={dashboardUrl}>Go to my dashboard</ActionButton>
		</EmailLayout>
	)
}
