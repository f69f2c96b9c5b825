import type { Kysely } from 'kysely'
import { enqueueMail } from '#app/services/mail/index.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import type { Database } from '#db/types.ts'
import { issueToken } from './auth-tokens.server.ts'

/** Queues the e-mail-confirmation link; call in the transaction that created the account. */
export async function sendConfirmationEmail(db: Kysely<Database>, user: { id: string; email: string; name: string }) {
	const token = await issueToken(db, user.id, 'confirm_email')
	const link = `${getEnv().APP_URL}/confirm-email?token=${encodeURIComponent(token)}`
	await enqueueMail(db, {
		to: user.email,
		subject: 'Confirm your email address',
		text: [
			`Hi ${user.name},`,
			'',
			'Welcome to the Real Estate Mentorship program. Please confirm your email address to finish setting up your account:',
			'',
			link,
			'',
			'The link works for 48 hours. If you did not create an account, you can ignore this email.',
		].join('\n'),
	})
}

export async function sendPasswordResetEmail(db: Kysely<Database>, user: { id: string; email: string; name: string | null }) {
	const token = await issueToken(db, user.id, 'reset_password')
	const link = `${getEnv().APP_URL}/reset-password?token=${encodeURIComponent(token)}`
	await enqueueMail(db, {
		to: user.email,
		subject: 'Reset your password',
		text: [
			`Hi ${user.name || 'there'},`,
			'',
			'We received a request to reset the password of your Real Estate Mentorship account. Choose a new password here:',
			'',
			link,
			'',
			'The link expires in 1 hour and works once. If you did not ask for it, ignore this email: your password stays the same.',
		].join('\n'),
	})
}
