import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, href, Link, useNavigation } from 'react-router'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Field, SelectField, TextareaField } from '#app/components/ui/field.tsx'
import type { CourseAssignment } from '#app/models/materials/assignments.ts'
import { CreateAssignmentSchema } from '#app/models/materials/assignments.ts'
import { formatDueDate } from '#app/utils/misc.ts'

/**
 * A course's assignments and the form that creates one (title, instructions, optional week and
 * due date), on the course's materials screen. Submissions are graded on the grades page.
 */
export function AssignmentsCard({
	assignments,
	weeks,
	action,
	lastResult,
}: {
	assignments: CourseAssignment[]
	weeks: Array<{ id: number; weekNumber: number; topic: string }>
	action: string
	lastResult: SubmissionResult<string[]> | undefined
}) {
	const navigation = useNavigation()
	const creating = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create-assignment'
	const [form, fields] = useForm({
		id: 'create-assignment',
		lastResult,
		constraint: getZodConstraint(CreateAssignmentSchema),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateAssignmentSchema }),
	})
	return (
		<Card>
			<CardHeader>
				<CardTitle>Assignments</CardTitle>
				<CardDescription>
					Students of this course see these on their dashboard and hand in text or a file.{' '}
					<Link to={href('/dashboard/admin/grades')} className="font-medium text-brand-700 underline-offset-4 hover:underline">
						Grade submissions
					</Link>
				</CardDescription>
			</CardHeader>
			<CardContent className="space-y-6">
				{assignments.length === 0 ? (
					<p className="text-sm text-slate-600">No assignments yet.</p>
				) : (
					<ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
						{assignments.map((assignment) => (
							<li key={assignment.id} className="flex flex-col gap-1 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
								<span>
									<Link
										to={href('/dashboard/assignments/:assignmentId', { assignmentId: String(assignment.id) })}
										className="font-medium text-ink underline-offset-4 hover:underline"
									>
										{assignment.title}
									</Link>
									<span className="text-slate-600">
										{assignment.weekNumber !== null ? ` · Week ${assignment.weekNumber}` : ''} · Due {formatDueDate(assignment.dueAt)}
									</span>
								</span>
								<span className="text-slate-700">
									{assignment.submissions} submitted, {assignment.pending} to grade
								</span>
							</li>
						))}
					</ul>
				)}
				<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="space-y-4">
					<h3 className="text-base font-semibold text-ink">New Assignment</h3>
					<input type="hidden" name="intent" value="create-assignment" />
					<FormErrors id={form.errorId} errors={form.errors} />
					<Field label="Assignment Title" errors={fields.title.errors} inputProps={getInputProps(fields.title, { type: 'text' })} />
					<TextareaField label="Instructions" errors={fields.instructions.errors} textareaProps={getTextareaProps(fields.instructions)} />
					<div className="grid gap-4 sm:grid-cols-2">
						<SelectField label="Week (optional)" errors={fields.weekId.errors} selectProps={getSelectProps(fields.weekId)}>
							<option value="">No week</option>
							{weeks.map((week) => (
								<option key={week.id} value={week.id}>
									Week {week.weekNumber}: {week.topic}
								</option>
							))}
						</SelectField>
						<Field
							label="Due Date (optional)"
							errors={fields.dueDate.errors}
							inputProps={getInputProps(fields.dueDate, { type: 'date' })}
						/>
					</div>
					<Button type="submit" disabled={creating}>
						{creating ? 'Creating...' : 'Create Assignment'}
					</Button>
				</Form>
			</CardContent>
		</Card>
	)
}
