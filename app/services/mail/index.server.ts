import type { Kysely } from 'kysely'
import { getDb } from '#app/utils/db.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import type { Database } from '#db/types.ts'
import { addJob } from '../jobs/queue.server.ts'
import type { MailTransport, OutgoingMail } from './mail.ts'
import { MailboxTransport } from './mailbox.server.ts'
import { deliverPendingMail } from './outbox.server.ts'
import { SmtpTransport } from './smtp.server.ts'

export type { MailAttachment, OutgoingMail } from './mail.ts'

/** SMTP when SMTP_URL is set; otherwise mail stays in the outbox, readable at /dev/mailbox. */
export function createMailTransport(env: Env): MailTransport {
	return env.SMTP_URL ? new SmtpTransport(env.SMTP_URL) : new MailboxTransport()
}

/**
 * The /dev/mailbox page shows every queued mail (reset links included) to anyone, so it
 * exists only while mail stays in the outbox, and in production only on explicit opt-in.
 */
export function isMailboxAvailable(env: Env) {
	return !env.SMTP_URL && (env.NODE_ENV !== 'production' || env.ALLOW_EMBEDDED_DEFAULTS)
}

/**
 * Mail is written to the outbox in the caller's transaction, with a delivery job of the job
 * system beside it, so a mail is sent if and only if its change committed.
 */
export async function enqueueMail(db: Kysely<Database>, mail: OutgoingMail) {
	const row = await db
		.insertInto('email_outbox')
		.values({
			to_address: mail.to,
			subject: mail.subject,
			text_body: mail.text,
			html_body: mail.html ?? null,
			headers: JSON.stringify(mail.headers ?? {}),
			attachments: JSON.stringify(mail.attachments ?? []),
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	// One pending delivery job is enough: it sends every due mail, this one included.
	await addJob(db, 'deliver-mail', {}, { jobKey: 'deliver-mail' })
	return row.id
}

type Delivery = { transport: MailTransport; from: string }
let delivery: Delivery | undefined

/** Chooses this process's transport once at start-up (the deliver-mail job uses it). */
export function configureMailDelivery(env: Env) {
	delivery = { transport: createMailTransport(env), from: env.MAIL_FROM }
}

/** Sends the outbox's due mail: new mail, and retries whose time has come (MAX_ATTEMPTS, backing off). */
export async function deliverQueuedMail() {
	if (!delivery) throw new Error('Mail delivery is not configured (call configureMailDelivery at start-up).')
	return deliverPendingMail(getDb(), delivery.transport, delivery.from)
}
