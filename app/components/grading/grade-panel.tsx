import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from 'react-router'
import { SubmissionFile } from '#app/components/grading/submission-file.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { DialogFormButtons } from '#app/components/ui/dialog-buttons.tsx'
import { Field, TextareaField } from '#app/components/ui/field.tsx'
import type { SubmissionDetail } from '#app/models/materials/assignments.ts'
import { GradeSchema } from '#app/models/materials/assignments.ts'

/** Who handed in what, and the answer itself (text and file). */
function SubmissionSummary({ submission }: { submission: SubmissionDetail }) {
	return (
		<div className="space-y-3 text-sm">
			<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
				<dt className="font-medium text-slate-600">Student</dt>
				<dd className="text-ink">
					{submission.studentName || 'Unknown User'} <span className="break-all text-slate-600">({submission.studentEmail})</span>
				</dd>
				<dt className="font-medium text-slate-600">Course</dt>
				<dd className="text-ink">{submission.courseTitle}</dd>
				<dt className="font-medium text-slate-600">Assignment</dt>
				<dd className="text-ink">{submission.assignmentTitle}</dd>
				<dt className="font-medium text-slate-600">Submitted</dt>
				<dd className="text-ink">
					<LocalDate value={submission.submittedAt} />
				</dd>
			</dl>
			{submission.body ? (
				<div>
					<p className="font-medium text-slate-600">Answer</p>
					<p className="mt-1 rounded-md bg-slate-50 p-3 whitespace-pre-wrap text-ink">{submission.body}</p>
				</div>
			) : null}
			{submission.fileName ? <SubmissionFile submissionId={submission.id} name={submission.fileName} size={submission.fileSize} /> : null}
		</div>
	)
}

/** 'View': the submission, with its grade and feedback once graded. */
export function SubmissionDialog({ submission, closeTo, gradeTo }: { submission: SubmissionDetail; closeTo: string; gradeTo: string }) {
	return (
		<RouteDialog title={submission.assignmentTitle} description="Student submission" closeTo={closeTo} size="lg">
			<div className="space-y-4">
				<SubmissionSummary submission={submission} />
				{submission.status === 'graded' ? (
					<div className="space-y-1 rounded-md border border-green-200 bg-green-50 p-3 text-sm">
						<p>
							<span className="font-medium text-green-900">Grade: </span>
							<Badge tone="green">{submission.grade}</Badge>
						</p>
						{submission.feedback ? <p className="whitespace-pre-wrap text-green-900">{submission.feedback}</p> : null}
					</div>
				) : null}
				<ActionList className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
					<ButtonLink to={closeTo} preventScrollReset variant="outline">
						Close
					</ButtonLink>
					<ButtonLink to={gradeTo} preventScrollReset>
						{submission.status === 'graded' ? 'Feedback' : 'Grade'}
					</ButtonLink>
				</ActionList>
			</div>
		</RouteDialog>
	)
}

/** The Grade Assignment panel: grade (free text) and optional feedback; reopening a graded item edits both. */
export function GradePanel({
	submission,
	closeTo,
	action,
	lastResult,
}: {
	submission: SubmissionDetail
	closeTo: string
	action: string
	lastResult: SubmissionResult<string[]> | undefined
}) {
	const navigation = useNavigation()
	const submitting = navigation.state === 'submitting' && navigation.formData?.get('submissionId') === String(submission.id)
	const [form, fields] = useForm({
		id: `grade-${submission.id}`,
		lastResult,
		defaultValue: { submissionId: String(submission.id), grade: submission.grade ?? '', feedback: submission.feedback ?? '' },
		constraint: getZodConstraint(GradeSchema),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: GradeSchema }),
	})
	return (
		<RouteDialog title="Grade Assignment" closeTo={closeTo} size="lg">
			<div className="space-y-5">
				<SubmissionSummary submission={submission} />
				<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="space-y-4">
					<FormErrors id={form.errorId} errors={form.errors} />
					<input type="hidden" name={fields.submissionId.name} value={String(submission.id)} />
					<Field
						label="Grade"
						errors={fields.grade.errors}
						inputProps={{ ...getInputProps(fields.grade, { type: 'text' }), placeholder: 'Enter grade (A, B, C, etc.)' }}
					/>
					<TextareaField label="Feedback" errors={fields.feedback.errors} textareaProps={getTextareaProps(fields.feedback)} />
					<DialogFormButtons cancelTo={closeTo} busy={submitting} busyLabel="Submitting..." label="Submit Grade" />
				</Form>
			</div>
		</RouteDialog>
	)
}
