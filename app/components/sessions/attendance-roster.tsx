import { Form } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import {
	ATTENDANCE_SOURCE_LABELS,
	ATTENDANCE_STATUS_LABELS,
	ATTENDANCE_STATUSES,
	type RosterEntry,
} from '#app/models/sessions/attendance.ts'

/** What is recorded for a student: 'Present · 47 min · Meeting report, by Ada Admin · joined Tue 13 Jan, 7:02 pm EST'. */
function recordedLine(entry: RosterEntry) {
	if (!entry.status || !entry.source) return entry.joinedAt ? `Joined ${entry.joinedAt}` : 'Nothing recorded yet'
	const parts = [ATTENDANCE_STATUS_LABELS[entry.status]]
	if (entry.minutes !== null) parts.push(`${entry.minutes} min`)
	parts.push(entry.setBy ? `${ATTENDANCE_SOURCE_LABELS[entry.source]}, by ${entry.setBy}` : ATTENDANCE_SOURCE_LABELS[entry.source])
	if (entry.joinedAt) parts.push(`joined ${entry.joinedAt}`)
	return parts.join(' · ')
}

/**
 * The roster of one session: one form, one choice per student (a radio group each, so it works
 * without scripts); a changed choice is saved as set by hand and wins over the report and the join link.
 */
export function AttendanceRoster({
	entries,
	action,
	formId,
	errors,
	busy,
}: {
	entries: RosterEntry[]
	action: string
	formId: string
	errors: string[] | undefined
	busy: boolean
}) {
	if (entries.length === 0) {
		return <p className="rounded-md bg-slate-50 px-3 py-6 text-center text-sm text-slate-700">No students are enrolled in this course.</p>
	}
	return (
		<Form method="post" action={action} id={formId} className="space-y-4">
			<input type="hidden" name="intent" value="mark" />
			{errors?.length ? <Alert tone="error">{errors[0]}</Alert> : null}
			<ul className="divide-y divide-slate-100">
				{entries.map((entry, index) => (
					<li key={entry.userId} className="py-3">
						<fieldset className="min-w-0 space-y-2">
							<legend className="min-w-0">
								<span className="block font-medium break-words text-ink">{entry.name}</span>{' '}
								<span className="block text-sm break-all text-slate-600">{entry.email}</span>
							</legend>
							<input type="hidden" name={`marks[${index}].userId`} value={entry.userId} />
							<div className="flex flex-wrap gap-x-4 gap-y-2">
								{ATTENDANCE_STATUSES.map((status) => (
									<label key={status} className="inline-flex items-center gap-2 text-sm text-slate-800">
										<input
											type="radio"
											name={`marks[${index}].status`}
											value={status}
											defaultChecked={entry.status === status}
											className="size-4 accent-brand-700"
										/>
										{ATTENDANCE_STATUS_LABELS[status]}
									</label>
								))}
							</div>
							<p className="text-xs text-slate-600">{recordedLine(entry)}</p>
						</fieldset>
					</li>
				))}
			</ul>
			<Button type="submit" disabled={busy}>
				{busy ? 'Saving...' : 'Save Attendance'}
			</Button>
		</Form>
	)
}
