export type OutgoingMail = {
	to: string
	subject: string
	text: string
	html?: string
}

/** Delivers one message; throws when delivery failed so the outbox retries it. */
export interface MailTransport {
	readonly kind: 'smtp' | 'mailbox'
	send(mail: OutgoingMail & { from: string }): Promise<void>
	check(): Promise<void>
}
