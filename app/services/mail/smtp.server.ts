import nodemailer, { type Transporter } from 'nodemailer'
import type { MailTransport, OutgoingMail } from './mail.ts'

/**
 * SMTP via nodemailer, one connection per message. The timeouts are short because the
 * outbox holds the row's lock while a mail is being sent, and retries it later anyway.
 */
export class SmtpTransport implements MailTransport {
	readonly kind = 'smtp'
	private readonly transporter: Transporter

	constructor(smtpUrl: string) {
		this.transporter = nodemailer.createTransport({
			url: smtpUrl,
			connectionTimeout: 10_000,
			greetingTimeout: 10_000,
			socketTimeout: 30_000,
		})
	}

	async send(mail: OutgoingMail & { from: string }) {
		await this.transporter.sendMail({
			from: mail.from,
			to: mail.to,
			subject: mail.subject,
			text: mail.text,
			html: mail.html,
			headers: mail.headers,
			attachments: mail.attachments,
		})
	}

	async check() {
		await this.transporter.verify()
	}
}
