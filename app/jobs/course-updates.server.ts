import type { Task } from 'graphile-worker'
import { z } from 'zod'
import { emailCourseUpdate } from '#app/models/materials/materials-emails.server.ts'
import { getDb } from '#app/utils/db.server.ts'

const PayloadSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('assignment-posted'), assignmentId: z.number().int().positive() }),
	z.object({ kind: z.literal('recordings-added'), weekId: z.number().int().positive(), titles: z.array(z.string()).min(1).max(100) }),
	z.object({ kind: z.literal('submission-graded'), submissionId: z.number().int().positive() }),
])

/** E-mails a course's news (an assignment posted, recordings added, a grade) to the students it concerns. */
export const emailCourseUpdateTask: Task = async (payload, helpers) => {
	await emailCourseUpdate(getDb(), PayloadSchema.parse(payload), helpers.job.id)
}
