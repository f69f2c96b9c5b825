import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { CourseOptions } from '#app/components/select-options.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Field, SelectField } from '#app/components/ui/field.tsx'
import { createPromotionCodeSchema } from '#app/models/payments/promotion-codes.ts'

/** The admin's New Promotion Code form: a plain post, so it works without JavaScript. */
export function PromotionCodeForm({
	action,
	courses,
	lastResult,
	saving,
}: {
	action: string
	courses: Array<{ id: number; title: string }>
	lastResult: SubmissionResult<string[]> | undefined
	saving: boolean
}) {
	const [form, fields] = useForm({
		id: 'new-promotion-code',
		lastResult,
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		defaultValue: { kind: 'percent' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: createPromotionCodeSchema(new Date()) }),
	})
	return (
		<Card>
			<CardHeader>
				<CardTitle>New Promotion Code</CardTitle>
				<CardDescription>
					Students type the code on the payment step of registration. Leave the optional fields empty for no limit.
				</CardDescription>
			</CardHeader>
			<CardContent>
				<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
					<input type="hidden" name="intent" value="create" />
					{form.errors?.length ? (
						<Alert tone="error" id={form.errorId} className="sm:col-span-2">
							{form.errors[0]}
						</Alert>
					) : null}
					<Field
						label="Code"
						help="3 to 32 letters, digits, hyphens or underscores; not case-sensitive."
						errors={fields.code.errors}
						inputProps={{ ...getInputProps(fields.code, { type: 'text' }), autoComplete: 'off', spellCheck: false }}
					/>
					<SelectField label="Discount type" errors={fields.kind.errors} selectProps={getSelectProps(fields.kind)}>
						<option value="percent">Percent off</option>
						<option value="amount">Amount off (USD)</option>
					</SelectField>
					<Field
						label="Discount"
						help="A whole percentage (1 to 100) or an amount in dollars, by the type above."
						errors={fields.value.errors}
						inputProps={{ ...getInputProps(fields.value, { type: 'text' }), inputMode: 'decimal' }}
					/>
					<SelectField label="Course (optional)" errors={fields.courseId.errors} selectProps={getSelectProps(fields.courseId)}>
						<option value="">Any course</option>
						<CourseOptions courses={courses} />
					</SelectField>
					<Field
						label="Valid through (optional)"
						help="The code works until the end of this day (UTC)."
						errors={fields.validThrough.errors}
						inputProps={getInputProps(fields.validThrough, { type: 'date' })}
					/>
					<Field
						label="Maximum uses (optional)"
						help="A checkout in progress holds a use until it is paid or given up."
						errors={fields.maxUses.errors}
						inputProps={{ ...getInputProps(fields.maxUses, { type: 'number' }), min: 1, step: 1 }}
					/>
					<div className="sm:col-span-2">
						<Button type="submit" disabled={saving}>
							{saving ? 'Creating...' : 'Create Code'}
						</Button>
					</div>
				</Form>
			</CardContent>
		</Card>
	)
}
