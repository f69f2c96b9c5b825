import type { Kysely } from 'kysely'
import { href } from 'react-router'
import { CONFIRM_EMAIL_SUBJECT, ConfirmEmail } from '#app/emails/confirm-email.tsx'
import { ACCESS_CHANGED_SUBJECT, AccessChangedEmail, INVITATION_SUBJECT, InvitationEmail } from '#app/emails/invitation.tsx'
import { RESET_PASSWORD_SUBJECT, ResetPasswordEmail } from '#app/emails/reset-password.tsx'
import { enqueueSiteEmail } from '#app/models/messaging/emails.server.ts'
import type { Database } from '#db/types.ts'
import { issueToken } from './auth-tokens.server.ts'
import { INVITE_LINK_DAYS, type InviteRole } from './invitations.ts'

/** Queues the e-mail-confirmation link; call in the transaction that created the account. */
export async function sendConfirmationEmail(db: Kysely<Database>, user: { id: string; email: string; name: string }) {
	const token = await issueToken(db, user.id, 'confirm_email')
	await enqueueSiteEmail(db, ConfirmEmail, {
		to: user.email,
		subject: CONFIRM_EMAIL_SUBJECT,
		props: (site) => ({ name: user.name, confirmUrl: `${site.url}${href('/confirm-email')}?token=${encodeURIComponent(token)}` }),
	})
}

export async function sendPasswordResetEmail(db: Kysely<Database>, user: { id: string; email: string; name: string | null }) {
	const token = await issueToken(db, user.id, 'reset_password')
	await enqueueSiteEmail(db, ResetPasswordEmail, {
		to: user.email,
		subject: RESET_PASSWORD_SUBJECT,
		props: (site) => ({ name: user.name, resetUrl: `${site.url}${href('/reset-password')}?token=${encodeURIComponent(token)}` }),
	})
}

/** Queues the invitation with a new set-password link; the earlier link of this account stops working. */
export async function sendInvitationEmail(
	db: Kysely<Database>,
	user: { id: string; email: string; name: string | null; role: InviteRole; courses: readonly string[] },
) {
	const token = await issueToken(db, user.id, 'invite')
	await enqueueSiteEmail(db, InvitationEmail, {
		to: user.email,
		subject: INVITATION_SUBJECT,
		props: (site) => ({
			name: user.name,
			invitedAs: user.role,
			courses: user.courses,
			acceptUrl: `${site.url}${href('/accept-invite')}?token=${encodeURIComponent(token)}`,
			linkDays: INVITE_LINK_DAYS,
		}),
	})
}

/** Tells an existing account that an invitation changed its role or added courses. */
export async function sendAccessChangedEmail(
	db: Kysely<Database>,
	user: { email: string; name: string | null; role: InviteRole; courses: readonly string[] },
) {
	await enqueueSiteEmail(db, AccessChangedEmail, {
		to: user.email,
		subject: ACCESS_CHANGED_SUBJECT,
		props: (site) => ({
			name: user.name,
			invitedAs: user.role,
			courses: user.courses,
			dashboardUrl: `${site.url}${href('/dashboard')}`,
		}),
	})
}
