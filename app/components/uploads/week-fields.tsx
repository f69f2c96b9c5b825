import { type FieldMetadata, getInputProps, getSelectProps } from '@conform-to/react'
import type { ReactNode } from 'react'
import { Field, SelectField } from '#app/components/ui/field.tsx'

/** A week's number and topic side by side, as the upload form and the week's edit form both ask them. */
export function WeekNumberAndTopic<Form extends Record<string, unknown>>({
	weekNumber,
	topic,
}: {
	weekNumber: FieldMetadata<number | string | undefined, Form>
	topic: FieldMetadata<string | undefined, Form>
}) {
	return (
		<div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
			<Field
				label="Week Number"
				errors={weekNumber.errors}
				inputProps={{ ...getInputProps(weekNumber, { type: 'number' }), step: 1, inputMode: 'numeric' }}
			/>
			<Field label="Topic" errors={topic.errors} inputProps={getInputProps(topic, { type: 'text' })} />
		</div>
	)
}

/** The categories a material item may have. */
export function MaterialCategoryOptions() {
	return (
		<>
			<option value="material">Class material</option>
			<option value="recording">Recording</option>
		</>
	)
}

/** A material item's title and category side by side; `about` names the item for a screen reader. */
export function MaterialTitleAndCategory<Form extends Record<string, unknown>>({
	title,
	category,
	about,
}: {
	title: FieldMetadata<string | undefined, Form>
	category: FieldMetadata<string | undefined, Form>
	about: ReactNode
}) {
	return (
		<div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
			<Field label={<>Title{about}</>} errors={title.errors} inputProps={getInputProps(title, { type: 'text' })} />
			<SelectField label={<>Category{about}</>} errors={category.errors} selectProps={getSelectProps(category)}>
				<MaterialCategoryOptions />
			</SelectField>
		</div>
	)
}
