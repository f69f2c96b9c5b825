import { z } from 'zod'
import { MAX_NOTE_LENGTH, MAX_SESSION_MINUTES } from '#app/models/sessions/live-sessions.ts'
import { hasControlCharacters } from '#app/utils/misc.ts'

/*
 * The forms of live sessions, apart from live-sessions.ts: the student's dashboard imports constants
 * from there, and a module that builds Zod schemas would bring Zod into its first visit.
 */

const MEETING_LINK_MESSAGE = 'Please enter a valid URL (starting with https://)'

/** The course's meeting link as its form takes it: empty for none (null), else an https address (the column's CHECK too). */
export const MeetingLinkSchema = z
	.string()
	.trim()
	.max(2000, 'Meeting link must be at most 2,000 characters')
	.optional()
	.transform((value) => value || null)
	.refine((value) => value === null || isHttpsAddress(value), MEETING_LINK_MESSAGE)

function isHttpsAddress(value: string) {
	if (/\s/.test(value)) return false
	try {
		const url = new URL(value)
		return url.protocol === 'https:' && url.hostname.includes('.') && value.startsWith('https://')
	} catch {
		return false
	}
}

/** Line breaks and tabs are kept; other control characters refused (PostgreSQL text cannot hold NUL). */
const noteField = z
	.string()
	.trim()
	.max(MAX_NOTE_LENGTH, `The note must be at most ${MAX_NOTE_LENGTH} characters`)
	.refine((note) => !hasControlCharacters(note, { lineBreaks: true }), 'The note must not contain control characters')
	.optional()
	.transform((value) => value || null)
const dateField = z.iso.date('Enter a date as YYYY-MM-DD')
const timeField = z
	.string({ error: 'Enter a time, e.g. 19:00' })
	.trim()
	.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time, e.g. 19:00')

/** The forms of the session editor: move or shorten, cancel (confirmed), restore, and the week's opening. */
export const SessionEditSchema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('move'),
		date: dateField,
		startTime: timeField,
		minutes: z.coerce
			.number({ error: `Length must be a whole number of minutes from 5 to ${MAX_SESSION_MINUTES}` })
			.int(`Length must be a whole number of minutes from 5 to ${MAX_SESSION_MINUTES}`)
			.min(5, `Length must be a whole number of minutes from 5 to ${MAX_SESSION_MINUTES}`)
			.max(MAX_SESSION_MINUTES, `Length must be a whole number of minutes from 5 to ${MAX_SESSION_MINUTES}`),
		note: noteField,
	}),
	z.object({
		intent: z.literal('cancel'),
		note: noteField,
		confirm: z.literal('on', { error: 'Tick the box to confirm the cancellation' }),
	}),
	z.object({ intent: z.literal('restore') }),
	z.object({ intent: z.literal('open-now') }),
	z.object({ intent: z.literal('open-default') }),
	z.object({ intent: z.literal('open-at'), opensDate: dateField, opensTime: timeField }),
])
