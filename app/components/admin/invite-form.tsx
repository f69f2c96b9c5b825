import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { FormErrors } from '#app/components/ui/alert.tsx'
import { DialogFormButtons } from '#app/components/ui/dialog-buttons.tsx'
import { ErrorList, Field } from '#app/components/ui/field.tsx'
import { INVITE_LINK_DAYS, InviteSchema } from '#app/models/accounts/invitations.ts'

const ROLE_CHOICES = [
	['student', 'Student'],
	['instructor', 'Instructor'],
] as const

/** The Invite User form: a plain post, so it works without JavaScript; every course is listed and a student's ticks are ignored. */
export function InviteForm({
	action,
	closeTo,
	courses,
	lastResult,
	saving,
}: {
	action: string
	closeTo: string
	courses: ReadonlyArray<{ id: number; title: string }>
	lastResult: SubmissionResult<string[]> | undefined
	saving: boolean
}) {
	const [form, fields] = useForm({
		id: 'invite-user',
		lastResult,
		constraint: getZodConstraint(InviteSchema),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		defaultValue: { role: 'student' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteSchema }),
	})
	const chosenCourses = new Set((fields.courseIds.initialValue as string[] | undefined) ?? [])
	return (
		<Form method="post" action={action} preventScrollReset {...getFormProps(form)} className="space-y-4">
			<FormErrors id={form.errorId} errors={form.errors} />
			<Field
				label="Name"
				errors={fields.name.errors}
				inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }}
			/>
			<Field
				label="Email"
				errors={fields.email.errors}
				inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off', spellCheck: false }}
			/>
			<fieldset className="space-y-2" aria-describedby={fields.role.errors?.length ? fields.role.errorId : undefined}>
				<legend className="text-sm font-medium text-slate-800">Role</legend>
				{ROLE_CHOICES.map(([value, label]) => (
					<label key={value} className="flex items-center gap-2 text-sm text-slate-800">
						<input
							type="radio"
							name={fields.role.name}
							value={value}
							defaultChecked={fields.role.initialValue === value}
							className="size-4 border-slate-400 text-brand-700 focus:ring-brand-600"
						/>
						{label}
					</label>
				))}
				<ErrorList id={fields.role.errorId} errors={fields.role.errors} />
			</fieldset>
			<fieldset className="space-y-2" aria-describedby="invite-courses-help">
				<legend className="text-sm font-medium text-slate-800">Courses they teach</legend>
				<p id="invite-courses-help" className="text-xs text-slate-600">
					For an instructor only; ignored for a student. Courses are added to what they already teach.
				</p>
				{courses.length === 0 ? <p className="text-sm text-slate-700">No courses yet.</p> : null}
				<div className="max-h-48 space-y-1 overflow-y-auto">
					{courses.map((course) => (
						<label key={course.id} className="flex items-center gap-2 text-sm text-slate-800">
							<input
								type="checkbox"
								name={fields.courseIds.name}
								value={String(course.id)}
								defaultChecked={chosenCourses.has(String(course.id))}
								className="size-4 rounded border-slate-400 text-brand-700 focus:ring-brand-600"
							/>
							{course.title}
						</label>
					))}
				</div>
				<ErrorList id={fields.courseIds.errorId} errors={fields.courseIds.errors} />
			</fieldset>
			<p className="text-sm text-slate-700">
				{`A new address gets an e-mail with a link to set a password; it works once, for ${INVITE_LINK_DAYS} days. An existing account keeps its password and is told what changed.`}
			</p>
			<DialogFormButtons cancelTo={closeTo} busy={saving} busyLabel="Sending..." label="Send Invitation" />
		</Form>
	)
}
