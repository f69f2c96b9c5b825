import type { MailTransport } from './mail.ts'

/**
 * The embedded default: the outbox row is the mailbox (read at /dev/mailbox), so
 * delivering a mail only marks its row sent.
 */
export class MailboxTransport implements MailTransport {
	readonly kind = 'mailbox'

	async send() {}

	async check() {}
}
