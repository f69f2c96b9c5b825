import { href, Link } from 'react-router'
import { CoursePageHeading } from '#app/components/admin/course-page-heading.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { ButtonAnchor } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { TableCard } from '#app/components/ui/table.tsx'
import {
	type CourseRoster,
	type RosterCell,
	type RosterRow,
	type RosterSort,
	ROSTER_SORTS as SORT_LABELS,
} from '#app/models/enrollment/progress.ts'

const CLASS_WORDS: Record<NonNullable<RosterCell['attendance']>, { label: string; tone: BadgeTone }> = {
	present: { label: 'Present', tone: 'green' },
	late: { label: 'Late', tone: 'yellow' },
	absent: { label: 'Absent', tone: 'red' },
	excused: { label: 'Excused', tone: 'blue' },
	'not-recorded': { label: 'Not recorded', tone: 'gray' },
}

/**
 * A course's progress roster for admins: the orders as plain links, the CSV download, and a table
 * of students × weeks that scrolls sideways inside its card on a phone, the students' names staying
 * in view (a sticky first column).
 */
export function ProgressRoster({ roster, rows, sort }: { roster: Omit<CourseRoster, 'rows'>; rows: RosterRow[]; sort: RosterSort }) {
	const courseId = String(roster.course.id)
	const self = href('/dashboard/admin/courses/:courseId/progress', { courseId })
	const atRisk = rows.filter((row) => row.flags.length > 0).length
	const phase = roster.course.phase
	return (
		<div className="space-y-6">
			<div className="flex flex-wrap items-end justify-between gap-3">
				<CoursePageHeading page="Progress" courseTitle={roster.course.title}>
					{phase.phase === 'running' ? `Week ${phase.week} of ${phase.weeks} · ` : phase.phase === 'ended' ? 'Ended · ' : ''}
					{rows.length} {rows.length === 1 ? 'student' : 'students'} · {atRisk} at risk · {roster.heldSessions} classes held ·{' '}
					{roster.materials} materials · {roster.assignments} assignments
				</CoursePageHeading>
				<ButtonAnchor
					href={`${href('/dashboard/admin/courses/:courseId/progress.csv', { courseId })}?sort=${sort}`}
					variant="outline"
					size="sm"
					download
				>
					Download CSV
				</ButtonAnchor>
			</div>
			<nav aria-label="Sort the roster" className="flex flex-wrap items-center gap-2 text-sm">
				<span className="text-slate-600">Sort by:</span>
				<ul className="flex flex-wrap items-center gap-2">
					{(Object.keys(SORT_LABELS) as RosterSort[]).map((key) => (
						<li key={key}>
							{key === sort ? (
								<span aria-current="true" className="block rounded-full bg-brand-700 px-3 py-1 font-semibold text-white">
									{SORT_LABELS[key]}
								</span>
							) : (
								<Link
									to={`${self}?sort=${key}`}
									preventScrollReset
									className="block rounded-full border border-slate-300 px-3 py-1 text-brand-700 underline-offset-4 hover:underline"
								>
									{SORT_LABELS[key]}
								</Link>
							)}
						</li>
					))}
				</ul>
			</nav>
			{rows.length === 0 ? (
				<EmptyState title="No students yet" description="Students appear here once they are enrolled in this course." />
			) : (
				<TableCard label={`Progress of ${roster.course.title}, by week`}>
					<table className="w-full text-left text-sm">
						<caption className="sr-only">
							Progress of each student of {roster.course.title} by week, sorted by {SORT_LABELS[sort].toLowerCase()}
						</caption>
						<thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
							<tr>
								<th scope="col" className="sticky left-0 z-10 bg-slate-50 px-3 py-3 font-semibold">
									Student
								</th>
								<th scope="col" className="px-3 py-3 font-semibold whitespace-nowrap">
									Overall
								</th>
								{roster.weeks.map((week) => (
									<th key={week.weekNumber} scope="col" className="px-3 py-3 font-semibold whitespace-nowrap">
										Week {week.weekNumber}
									</th>
								))}
							</tr>
						</thead>
						<tbody className="divide-y divide-slate-200">
							{rows.map((row) => (
								<tr key={row.userId} className="align-top">
									<th scope="row" className="sticky left-0 z-10 w-40 max-w-40 bg-white px-3 py-3 text-left font-normal sm:w-56 sm:max-w-56">
										<span className="block font-semibold break-words text-ink">{row.name || row.email}</span>
										<span className="block text-xs break-all text-slate-600">{row.email}</span>
										{row.flags.length ? (
											<ul className="mt-1 space-y-1" aria-label={`Why ${row.name || row.email} is at risk`}>
												{row.flags.map((flag) => (
													<li key={flag.kind}>
														<span className="block rounded-md bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-600/20 ring-inset">
															{flag.reason}
														</span>
													</li>
												))}
											</ul>
										) : null}
									</th>
									<td className="px-3 py-3 whitespace-nowrap text-slate-700">
										<span className="block">
											{roster.heldSessions ? `${row.attendedSessions} of ${roster.heldSessions} classes` : 'No classes held yet'}
										</span>
										<span className="block">{roster.materials ? `${row.openedCount} of ${roster.materials} opened` : 'No materials'}</span>
										<span className="block">
											{roster.assignments ? `${row.handedIn} of ${roster.assignments} handed in` : 'No assignments'}
										</span>
										<span className="block text-xs text-slate-600">
											{row.lastOpenedAt ? (
												<>
													Last opened <LocalDate value={row.lastOpenedAt} />
												</>
											) : (
												'Nothing opened yet'
											)}
										</span>
									</td>
									{row.weeks.map((cell, index) => {
										const week = roster.weeks[index]!
										const classWords = cell.attendance ? CLASS_WORDS[cell.attendance] : null
										return (
											<td key={week.weekNumber} className="px-3 py-3 whitespace-nowrap text-slate-700">
												<span className="block">{week.materials ? `${cell.opened} of ${week.materials} opened` : 'No materials'}</span>
												{classWords ? (
													<Badge tone={classWords.tone}>{classWords.label}</Badge>
												) : (
													<span className="block text-xs text-slate-600">{week.session ? 'Class ahead' : 'No class'}</span>
												)}
												{week.assignments.length ? (
													<span className="block text-xs">
														{cell.handedIn} of {week.assignments.length} handed in
														{cell.graded ? `, ${cell.graded} graded` : ''}
													</span>
												) : null}
											</td>
										)
									})}
								</tr>
							))}
						</tbody>
					</table>
				</TableCard>
			)}
		</div>
	)
}
