import { z } from 'zod'
import { hasControlCharacters } from '#app/utils/misc.ts'

/**
 * The Week Topics form (issue 39 point 3, docs/decisions/046): every week of a course with one topic
 * field each, saved in one post. A week needs only its topic; files and links come later.
 */

/** Rows one save may carry: far more than any course has weeks, few enough to check in one go. */
export const MAX_WEEK_TOPIC_ROWS = 100

export const WEEK_TOPIC_MESSAGES = {
	topicTooLong: 'Topic must be at most 300 characters',
	controlCharacters: 'Topic must not contain control characters',
	/** An existing week keeps a topic (the column needs one): emptying it would have to delete its files. */
	topicRequired: 'Topic is required: this week is saved. To remove it, use Delete Week under Current Materials',
	duplicateWeek: 'This week number is listed twice',
	fixRows: 'Nothing was saved: please correct the highlighted weeks.',
	unchanged: 'Nothing to save: the week topics are unchanged.',
} as const

const WeekTopicRowSchema = z.object({
	weekNumber: z.coerce.number().int().min(1).max(1000),
	/** Empty: no week is made (an existing week refuses it, see saveWeekTopics). */
	topic: z
		.string()
		.trim()
		.max(300, WEEK_TOPIC_MESSAGES.topicTooLong)
		.refine((topic) => !hasControlCharacters(topic), WEEK_TOPIC_MESSAGES.controlCharacters)
		.optional()
		.transform((topic) => topic || null),
})

export const WeekTopicsSchema = z.object({
	weeks: z
		.array(WeekTopicRowSchema)
		.min(1)
		.max(MAX_WEEK_TOPIC_ROWS)
		.superRefine((rows, context) => {
			const seen = new Set<number>()
			rows.forEach((row, index) => {
				if (seen.has(row.weekNumber))
					context.addIssue({ code: 'custom', path: [index, 'topic'], message: WEEK_TOPIC_MESSAGES.duplicateWeek })
				seen.add(row.weekNumber)
			})
		}),
})

export type WeekTopicsValues = z.output<typeof WeekTopicsSchema>
export type WeekTopicRow = WeekTopicsValues['weeks'][number]

/** A row of the form: the week's number, its topic ('' when it has none yet), and whether the week is saved. */
export type WeekTopicLine = { weekNumber: number; topic: string; saved: boolean }

/** 'Week topics saved: 3 weeks added, 2 topics changed.' */
export function weekTopicsSavedMessage({ created, updated }: { created: number; updated: number }) {
	const parts = [
		created > 0 ? `${created} ${created === 1 ? 'week' : 'weeks'} added` : null,
		updated > 0 ? `${updated} ${updated === 1 ? 'topic' : 'topics'} changed` : null,
	].filter(Boolean)
	return `Week topics saved: ${parts.join(', ')}.`
}
