import { getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { TimeZoneOptions } from '#app/components/select-options.tsx'
import { CheckboxField, Field, SelectField, TextareaField } from '#app/components/ui/field.tsx'
import { type CourseFormDefaults, CourseFormSchema, MAX_CAPACITY } from '#app/models/courses/courses.ts'
import { MAX_REMINDER_MINUTES, MAX_SESSION_MINUTES, WEEKDAYS } from '#app/models/sessions/live-sessions.ts'

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
			<OwnWordsFields fields={fields} />
		</div>
	)
}

/** What the course page and the agreement say of this course, when not the program's (docs/decisions/043). */
function OwnWordsFields({ fields }: { fields: ReturnType<typeof useCourseForm>[1] }) {
	return (
		<fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
			<legend className="px-1 text-sm font-semibold text-ink">Course page and agreement</legend>
			<TextareaField
				label="What You'll Learn"
				errors={fields.outcomes.errors}
				help="One outcome per line, shown on the course page. Leave empty for the program's six topics."
				textareaProps={{ ...getTextareaProps(fields.outcomes), maxLength: 4000, rows: 4 }}
			/>
			<Field
				label="Duration"
				errors={fields.durationText.errors}
				help="As the course page says it, e.g. 8 weeks. Leave empty to count the weekly sessions (or say 3 months without a schedule)."
				inputProps={{ ...getInputProps(fields.durationText, { type: 'text' }), maxLength: 60 }}
			/>
			<TextareaField
				label="Refund terms"
				errors={fields.refundTerms.errors}
				help="The agreement's refund clause for this course. Leave empty for the school's default terms."
				textareaProps={{ ...getTextareaProps(fields.refundTerms), maxLength: 2000, rows: 3 }}
			/>
		</fieldset>
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
					<TimeZoneOptions zones={timeZones} />
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
			<Field
				label="Meeting Link"
				errors={fields.meetingLink.errors}
				help="Where students join every live session, e.g. a Zoom link. A week with a Zoom link of its own uses that one."
				inputProps={{ ...getInputProps(fields.meetingLink, { type: 'url' }), maxLength: 2000, placeholder: 'https://zoom.us/j/...' }}
			/>
			<CheckboxField
				label="Email students when a week opens"
				errors={fields.announceWeekOpen.errors}
				inputProps={getInputProps(fields.announceWeekOpen, { type: 'checkbox' })}
			/>
			<Field
				label="Present From (% of the session)"
				errors={fields.attendancePresentPercent.errors}
				help="A meeting report with less than this share of the session marks a student late."
				inputProps={{ ...getInputProps(fields.attendancePresentPercent, { type: 'number' }), min: 1, max: 100, step: 1 }}
			/>
		</fieldset>
	)
}
