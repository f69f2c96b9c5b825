import { z } from 'zod'
import { DEFAULT_PRESENT_PERCENT } from '#app/models/sessions/attendance.ts'
import {
	DEFAULT_REMINDER_FIRST_MINUTES,
	DEFAULT_REMINDER_SECOND_MINUTES,
	DEFAULT_TIME_ZONE,
	DEFAULT_WEEKS_OPEN_DAYS_BEFORE,
	isTimeZone,
	MAX_REMINDER_MINUTES,
	MAX_SESSION_MINUTES,
	MIN_REMINDER_MINUTES,
} from '#app/models/sessions/live-sessions.ts'
import { MeetingLinkSchema } from '#app/models/sessions/session-forms.ts'
import { INVALID_DATE_MESSAGE } from '#app/utils/misc.ts'
import { dollarsToCents } from '#app/utils/money.ts'
import { boundedText, requiredText } from '#app/utils/text-fields.ts'

/** Seat availability as every page shows it: shared by the server's queries and the badges. */

/** At this many spots left or fewer (but more than none) a course is ALMOST FULL. */
const ALMOST_FULL_THRESHOLD = 2

export type AvailabilityTone = 'green' | 'orange' | 'red'

export type Availability = {
	taken: number
	spotsLeft: number
	isFull: boolean
	isAlmostFull: boolean
	tone: AvailabilityTone
}

/** What the admin's course form saves and every course page shows. */
export type CourseBasics = {
	title: string
	description: string
	/** 'YYYY-MM-DD' or null. */
	startDate: string | null
	/** 'YYYY-MM-DD' or null. */
	endDate: string | null
	capacity: number
	/** In cents; 0 is a free course. */
	registrationFee: number
}

export type CourseWithAvailability = Availability &
	CourseBasics & {
		id: number
		/** The live sessions, e.g. 'Tuesdays 7 pm ET, 8 sessions from 13 Jan'; null without a weekly schedule. */
		schedule: string | null
		/** What You'll Learn: the course's own list, else the program's. */
		outcomes: string[]
		/** How long it runs, as the course page says it: the course's words, else its schedule's weeks, else the program's. */
		duration: string
		/** False for a draft: only admins see it (docs/decisions/045). */
		published: boolean
		/** ISO timestamp. */
		createdAt: string
		/** ISO timestamp. */
		updatedAt: string
	}

export function availabilityOf({ capacity, taken }: { capacity: number; taken: number }): Availability {
	const spotsLeft = Math.max(0, capacity - taken)
	const isFull = spotsLeft === 0
	const isAlmostFull = !isFull && spotsLeft <= ALMOST_FULL_THRESHOLD
	return {
		taken,
		spotsLeft,
		isFull,
		isAlmostFull,
		tone: isFull ? 'red' : isAlmostFull ? 'orange' : 'green',
	}
}

/** The program's length in the specification: 8 weekly sessions. */
const PROGRAM_WEEKS = 8

/**
 * How many weeks a course runs, from its dates ('YYYY-MM-DD', both days counted), rounded to
 * whole weeks; the program's 8 weeks when a date is missing or they make no sense.
 */
export function courseLengthInWeeks(startDate: string | null, endDate: string | null) {
	if (!startDate || !endDate) return PROGRAM_WEEKS
	const days = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000 + 1
	if (!Number.isFinite(days) || days < 1) return PROGRAM_WEEKS
	return Math.max(1, Math.round(days / 7))
}

// The Add and Edit Course form's rules, shared by the form and the actions.

const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields'
export const DEFAULT_CAPACITY = 20
export const MAX_CAPACITY = 10_000
/** $1,000,000.00, far below the integer limit of the column. */
const MAX_FEE_CENTS = 100_000_000

/**
 * The spec's rule: not a number falls back to the default capacity. A number is kept as typed, so
 * that 1.5 is refused as not whole rather than quietly stored as 1.
 */
function capacityOrDefault(value: unknown) {
	const text = String(value ?? '').trim()
	const parsed = Number(text)
	return text === '' || Number.isNaN(parsed) ? DEFAULT_CAPACITY : parsed
}

export const DateSchema = z.iso
	.date(INVALID_DATE_MESSAGE)
	// Only a well-formed date is compared; the format check has refused anything else once already.
	.refine((value) => !/^\d{4}-\d{2}-\d{2}$/.test(value) || value >= '1900-01-01', INVALID_DATE_MESSAGE)
	.optional()

function isDate(value: unknown): value is string {
	return typeof value === 'string' && DateSchema.safeParse(value).success
}

/** A whole number typed in a field, or `fallback` when the field was not sent at all. */
function wholeNumber(fallback: number, message: string, min: number, max: number, tooLarge: string) {
	return z.preprocess(
		(value) => (value === undefined ? fallback : Number(String(value).trim())),
		z.number({ error: message }).int(message).min(min, message).max(max, tooLarge),
	)
}

