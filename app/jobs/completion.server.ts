import type { Task } from 'graphile-worker'
import { completeEndedCourses } from '#app/models/enrollment/completion.server.ts'
import { getDb } from '#app/utils/db.server.ts'

/** Applies the completion rule of each course that has ended, once whichever process runs it (docs/decisions/052). */
export const completeEndedCoursesTask: Task = async () => {
	await completeEndedCourses(getDb())
}
