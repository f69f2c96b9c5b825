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
function createMailTransport(env: Env): MailTransport {
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
export async function enqueueMail(db: Kysely<Database>, mail: Omit<OutgoingMail, 'dedupeKey'>) {
	const [id] = await enqueueMails(db, [mail])
	return id!
}

/** Rows per INSERT: seven parameters each stays far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 1000

/** Queues many mails (an announcement's recipients) with a few inserts and one delivery job. */
export async function enqueueMails(db: Kysely<Database>, mails: OutgoingMail[]) {
	const ids: number[] = []
	for (let start = 0; start < mails.length; start += INSERT_CHUNK) {
		const rows = await db
			.insertInto('email_outbox')
			.values(
				mails.slice(start, start + INSERT_CHUNK).map((mail) => ({
					to_address: mail.to,
					subject: mail.subject,
					text_body: mail.text,
					html_body: mail.html ?? null,
					headers: JSON.stringify(mail.headers ?? {}),
					attachments: JSON.stringify(mail.attachments ?? []),
					dedupe_key: mail.dedupeKey ?? null,
				})),
			)
			.onConflict((conflict) => conflict.column('dedupe_key').doNothing())
			.returning('id')
			.execute()
		ids.push(...rows.map((row) => row.id))
	}
	// One pending delivery job is enough: it sends every due mail, these included.
	if (ids.length > 0) await addJob(db, 'deliver-mail', {}, { jobKey: 'deliver-mail' })
	return ids
}

/** Mails one delivery job sends before handing over to the next. */
const DELIVERY_BATCH = 20

type Delivery = { transport: MailTransport; from: string }
let delivery: Delivery | undefined

/** Chooses this process's transport once at start-up (the deliver-mail job uses it). */
export function configureMailDelivery(env: Env) {
	delivery = { transport: createMailTransport(env), from: env.MAIL_FROM }
}

/**
 * Sends a batch of the outbox's due mail: new mail, and retries whose time has come
 * (MAX_ATTEMPTS, backing off). A full batch asks for another delivery job at once, so a
 * long queue (an announcement to every student) drains batch after batch without waiting
 * for the next minute's cron run, while the job system keeps the turns short.
 */
export async function deliverQueuedMail() {
	if (!delivery) throw new Error('Mail delivery is not configured (call configureMailDelivery at start-up).')
	const db = getDb()
	const counts = await deliverPendingMail(db, delivery.transport, delivery.from, { batchSize: DELIVERY_BATCH })
	if (counts.sent + counts.retried + counts.failed >= DELIVERY_BATCH) await addJob(db, 'deliver-mail', {}, { jobKey: 'deliver-mail' })
	return counts
}
