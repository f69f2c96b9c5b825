import type { Task } from 'graphile-worker'
import { deliverQueuedMail } from '#app/services/mail/index.server.ts'

/** Sends the outbox's due mail (new mail, and retries whose time has come). */
export const deliverMail: Task = async () => {
	await deliverQueuedMail()
}
