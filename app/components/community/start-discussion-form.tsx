import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { CheckboxField, Field, TextareaField } from '#app/components/ui/field.tsx'
import { MAX_POST_LENGTH, MAX_TITLE_LENGTH, StartDiscussionSchema } from '#app/models/community/discussions.ts'

/** The spec's Start Discussion form (title, content, notify-replies), a plain post that works without JavaScript. */
export function StartDiscussionForm({
	action,
	submissionKey,
	lastResult,
	saving,
}: {
	action: string
	submissionKey: string
	lastResult: SubmissionResult<string[]> | undefined
	saving: boolean
}) {
	const [form, fields] = useForm({
		id: 'start-discussion',
		lastResult,
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: StartDiscussionSchema }),
	})
	return (
		<Card>
			<CardHeader>
				<CardTitle>Start Discussion</CardTitle>
				<CardDescription>Ask your classmates and instructors, or share what you found. Web addresses become links.</CardDescription>
			</CardHeader>
			<CardContent>
				<Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
					<input type="hidden" name="intent" value="start" />
					<input type="hidden" name="submissionKey" value={submissionKey} />
					<FormErrors id={form.errorId} errors={form.errors} />
					<Field
						label="Title"
						errors={fields.title.errors}
						inputProps={{ ...getInputProps(fields.title, { type: 'text' }), maxLength: MAX_TITLE_LENGTH }}
					/>
					<TextareaField
						label="Content"
						errors={fields.content.errors}
						textareaProps={{ ...getTextareaProps(fields.content), rows: 5, maxLength: MAX_POST_LENGTH }}
					/>
					<CheckboxField
						label="E-mail me when someone replies"
						inputProps={{ ...getInputProps(fields.notifyReplies, { type: 'checkbox' }) }}
					/>
					<Button type="submit" disabled={saving}>
						{saving ? 'Posting...' : 'Post Discussion'}
					</Button>
				</Form>
			</CardContent>
		</Card>
	)
}
