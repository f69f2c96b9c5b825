import { getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { CheckboxField, Field, SelectField, TextareaField } from '#app/components/ui/field.tsx'
import {
	DEFAULT_REMINDER_FIRST_MINUTES,
	DEFAULT_REMINDER_SECOND_MINUTES,
	DEFAULT_TIME_ZONE,
	DEFAULT_WEEKS_OPEN_DAYS_BEFORE,
	isTimeZone,
	MAX_REMINDER_MINUTES,
	MAX_SESSION_MINUTES,
	MIN_REMINDER_MINUTES,
	WEEKDAYS,
} from '#app/models/live-sessions.ts'
import { hasControlCharacters, INVALID_DATE_MESSAGE } from '#app/utils/misc.ts'

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields'
export const DEFAULT_CAPACITY = 20
const MAX_CAPACITY = 10_000
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

/** Dollars typed as text to integer cents by rounding; not a number counts as 0. */
export function dollarsToCents(value: unknown) {
	const parsed = Number.parseFloat(String(value ?? '').replace(/[$,\s]/g, ''))
	if (Number.isNaN(parsed)) return 0
	// A decimal shift rather than `* 100`, so 1.005 rounds up to 101 cents as a person expects.
	const shifted = Number(`${parsed}e2`)
	return Math.round(Number.isFinite(shifted) ? shifted : parsed * 100)
}

export function centsToDollars(cents: number) {
	return (cents / 100).toFixed(2)
}

const DateSchema = z.iso
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

export const SCHEDULE_MESSAGES = {
	timeZone: 'Choose a time zone from the list',
	startTime: 'Enter the start time of the weekly session, e.g. 19:00',
	minutes: `Length must be a whole number of minutes from 5 to ${MAX_SESSION_MINUTES}`,
	needsStartDate: 'A weekly schedule needs the course start date',
	daysBefore: 'Enter a whole number of days from 0 to 365',
} as const

/** Add and Edit Course share one form (admin.md section 5). */
export const CourseFormSchema = z
	.object({
		title: z
			.string({ error: REQUIRED_FIELDS_MESSAGE })
			.trim()
			.min(1, REQUIRED_FIELDS_MESSAGE)
			.max(200, 'Title must be at most 200 characters')
			.refine((title) => !hasControlCharacters(title), 'Title must not contain control characters'),
		description: z
			.string({ error: REQUIRED_FIELDS_MESSAGE })
			.trim()
			.min(1, REQUIRED_FIELDS_MESSAGE)
			.max(5000, 'Description must be at most 5,000 characters')
			.refine((description) => !hasControlCharacters(description, { lineBreaks: true }), 'Description must not contain control characters'),
		startDate: DateSchema,
		endDate: DateSchema,
		registrationFee: z.preprocess(
			dollarsToCents,
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
}

/** The form's values for a course without a schedule yet: the defaults of the columns. */
export const SCHEDULE_DEFAULTS = {
	timeZone: DEFAULT_TIME_ZONE,
	scheduleMinutes: '60',
	weeksOpenDaysBefore: String(DEFAULT_WEEKS_OPEN_DAYS_BEFORE),
	reminderFirstHours: String(DEFAULT_REMINDER_FIRST_MINUTES / 60),
	reminderSecondMinutes: String(DEFAULT_REMINDER_SECOND_MINUTES),
} satisfies Partial<CourseFormDefaults>

export function useCourseForm({
	id,
	lastResult,
	defaultValue,
}: {
	id: string
	lastResult: SubmissionResult<string[]> | undefined
	defaultValue: CourseFormDefaults
}) {
	return useForm({
		id,
		lastResult,
		defaultValue,
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CourseFormSchema }),
	})
}

/** Title, description, dates, fee and capacity, with the spec's messages under each; then the schedule. */
export function CourseFields({ fields, timeZones }: { fields: ReturnType<typeof useCourseForm>[1]; timeZones: readonly string[] }) {
	return (
		<div className="space-y-4">
			<Field
				label="Title *"
				errors={fields.title.errors}
				inputProps={{ ...getInputProps(fields.title, { type: 'text' }), required: true, maxLength: 200 }}
			/>
			<TextareaField
				label="Description *"
				errors={fields.description.errors}
				textareaProps={{ ...getTextareaProps(fields.description), required: true, maxLength: 5000, rows: 3 }}
			/>
			<div className="grid gap-4 sm:grid-cols-2">
				<Field label="Start Date" errors={fields.startDate.errors} inputProps={getInputProps(fields.startDate, { type: 'date' })} />
				<Field label="End Date" errors={fields.endDate.errors} inputProps={getInputProps(fields.endDate, { type: 'date' })} />
				<Field
					label="Registration Fee ($)"
					errors={fields.registrationFee.errors}
					help="In US dollars, e.g. 2500 or 99.99. 0 makes the course free."
					inputProps={{ ...getInputProps(fields.registrationFee, { type: 'text' }), inputMode: 'decimal', maxLength: 20 }}
				/>
				<Field
					label="Capacity"
					errors={fields.capacity.errors}
					help="Maximum number of students."
					inputProps={{ ...getInputProps(fields.capacity, { type: 'number' }), min: 1, max: MAX_CAPACITY, step: 1 }}
				/>
			</div>
			<ScheduleFields fields={fields} timeZones={timeZones} />
		</div>
	)
}

/**
 * The weekly live session (weekday, start, length in the course's time zone, from the start date),
 * when weeks open, and the reminders. Each week's session can then be moved or cancelled on its own
 * from the course's materials page.
 */
function ScheduleFields({ fields, timeZones }: { fields: ReturnType<typeof useCourseForm>[1]; timeZones: readonly string[] }) {
	return (
		<fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
			<legend className="px-1 text-sm font-semibold text-ink">Live sessions</legend>
			<div className="grid gap-4 sm:grid-cols-2">
				<SelectField
					label="Time Zone"
					errors={fields.timeZone.errors}
					help="Session times are set in this zone; students see them in their own."
					selectProps={getSelectProps(fields.timeZone)}
				>
					{timeZones.map((zone) => (
						<option key={zone} value={zone}>
							{zone.replaceAll('_', ' ')}
						</option>
					))}
				</SelectField>
				<SelectField
					label="Weekly Session Day"
					errors={fields.scheduleWeekday.errors}
					help="Week 1 meets on this day on or after the start date."
					selectProps={getSelectProps(fields.scheduleWeekday)}
				>
					<option value="">No weekly schedule</option>
					{WEEKDAYS.map((weekday) => (
						<option key={weekday.value} value={weekday.value}>
							{weekday.name}
						</option>
					))}
				</SelectField>
				<Field
					label="Session Start Time"
					errors={fields.scheduleStartTime.errors}
					help="Wall-clock time in the course's zone, kept across daylight-saving changes."
					inputProps={getInputProps(fields.scheduleStartTime, { type: 'time' })}
				/>
				<Field
					label="Session Length (minutes)"
					errors={fields.scheduleMinutes.errors}
					inputProps={{ ...getInputProps(fields.scheduleMinutes, { type: 'number' }), min: 5, max: MAX_SESSION_MINUTES, step: 5 }}
				/>
				<Field
					label="Weeks Open (days before the session)"
					errors={fields.weeksOpenDaysBefore.errors}
					help="A week's files open this many days before its session, unless you open it yourself."
					inputProps={{ ...getInputProps(fields.weeksOpenDaysBefore, { type: 'number' }), min: 0, max: 365, step: 1 }}
				/>
				<Field
					label="First Reminder (hours before)"
					errors={fields.reminderFirstHours.errors}
					help="0 sends none."
					inputProps={{ ...getInputProps(fields.reminderFirstHours, { type: 'number' }), min: 0, max: 336, step: 'any' }}
				/>
				<Field
					label="Second Reminder (minutes before)"
					errors={fields.reminderSecondMinutes.errors}
					help="0 sends none."
					inputProps={{ ...getInputProps(fields.reminderSecondMinutes, { type: 'number' }), min: 0, max: MAX_REMINDER_MINUTES, step: 1 }}
				/>
			</div>
			<CheckboxField
				label="Email students when a week opens"
				errors={fields.announceWeekOpen.errors}
				inputProps={getInputProps(fields.announceWeekOpen, { type: 'checkbox' })}
			/>
		</fieldset>
	)
}