/** A reminder's lead time: 0 turns it off (stored as null). */
function reminderLead(fallback: number, unitMinutes: number, label: string) {
	const max = MAX_REMINDER_MINUTES / unitMinutes
	const unit = unitMinutes === 60 ? 'hours' : 'minutes'
	return z
		.preprocess(
			(value) => (value === undefined ? fallback / unitMinutes : Number(String(value).trim())),
			z
				.number({ error: `${label} must be a number of ${unit}` })
				.min(0, `${label} cannot be negative`)
				.max(max, `${label} must be at most ${max} ${unit} (two weeks)`),
		)
		.transform((value) => (value === 0 ? null : Math.round(value * unitMinutes)))
		.refine(
			(value) => value === null || value >= MIN_REMINDER_MINUTES,
			`${label} must be at least ${MIN_REMINDER_MINUTES} minutes, or 0 for none`,
		)
}

const OUTCOMES_MAX_LENGTH = 4000
const MAX_OUTCOMES = 20

/** A text of the school's that may be left empty (then null: the program's own words are shown). */
function ownWords(rules: { label: string; max: number; lineBreaks: boolean }) {
	return boundedText(rules)
		.optional()
		.transform((text) => text || null)
}

const SCHEDULE_MESSAGES = {
	timeZone: 'Choose a time zone from the list',
	startTime: 'Enter the start time of the weekly session, e.g. 19:00',
	minutes: `Length must be a whole number of minutes from 5 to ${MAX_SESSION_MINUTES}`,
	needsStartDate: 'A weekly schedule needs the course start date',
	daysBefore: 'Enter a whole number of days from 0 to 365',
	presentPercent: 'Enter a whole percentage from 1 to 100',
} as const

export const CourseTitleSchema = requiredText({ label: 'Title', max: 200, required: REQUIRED_FIELDS_MESSAGE })

/** Add and Edit Course share one form (admin.md section 5). */
export const CourseFormSchema = z
	.object({
		title: CourseTitleSchema,
		description: requiredText({ label: 'Description', max: 5000, lineBreaks: true, required: REQUIRED_FIELDS_MESSAGE }),
		startDate: DateSchema,
		endDate: DateSchema,
		// A fee that is not an amount of dollars ('free!') is no fee, as the form has always taken it.
		registrationFee: z.preprocess(
			(value) => dollarsToCents(String(value ?? '')) ?? 0,
			z.number().int().min(0, 'Registration fee cannot be negative').max(MAX_FEE_CENTS, 'Registration fee must be at most $1,000,000.00'),
		),
		capacity: z.preprocess(
			capacityOrDefault,
			z
				.number()
				.int('Capacity must be a whole number')
				.gt(0, 'Capacity must be greater than 0')
				.max(MAX_CAPACITY, `Capacity must be at most ${MAX_CAPACITY.toLocaleString('en-US')}`),
		),
		timeZone: z
			.string()
			.trim()
			.default(DEFAULT_TIME_ZONE)
			.refine((value) => isTimeZone(value), SCHEDULE_MESSAGES.timeZone),
		/** Empty: no weekly schedule. */
		scheduleWeekday: z.coerce.number().int().min(1).max(7).optional(),
		scheduleStartTime: z
			.string()
			.trim()
			.regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, SCHEDULE_MESSAGES.startTime)
			.optional(),
		scheduleMinutes: wholeNumber(60, SCHEDULE_MESSAGES.minutes, 5, MAX_SESSION_MINUTES, SCHEDULE_MESSAGES.minutes),
		weeksOpenDaysBefore: wholeNumber(DEFAULT_WEEKS_OPEN_DAYS_BEFORE, SCHEDULE_MESSAGES.daysBefore, 0, 365, SCHEDULE_MESSAGES.daysBefore),
		reminderFirstHours: reminderLead(DEFAULT_REMINDER_FIRST_MINUTES, 60, 'First reminder'),
		reminderSecondMinutes: reminderLead(DEFAULT_REMINDER_SECOND_MINUTES, 1, 'Second reminder'),
		announceWeekOpen: z.boolean().optional(),
		/** Every week's live session is joined here unless the week has its own link (docs/decisions/046). */
		meetingLink: MeetingLinkSchema,
		attendancePresentPercent: wholeNumber(
			DEFAULT_PRESENT_PERCENT,
			SCHEDULE_MESSAGES.presentPercent,
			1,
			100,
			SCHEDULE_MESSAGES.presentPercent,
		),
		// The school's own words (docs/decisions/043); empty keeps the program's.
		outcomes: ownWords({ label: "What You'll Learn", max: OUTCOMES_MAX_LENGTH, lineBreaks: true }).refine(
			(outcomes) => !outcomes || outcomes.split('\n').filter((line) => line.trim()).length <= MAX_OUTCOMES,
			`Give at most ${MAX_OUTCOMES} outcomes, one per line`,
		),
		durationText: ownWords({ label: 'Duration', max: 60, lineBreaks: false }),
		refundTerms: ownWords({ label: 'Refund terms', max: 2000, lineBreaks: true }),
	})
	.refine((value) => !value.scheduleWeekday || value.scheduleStartTime, {
		message: SCHEDULE_MESSAGES.startTime,
		path: ['scheduleStartTime'],
	})
	.refine((value) => !value.scheduleWeekday || value.startDate, { message: SCHEDULE_MESSAGES.needsStartDate, path: ['startDate'] })
	// Compared only when both are dates: an invalid start date has its own message and no other.
	.refine((value) => !isDate(value.startDate) || !isDate(value.endDate) || value.endDate >= value.startDate, {
		message: 'End date must be on or after the start date',
		path: ['endDate'],
	})

