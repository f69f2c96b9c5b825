import { href, Link } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { StudentAssignment } from '#app/models/materials/assignments.ts'
import { formatDueDate } from '#app/utils/misc.ts'

function StatusBadge({ assignment }: { assignment: StudentAssignment }) {
	if (assignment.status === 'graded') return <Badge tone="green">Graded: {assignment.grade}</Badge>
	if (assignment.status === 'submitted') return <Badge tone="yellow">Submitted</Badge>
	return <Badge tone="gray">Not submitted</Badge>
}

/** The selected course's assignments on a student's dashboard, each with its status or grade. */
export function StudentAssignments({ assignments }: { assignments: StudentAssignment[] }) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>Assignments</CardTitle>
				<CardDescription>Hand in your work and read your grades and feedback.</CardDescription>
			</CardHeader>
			<CardContent>
				{assignments.length === 0 ? (
					<p className="rounded-md bg-slate-50 px-3 py-4 text-center text-sm text-slate-600">No assignments for this course yet.</p>
				) : (
					<ul className="divide-y divide-slate-100">
						{assignments.map((assignment) => (
							<li key={assignment.id} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
								<span>
									{assignment.opensOn ? (
										// Its page is refused until the week opens: nothing to follow yet.
										<span className="font-medium text-ink">{assignment.title}</span>
									) : (
										<Link
											to={href('/dashboard/assignments/:assignmentId', { assignmentId: String(assignment.id) })}
											className="font-medium text-brand-700 underline-offset-4 hover:underline"
										>
											{assignment.title}
										</Link>
									)}{' '}
									{/* The spaces part the title, the due date and the status for a text browser; the layout shows none. */}
									<span className="block text-sm text-slate-600">
										{assignment.weekNumber !== null ? `Week ${assignment.weekNumber} · ` : ''}Due {formatDueDate(assignment.dueAt)}
									</span>
								</span>{' '}
								{assignment.opensOn ? (
									<span className="text-sm font-medium text-amber-900">Opens {assignment.opensOn}</span>
								) : (
									<StatusBadge assignment={assignment} />
								)}
							</li>
						))}
					</ul>
				)}
			</CardContent>
		</Card>
	)
}
