import { type Kysely, sql } from 'kysely'
import type { Database } from '#db/types.ts'
import type { MailTransport } from './mail.ts'

/** After this many failed attempts a mail is marked failed and no longer retried. */
export const MAX_ATTEMPTS = 8
/** The first retry waits a minute; each further one twice as long (1, 2, 4 … 64 minutes). */
const BASE_RETRY_SECONDS = 60
const MAX_ERROR_LENGTH = 1000

export function retryDelaySeconds(attempts: number) {
	return BASE_RETRY_SECONDS * 2 ** (attempts - 1)
}

export type DeliveryCounts = { sent: number; retried: number; failed: number }

/**
 * Sends up to `batchSize` due mails. Each mail is claimed in its own transaction with
 * `FOR UPDATE SKIP LOCKED` and stays locked while it is sent, so concurrent workers (in
 * several app processes) never send the same mail twice, and a slow send holds one row,
 * not the batch.
 */
export async function deliverPendingMail(
	db: Kysely<Database>,
	transport: MailTransport,
	from: string,
	{ batchSize = 20 }: { batchSize?: number } = {},
): Promise<DeliveryCounts> {
	const counts: DeliveryCounts = { sent: 0, retried: 0, failed: 0 }
	for (let index = 0; index < batchSize; index++) {
		const outcome = await db.transaction().execute(async (trx) => {
			const mail = await trx
				.selectFrom('email_outbox')
				.select(['id', 'to_address', 'subject', 'text_body', 'html_body', 'headers', 'attachments', 'attempts'])
				.where('status', '=', 'pending')
				.where('next_attempt_at', '<=', sql<Date>`now()`)
				.orderBy('next_attempt_at')
				.orderBy('id')
				.limit(1)
				.forUpdate()
				.skipLocked()
				.executeTakeFirst()
			if (!mail) return null
			const attempts = mail.attempts + 1
			try {
				await transport.send({
					from,
					to: mail.to_address,
					subject: mail.subject,
					text: mail.text_body,
					html: mail.html_body ?? undefined,
					headers: mail.headers,
					attachments: mail.attachments,
				})
			} catch (error) {
				const failed = attempts >= MAX_ATTEMPTS
				const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH)
				await trx
					.updateTable('email_outbox')
					.set({
						status: failed ? 'failed' : 'pending',
						attempts,
						last_error: message,
						next_attempt_at: sql<Date>`now() + make_interval(secs => ${retryDelaySeconds(attempts)})`,
					})
					.where('id', '=', mail.id)
					.execute()
				if (failed) console.error(`[mail] giving up on mail ${mail.id} after ${attempts} attempts: ${message}`)
				return failed ? 'failed' : 'retried'
			}
			await trx
				.updateTable('email_outbox')
				.set({ status: 'sent', attempts, last_error: null, sent_at: sql<Date>`now()` })
				.where('id', '=', mail.id)
				.execute()
			return 'sent'
		})
		if (!outcome) break
		counts[outcome]++
	}
	return counts
}
