import { z } from 'zod'
import { CourseTitleSchema, DateSchema } from './courses.ts'

/*
 * Run again (issue 39, docs/decisions/045): the next cohort of a course, made from it with a new
 * start date, as a draft the admin reviews before publishing.
 */

export const RUN_AGAIN_MESSAGES = {
	startDate: 'Enter the start date of the new course',
	tooLate: 'Enter a start date before the year 3000',
} as const

/** The title the Run again form suggests. */
export function nextCohortTitle(title: string) {
	const suggested = `${title} (next cohort)`
	return suggested.length <= 200 ? suggested : title
}

export const RunAgainSchema = z.object({
	title: CourseTitleSchema,
	startDate: z
		.string({ error: RUN_AGAIN_MESSAGES.startDate })
		.pipe(DateSchema.unwrap())
		.refine((date) => date < '3000-01-01', RUN_AGAIN_MESSAGES.tooLate),
	/** Made with the form: a second submit of the same form (a double click) finds the copy the first made. */
	key: z.uuid(),
})

export type RunAgainValues = z.output<typeof RunAgainSchema>
