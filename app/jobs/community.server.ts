import type { Task } from 'graphile-worker'
import { z } from 'zod'
import { emailThreadReplies } from '#app/models/community/discussions-emails.server.ts'
import { getDb } from '#app/utils/db.server.ts'

const PayloadSchema = z.object({ threadId: z.number().int().positive() })

/** E-mails a discussion's author the replies since their last mail (docs/decisions/060). */
export const emailCommunityRepliesTask: Task = async (payload) => {
	await emailThreadReplies(getDb(), PayloadSchema.parse(payload).threadId)
}
