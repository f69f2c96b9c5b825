import type { Task } from 'graphile-worker'
import { z } from 'zod'
import { emailAnnouncement } from '#app/models/messaging/announcement-emails.server.ts'
import { getDb } from '#app/utils/db.server.ts'

const PayloadSchema = z.object({ messageId: z.number().int().positive() })

/** Queues one announcement's e-mails in the outbox, one per recipient, once (emailAnnouncement). */
export const emailAnnouncementTask: Task = async (payload) => {
	const { messageId } = PayloadSchema.parse(payload)
	await emailAnnouncement(getDb(), messageId)
}
