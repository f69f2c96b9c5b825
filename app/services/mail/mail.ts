/** A small text attachment (a calendar file); files in storage are linked, not mailed. */
export type MailAttachment = {
	filename: string
	contentType: string
	content: string
}

export type OutgoingMail = {
	to: string
	subject: string
	text: string
	html?: string
	/** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
	headers?: Record<string, string>
	attachments?: MailAttachment[]
	/** A mail with a key already in the outbox is not queued again (a job's second run). */
	dedupeKey?: string
}

/** Delivers one message; throws when delivery failed so the outbox retries it. */
export interface MailTransport {
	readonly kind: 'smtp' | 'mailbox'
	send(mail: OutgoingMail & { from: string }): Promise<void>
	check(): Promise<void>
}
