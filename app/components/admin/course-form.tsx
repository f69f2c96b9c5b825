import { getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { Field, TextareaField } from '#app/components/ui/field.tsx'
import { INVALID_DATE_MESSAGE } from '#app/utils/misc.ts'

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

/** Add and Edit Course share one form (admin.md section 5). */
export const CourseFormSchema = z
	.object({
		title: z
			.string({ error: REQUIRED_FIELDS_MESSAGE })
			.trim()
			.min(1, REQUIRED_FIELDS_MESSAGE)
			.max(200, 'Title must be at most 200 characters'),
		description: z
			.string({ error: REQUIRED_FIELDS_MESSAGE })
			.trim()
			.min(1, REQUIRED_FIELDS_MESSAGE)
			.max(5000, 'Description must be at most 5,000 characters'),
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
	})
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
	}
}

export type CourseFormDefaults = {
	title?: string
	description?: string
	startDate?: string
	endDate?: string
	registrationFee: string
	capacity: string
}

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

/** Title, description, dates, fee and capacity, with the spec's messages under each. */
export function CourseFields({ fields }: { fields: ReturnType<typeof useCourseForm>[1] }) {
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
		</div>
	)
}
