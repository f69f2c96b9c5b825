import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export const CONFIRM_EMAIL_SUBJECT = 'Confirm your email address'

export type ConfirmEmailProps = { site: EmailSite; name: string; confirmUrl: string }

export function ConfirmEmail({ site, name, confirmUrl }: ConfirmEmailProps) {
	return (
		<EmailLayout
			site={site}
			title={CONFIRM_EMAIL_SUBJECT}
			preview="Confirm your email address to finish setting up your account."
			reason={`You get this email because this address was used to create an account at ${site.name}. If that was not you, ignore it: no account is confirmed without this link.`}
		>
			<EmailHeading>{CONFIRM_EMAIL_SUBJECT}</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`Welcome to the ${site.name} program. Please confirm your email address to finish setting up your account.`}</Paragraph>
			<ActionButton href={confirmUrl}>Confirm my email address</ActionButton>
			<Paragraph>The link works for 48 hours.</Paragraph>
		</EmailLayout>
	)
}
