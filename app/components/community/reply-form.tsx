import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { TextareaField } from '#app/components/ui/field.tsx'
import { MAX_POST_LENGTH } from '#app/models/community/discussions.ts'

/** A reply, or the edit of one's own post: a plain post of one text, checked by the server, that works without JavaScript. */
export function ReplyForm({
	id,
	title,
	action,
	intent,
	fields: hidden,
	defaultContent,
	lastResult,
	submitLabel,
}: {
	id: string
	title: string
	action: string
	intent: 'reply' | 'edit'
	fields: Record<string, string>
	defaultContent?: string
	lastResult: SubmissionResult<string[]> | undefined
	submitLabel: string
}) {
	const [form, fields] = useForm({
		id: `${id}-form`,
		// Only this form's own answer: a failed edit is not shown on the reply form.
		lastResult: lastResult?.initialValue?.intent === intent ? lastResult : undefined,
		defaultValue: { content: defaultContent ?? '' },
	})
	const navigation = useNavigation()
	const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
	return (
		<Card id={id}>
			<CardHeader>
				<CardTitle>{title}</CardTitle>
			</CardHeader>
			<CardContent>
				<Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
					<input type="hidden" name="intent" value={intent} />
					{Object.entries(hidden).map(([name, value]) => (
						<input key={name} type="hidden" name={name} value={value} />
					))}
					<FormErrors id={form.errorId} errors={form.errors} />
					<TextareaField
						label={intent === 'reply' ? 'Your reply' : 'Your post'}
						errors={fields.content.errors}
						textareaProps={{ ...getTextareaProps(fields.content), rows: 5, maxLength: MAX_POST_LENGTH }}
					/>
					<Button type="submit" disabled={saving}>
						{saving ? 'Saving...' : submitLabel}
					</Button>
				</Form>
			</CardContent>
		</Card>
	)
}
