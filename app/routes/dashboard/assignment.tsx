import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link, useNavigation } from 'react-router'
import { SubmissionFile } from '#app/components/grading/submission-file.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Alert, FormErrors } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Field, TextareaField } from '#app/components/ui/field.tsx'
import { getAssignmentForStudent } from '#app/models/materials/assignments.server.ts'
import { GRADING_MESSAGES, type StudentSubmission, SubmitAssignmentSchema } from '#app/models/materials/assignments.ts'
import { WEEK_NOT_OPEN_MESSAGE } from '#app/models/materials/materials.ts'
import { ALLOWED_FILES_TEXT } from '#app/models/materials/uploads.ts'
import { pageUrl, requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { formatDueDate } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { receiveSubmission } from './+shared/assignment.server.ts'
import type { Route } from './+types/assignment'

/** An alumnus reads the assignment and their answer; hand-ins closed with the course (decision 035). */
const COMPLETED_COURSE_TEXT = 'You have completed this course: hand-ins are closed.'

async function loadAssignment(request: Request, params: { assignmentId?: string }) {
	const user = await requireUser(request)
	const assignmentId = parseRowId(params.assignmentId)
	const found = assignmentId ? await getAssignmentForStudent(getDb(), user, assignmentId) : 'not-found'
	if (found === 'not-found') throw data('Assignment not found', { status: 404 })
	if (found === 'forbidden') throw data('You need an active enrollment in this course to see its assignments.', { status: 403 })
	// Refused like the week's files, so neither the page nor a hand-in reaches it early (docs/decisions/031).
	if (found === 'not-open') throw data(WEEK_NOT_OPEN_MESSAGE, { status: 403 })
	return { user, found }
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const { found } = await loadAssignment(request, params)
	return { ...found, maxUploadMb: getEnv().MAX_UPLOAD_MB }
}

export async function action({ request, params }: Route.ActionArgs) {
	const { user, found } = await loadAssignment(request, params)
	if (!found.canSubmit) {
		const reason =
			found.submission?.status === 'graded'
				? 'This assignment has already been graded.'
				: found.courseCompleted
					? COMPLETED_COURSE_TEXT
					: 'Only enrolled students can hand in work.'
		throw data(reason, { status: 403 })
	}
	const outcome = await receiveSubmission(request, {
		studentId: user.id,
		assignmentId: found.assignment.id,
		maxUploadMb: getEnv().MAX_UPLOAD_MB,
	})
	if (!outcome.ok) return data({ result: outcome.result }, { status: outcome.status })
	return redirectWithToast(pageUrl(request).pathname, { type: 'success', title: GRADING_MESSAGES.submitted })
}

export default function AssignmentPage({ loaderData, actionData }: Route.ComponentProps) {
	const { assignment, submission, canSubmit, courseCompleted, maxUploadMb } = loaderData
	const navigation = useNavigation()
	const submitting = navigation.state === 'submitting'
	const [form, fields] = useForm({
		id: `assignment-${assignment.id}`,
		lastResult: actionData?.result,
		defaultValue: { body: submission?.body ?? '' },
		constraint: getZodConstraint(SubmitAssignmentSchema),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: SubmitAssignmentSchema }),
	})

	return (
		<>
			<div className="space-y-1">
				<Link to={href('/dashboard')} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
					Back to Dashboard
				</Link>
				<h1 className="text-2xl font-bold text-ink">{assignment.title}</h1>
				<p className="text-slate-700">
					{assignment.courseTitle}
					{assignment.weekNumber !== null ? ` · Week ${assignment.weekNumber}${assignment.topic ? `: ${assignment.topic}` : ''}` : ''} · Due{' '}
					{formatDueDate(assignment.dueAt)}
				</p>
			</div>
			<Card>
				<CardHeader>
					<CardTitle>Instructions</CardTitle>
				</CardHeader>
				<CardContent>
					<p className="whitespace-pre-wrap text-slate-800">{assignment.instructions || 'No instructions were given.'}</p>
				</CardContent>
			</Card>
			{submission ? <SubmissionCard submission={submission} /> : null}
			{canSubmit ? (
				<Card>
					<CardHeader>
						<CardTitle>{submission ? 'Update Your Submission' : 'Submit Your Work'}</CardTitle>
						<CardDescription>Write your answer, attach a file, or both. You can update it until it is graded.</CardDescription>
					</CardHeader>
					<CardContent>
						<Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
							<FormErrors id={form.errorId} errors={form.errors} />
							<TextareaField
								label="Your Answer"
								errors={fields.body.errors}
								textareaProps={{ ...getTextareaProps(fields.body), rows: 8 }}
							/>
							<Field
								label={submission?.fileName ? 'Replace File (optional)' : 'Attach a File (optional)'}
								errors={fields.file.errors}
								help={`${ALLOWED_FILES_TEXT}; up to ${maxUploadMb} MB.`}
								inputProps={{ ...getInputProps(fields.file, { type: 'file' }), className: 'py-1.5' }}
							/>
							<Button type="submit" disabled={submitting}>
								{submitting ? 'Submitting...' : submission ? 'Resubmit Assignment' : 'Submit Assignment'}
							</Button>
						</Form>
					</CardContent>
				</Card>
			) : submission?.status !== 'graded' ? (
				<Alert tone="info">{courseCompleted ? COMPLETED_COURSE_TEXT : 'Only students enrolled in this course can hand in work.'}</Alert>
			) : null}
		</>
	)
}

function SubmissionCard({ submission }: { submission: StudentSubmission }) {
	const graded = submission.status === 'graded'
	return (
		<Card>
			<CardHeader className="flex flex-wrap items-center justify-between gap-2 space-y-0">
				<CardTitle>Your Submission</CardTitle>
				<Badge tone={graded ? 'green' : 'yellow'}>{graded ? 'Graded' : 'Submitted'}</Badge>
			</CardHeader>
			<CardContent className="space-y-3 text-sm">
				<p className="text-slate-700">
					Submitted <LocalDate value={submission.submittedAt} />
				</p>
				{submission.body ? <p className="rounded-md bg-slate-50 p-3 whitespace-pre-wrap text-ink">{submission.body}</p> : null}
				{submission.fileName ? <SubmissionFile submissionId={submission.id} name={submission.fileName} size={submission.fileSize} /> : null}
				{graded ? (
					<section aria-labelledby="grade-heading" className="space-y-2 rounded-md border border-green-200 bg-green-50 p-4">
						<h3 id="grade-heading" className="font-semibold text-green-900">
							Grade: {submission.grade}
						</h3>
						<p className="font-medium text-green-900">Feedback</p>
						<p className="whitespace-pre-wrap text-green-900">{submission.feedback || 'No feedback was given.'}</p>
					</section>
				) : (
					<p className="text-slate-600">Not graded yet.</p>
				)}
			</CardContent>
		</Card>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageTitle(loaderData?.assignment.title ?? 'Assignment')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
