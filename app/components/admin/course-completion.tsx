import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { EnrollmentStatusBadge } from '#app/components/admin/enrollment-status.tsx'
import { PersonCell } from '#app/components/admin/person-cell.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { CheckboxField, Field } from '#app/components/ui/field.tsx'
import { RowsTable } from '#app/components/ui/rows-table.tsx'
import { StackingTableCard } from '#app/components/ui/table.tsx'
import {
	type CompletionCheck,
	type CompletionRecord,
	type CompletionRule,
	CompletionRuleSchema,
} from '#app/models/enrollment/completion.ts'
import type { EnrollmentStatus } from '#db/types.ts'

export type CompletionStudent = {
	enrollmentId: number
	name: string
	email: string
	status: EnrollmentStatus
	record: CompletionRecord
	check: CompletionCheck
}

/** The course's completion rule as one form (a 0 % attendance and an empty passing grade are allowed). */
export function CompletionRuleForm({
	rule,
	action,
	lastResult,
}: {
	rule: CompletionRule
	action: string
	lastResult?: SubmissionResult<string[]>
}) {
	const [form, fields] = useForm({
		id: 'completion-rule',
		lastResult,
		defaultValue: {
			minAttendancePercent: String(rule.minAttendancePercent),
			requiresAllAssignments: rule.requiresAllAssignments ? 'on' : undefined,
			passingGradePercent: rule.passingGradePercent === null ? '' : String(rule.passingGradePercent),
		},
		constraint: getZodConstraint(CompletionRuleSchema),
		shouldValidate: 'onBlur',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CompletionRuleSchema }),
	})
	return (
		<Card className="p-4 sm:p-6">
			<h2 className="text-lg font-semibold text-ink">Completion rule</h2>
			<p className="mt-1 text-sm text-slate-700">
				When the course ends, every active student who meets this rule is marked completed and e-mailed their certificate; the others stay
				active for you to decide.
			</p>
			<Form method="post" action={action} {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2">
				<input type="hidden" name="intent" value="rule" />
				<Field
					label="Minimum attendance (% of held live sessions)"
					help="Present or late counts as attended; 0 asks for none."
					errors={fields.minAttendancePercent.errors}
					inputProps={{ ...getInputProps(fields.minAttendancePercent, { type: 'number' }), inputMode: 'numeric' }}
				/>
				<Field
					label="Passing grade (%)"
					help="Optional. Every graded hand-in must reach it: 85, 85%, 17/20, a letter A+ to F, Pass or Fail."
					errors={fields.passingGradePercent.errors}
					inputProps={{ ...getInputProps(fields.passingGradePercent, { type: 'number' }), inputMode: 'numeric' }}
				/>
				<CheckboxField
					className="sm:col-span-2"
					label="Every assignment handed in"
					errors={fields.requiresAllAssignments.errors}
					inputProps={getInputProps(fields.requiresAllAssignments, { type: 'checkbox' })}
				/>
				<div className="sm:col-span-2">
					<Button type="submit">Save Completion Rule</Button>
				</div>
			</Form>
		</Card>
	)
}

/** When the rule runs, or ran, and whether it runs again because the course's end moved later (decision 052). */
export function CompletionSchedule({ endsAt, evaluatedAt }: { endsAt: string | null; evaluatedAt: string | null }) {
	if (evaluatedAt && endsAt && new Date(endsAt) > new Date(evaluatedAt)) {
		return (
			<p className="text-sm text-slate-700">
				The rule was applied on <LocalDate value={evaluatedAt} />; the course now ends later (<LocalDate value={endsAt} />
				), and the rule is applied again then for the students still active.
			</p>
		)
	}
	if (evaluatedAt) {
		return (
			<p className="text-sm text-slate-700">
				The rule was applied when the course ended, on <LocalDate value={evaluatedAt} />. Complete or reopen students by hand below.
			</p>
		)
	}
	if (!endsAt) return <p className="text-sm text-slate-700">This course has no end date, so the rule is never applied by itself.</p>
	return (
		<p className="text-sm text-slate-700">
			The rule is applied once, when the course ends (<LocalDate value={endsAt} />
			).
		</p>
	)
}

/** The course's students against the rule, each with Complete or Reopen. */
export function CompletionRoster({ students, confirmPath }: { students: CompletionStudent[]; confirmPath: (query: string) => string }) {
	if (students.length === 0)
		return <EmptyState title="No students yet" description="Active and completed students of this course show here." />
	return (
		<StackingTableCard>
			<RowsTable caption="Students and the completion rule" columns={['Student', 'Attendance', 'Assignments', 'Rule', 'Status', 'Actions']}>
				{students.map((student) => {
					const who = student.name || student.email
					return (
						<tr key={student.enrollmentId}>
							<PersonCell name={who} email={student.email} />
							<td data-label="Attendance" className="px-4 py-3 text-slate-700">
								{student.record.heldSessions === 0
									? 'No sessions held'
									: `${student.record.attendedSessions} of ${student.record.heldSessions} (${student.check.attendancePercent} %)`}
							</td>
							<td data-label="Assignments" className="px-4 py-3 text-slate-700">
								{student.record.handedIn} of {student.record.assignments} handed in
								{student.check.gradesBelow > 0 ? (
									<span className="block">{student.check.gradesBelow} below the passing grade or not graded</span>
								) : null}
							</td>
							<td data-label="Rule" className="px-4 py-3">
								{student.check.meets ? <Badge tone="green">Meets the rule</Badge> : <Badge tone="gray">{shortfall(student.check)}</Badge>}
							</td>
							<td data-label="Status" className="px-4 py-3">
								<EnrollmentStatusBadge status={student.status} />
							</td>
							<td className="px-4 py-3">
								{student.status === 'active' ? (
									<Form method="post" preventScrollReset>
										<input type="hidden" name="intent" value="complete" />
										<input type="hidden" name="enrollmentId" value={student.enrollmentId} />
										<Button type="submit" size="sm" variant="outline">
											Mark Completed<span className="sr-only"> {who}</span>
										</Button>
									</Form>
								) : (
									<ButtonLink to={confirmPath(`confirm=reopen-${student.enrollmentId}`)} preventScrollReset size="sm" variant="outline">
										Reopen<span className="sr-only"> {who}</span>
									</ButtonLink>
								)}
							</td>
						</tr>
					)
				})}
			</RowsTable>
		</StackingTableCard>
	)
}

function shortfall(check: CompletionCheck) {
	const missing = [
		check.attendanceMet ? null : 'attendance',
		check.assignmentsMet ? null : 'hand-ins',
		check.gradesMet ? null : 'grades',
	].filter(Boolean)
	return `Short of ${missing.join(', ')}`
}
