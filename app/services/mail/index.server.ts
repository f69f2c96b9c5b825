import type { Kysely } from 'kysely'
import { getDb } from '#app/utils/db.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import type { Database } from '#db/types.ts'
import type { MailTransport, OutgoingMail } from './mail.ts'
import { MailboxTransport } from './mailbox.server.ts'
import { deliverPendingMail } from './outbox.server.ts'
import { SmtpTransport } from './smtp.server.ts'

export type { OutgoingMail } from './mail.ts'

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
 * Mail is written to the outbox in the caller's transaction and delivered
 * afterwards by the worker, so a mail is sent if and only if its change committed.
 */
export async function enqueueMail(db: Kysely<Database>, mail: OutgoingMail) {
	const row = await db
		.insertInto('email_outbox')
		.values({ to_address: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html ?? null })
		.returning('id')
		.executeTakeFirstOrThrow()
	wakeMailWorker()
	return row.id
}

type Worker = { transport: MailTransport; from: string; timer?: NodeJS.Timeout; running?: Promise<void>; stopped: boolean }
let worker: Worker | undefined

const POLL_MS = 5_000

export function startMailWorker(env: Env) {
	worker = { transport: createMailTransport(env), from: env.MAIL_FROM, stopped: false }
	schedule(0)
}

function schedule(delay: number) {
	if (!worker || worker.stopped) return
	clearTimeout(worker.timer)
	worker.timer = setTimeout(() => {
		if (!worker || worker.running) return
		worker.running = deliverPendingMail(getDb(), worker.transport, worker.from)
			.then(() => undefined)
			.catch((error: unknown) => console.error('[mail] delivery run failed', error))
			.finally(() => {
				if (worker) worker.running = undefined
				schedule(POLL_MS)
			})
	}, delay)
	worker.timer.unref()
}

/** Delivers soon after a mail is queued instead of waiting for the next poll. */
export function wakeMailWorker() {
	schedule(50)
}

export async function stopMailWorker() {
	if (!worker) return
	worker.stopped = true
	clearTimeout(worker.timer)
	await worker.running
	worker = undefined
}
