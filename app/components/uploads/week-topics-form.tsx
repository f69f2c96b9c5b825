import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from 'react-router'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { DialogFormButtons } from '#app/components/ui/dialog-buttons.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { type WeekTopicLine, WeekTopicsSchema, type WeekTopicsValues } from '#app/models/materials/week-topics.ts'

type WeekTopicsShape = { weeks: Array<{ weekNumber: string; topic: string }> }

/**
 * Every week of a course with one topic field, saved in one post (docs/decisions/046). A plain
 * form: without JavaScript the server checks it and answers with the messages beside their rows
 * and what was typed; with it, the same rules run first in the browser.
 */
export function WeekTopicsForm({
	lines,
	action,
	closeTo,
	lastResult,
}: {
	lines: WeekTopicLine[]
	action: string
	closeTo: string
	lastResult: SubmissionResult<string[]> | undefined
}) {
	const navigation = useNavigation()
	const saving = navigation.state === 'submitting' && navigation.formAction === action
	const [form, fields] = useForm<WeekTopicsShape, WeekTopicsValues>({
		id: 'week-topics',
		lastResult,
		defaultValue: { weeks: lines.map((line) => ({ weekNumber: String(line.weekNumber), topic: line.topic })) },
		constraint: getZodConstraint(WeekTopicsSchema),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: WeekTopicsSchema }),
	})
	const rows = fields.weeks.getFieldList()
	return (
		<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="space-y-5">
			<FormErrors id={form.errorId} errors={form.errors} />
			<ol className="space-y-3">
				{rows.map((row, index) => {
					const week = row.getFieldset()
					const line = lines[index]
					const number = week.weekNumber.value ?? String(line?.weekNumber ?? index + 1)
					return (
						<li key={row.key}>
							<input type="hidden" name={week.weekNumber.name} value={number} />
							<Field
								label={`Week ${number}`}
								errors={week.topic.errors}
								help={line && !line.saved ? 'Not saved yet: a topic makes the week.' : undefined}
								inputProps={{ ...getInputProps(week.topic, { type: 'text' }), maxLength: 300, placeholder: 'Topic' }}
							/>
						</li>
					)
				})}
			</ol>
			<DialogFormButtons cancelTo={closeTo} busy={saving} busyLabel="Saving..." label="Save Week Topics" />
		</Form>
	)
}
