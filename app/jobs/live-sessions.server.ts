import type { Task } from 'graphile-worker'
import { sendDueReminders, sendWeekOpenNotices } from '#app/models/sessions/session-emails.server.ts'
import { getDb } from '#app/utils/db.server.ts'

/** Queues the live-session reminders due now (each once, whichever process runs it: docs/decisions/032). */
export const sendSessionReminders: Task = async () => {
	await sendDueReminders(getDb())
}

/** Queues 'Week N is open' for weeks that opened since the last run. */
export const announceOpenWeeks: Task = async () => {
	await sendWeekOpenNotices(getDb())
}
