import { EmailLayout } from './layout.tsx'
import { ActionButton, EmailHeading, Greeting, Paragraph } from './parts.tsx'
import type { EmailSite } from './site.ts'

export const RESET_PASSWORD_SUBJECT = 'Reset your password'

export type ResetPasswordEmailProps = { site: EmailSite; name: string | null; resetUrl: string }

export function ResetPasswordEmail({ site, name, resetUrl }: ResetPasswordEmailProps) {
	return (
		<EmailLayout
			site={site}
			title={RESET_PASSWORD_SUBJECT}
			preview="Choose a new password for your account. The link expires in 1 hour."
			reason={`You get this email because someone asked to reset the password of the ${site.name} account with this address. If it was not you, ignore it: your password stays the same.`}
		>
			<EmailHeading>{RESET_PASSWORD_SUBJECT}</EmailHeading>
			<Greeting name={name} />
			<Paragraph>{`We received a request to reset the password of your ${site.name} account. Choose a new password here:`}</Paragraph>
			<ActionButton href={resetUrl}>Choose a new password</ActionButton>
			<Paragraph>The link expires in 1 hour and works once.</Paragraph>
		</EmailLayout>
	)
}