export type CourseFormValues = z.output<typeof CourseFormSchema>

export function toCourseInput(value: CourseFormValues) {
	return {
		title: value.title,
		description: value.description,
		startDate: value.startDate ?? null,
		endDate: value.endDate ?? null,
		capacity: value.capacity,
		registrationFee: value.registrationFee,
		timeZone: value.timeZone,
		schedule:
			value.scheduleWeekday && value.scheduleStartTime
				? { weekday: value.scheduleWeekday, startTime: value.scheduleStartTime, minutes: value.scheduleMinutes }
				: null,
		weeksOpenDaysBefore: value.weeksOpenDaysBefore,
		reminderFirstMinutes: value.reminderFirstHours,
		reminderSecondMinutes: value.reminderSecondMinutes,
		announceWeekOpen: value.announceWeekOpen ?? false,
		meetingLink: value.meetingLink,
		attendancePresentPercent: value.attendancePresentPercent,
		outcomes: value.outcomes,
		durationText: value.durationText,
		refundTerms: value.refundTerms,
	}
}

export type CourseFormDefaults = {
	title?: string
	description?: string
	startDate?: string
	endDate?: string
	registrationFee: string
	capacity: string
	timeZone?: string
	scheduleWeekday?: string
	scheduleStartTime?: string
	scheduleMinutes?: string
	weeksOpenDaysBefore?: string
	reminderFirstHours?: string
	reminderSecondMinutes?: string
	announceWeekOpen?: boolean
	meetingLink?: string
	attendancePresentPercent?: string
	outcomes?: string
	durationText?: string
	refundTerms?: string
}

/** The form's values for a course without a schedule yet: the defaults of the columns. */
export const SCHEDULE_DEFAULTS = {
	timeZone: DEFAULT_TIME_ZONE,
	// Named, not left out: the form's reset after Add Course selects a select's default, and with none shows it blank.
	scheduleWeekday: '',
	scheduleMinutes: '60',
	weeksOpenDaysBefore: String(DEFAULT_WEEKS_OPEN_DAYS_BEFORE),
	reminderFirstHours: String(DEFAULT_REMINDER_FIRST_MINUTES / 60),
	reminderSecondMinutes: String(DEFAULT_REMINDER_SECOND_MINUTES),
	attendancePresentPercent: String(DEFAULT_PRESENT_PERCENT),
} satisfies Partial<CourseFormDefaults>

/** What You'll Learn on a course page that has no list of its own: the program's six topics. */
export const PROGRAM_OUTCOMES = [
	'Business formation: set up the right structure for your investments',
	'Raising capital: fund deals with private money and lenders',
	'Building your team: agents, contractors, lenders and property managers',
	'Deal analysis and ARV: run the numbers and estimate after-repair value',
	'Making the right offer: negotiate with confidence',
	'Finding potential tenants: screen and place reliable renters',
]

/** The course's outcomes, one per line as the admin typed them, else the program's. */
export function courseOutcomes(outcomes: string | null) {
	const own = (outcomes ?? '')
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean)
	return own.length > 0 ? own : PROGRAM_OUTCOMES
}

/** The program's length as its course page reads it in the specification (docs/decisions 12). */
export const PROGRAM_DURATION = '3 months'

/** The course's own words; else a scheduled course's weeks; else the program's reading. */
export function courseDuration({ durationText, scheduledWeeks }: { durationText: string | null; scheduledWeeks: number | null }) {
	if (durationText) return durationText
	if (scheduledWeeks) return scheduledWeeks === 1 ? '1 week' : `${scheduledWeeks} weeks`
	return PROGRAM_DURATION
}
