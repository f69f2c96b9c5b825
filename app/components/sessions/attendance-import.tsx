import { Form, Link } from 'react-router'
import { Badge, type BadgeTone } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Field } from '#app/components/ui/field.tsx'
import {
	ATTENDANCE_SOURCE_LABELS,
	ATTENDANCE_STATUS_LABELS,
	type ImportEffect,
	type ImportPreview,
	MAX_REPORT_BYTES,
	MAX_REPORT_ROWS,
} from '#app/models/sessions/attendance.ts'

/** Step one of an import: the report's file, read into a preview before anything is saved. */
export function ReportUploadForm({
	action,
	errors,
	busy,
	presentPercent,
}: {
	action: string
	errors: string[] | undefined
	busy: boolean
	presentPercent: number
}) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>Import a Meeting Report</CardTitle>
				<CardDescription>
					Zoom: Reports, Usage, Participants, Export (CSV). Rows are matched to students by e-mail, then by name; a student with{' '}
					{presentPercent} % of the session or more is present, less is late, and a student the report does not name is absent. You see what
					would change before anything is saved.
				</CardDescription>
			</CardHeader>
			<CardContent>
				<Form method="post" action={action} encType="multipart/form-data" className="space-y-4">
					<Field
						label="Participant report (.csv)"
						errors={errors}
						help={`At most ${MAX_REPORT_BYTES / 1024 / 1024} MB and ${MAX_REPORT_ROWS.toLocaleString('en-US')} rows.`}
						inputProps={{ type: 'file', name: 'report', accept: '.csv,text/csv', required: true }}
					/>
					<Button type="submit" disabled={busy}>
						{busy ? 'Reading...' : 'Preview Import'}
					</Button>
				</Form>
			</CardContent>
		</Card>
	)
}

const EFFECTS: Record<ImportEffect, { label: string; tone: BadgeTone }> = {
	new: { label: 'New', tone: 'green' },
	change: { label: 'Changes', tone: 'yellow' },
	same: { label: 'No change', tone: 'gray' },
	kept: { label: 'Kept: set by hand', tone: 'blue' },
}

/** Step two: what the report would change, student by student, and the rows that matched nobody. */
export function ImportPreviewView({
	preview,
	action,
	backTo,
	busy,
}: {
	preview: ImportPreview
	action: string
	backTo: string
	busy: boolean
}) {
	const changing = preview.students.filter((student) => student.effect === 'new' || student.effect === 'change').length
	return (
		<>
			<Card>
				<CardHeader>
					<CardTitle>What the Report Changes</CardTitle>
					<CardDescription>
						{preview.fileName}: {preview.rows} {preview.rows === 1 ? 'row' : 'rows'}; {changing}{' '}
						{changing === 1 ? 'student changes' : 'students change'}; {preview.unmatched.length}{' '}
						{preview.unmatched.length === 1 ? 'row matches' : 'rows match'} nobody.
					</CardDescription>
				</CardHeader>
				<CardContent>
					<ul className="divide-y divide-slate-100">
						{preview.students.map((student) => (
							<li key={student.userId} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
								<div className="min-w-0 flex-1">
									<p className="font-medium break-words text-ink">{student.name}</p>
									<p className="text-sm break-all text-slate-600">{student.email}</p>
								</div>
								<p className="text-sm text-slate-800">
									{student.current
										? `${ATTENDANCE_STATUS_LABELS[student.current.status]} (${ATTENDANCE_SOURCE_LABELS[student.current.source]})`
										: 'Nothing yet'}{' '}
									<span aria-hidden="true">→</span>
									<span className="sr-only">becomes</span> {ATTENDANCE_STATUS_LABELS[student.status]}, {student.minutes} min
									{student.matchedBy ? ` (matched by ${student.matchedBy === 'email' ? 'e-mail' : 'name'})` : ' (not in the report)'}
								</p>
								<Badge tone={EFFECTS[student.effect].tone}>{EFFECTS[student.effect].label}</Badge>
							</li>
						))}
					</ul>
				</CardContent>
			</Card>
			<Card>
				<CardHeader>
					<CardTitle>Rows That Matched Nobody</CardTitle>
					<CardDescription>The host, guests, or students who joined under another name or address: mark those by hand.</CardDescription>
				</CardHeader>
				<CardContent>
					{preview.unmatched.length === 0 ? (
						<p className="text-sm text-slate-700">Every row matched a student.</p>
					) : (
						<ul className="divide-y divide-slate-100">
							{preview.unmatched.map((row) => (
								<li key={row.line} className="py-2 text-sm break-words text-slate-800">
									Line {row.line}: {row.name || '(no name)'}
									{row.email ? ` <${row.email}>` : ''}, {row.minutes} min
								</li>
							))}
						</ul>
					)}
				</CardContent>
			</Card>
			{preview.applied ? (
				<p className="text-sm text-slate-700">
					This report was imported.{' '}
					<Link to={backTo} className="font-medium text-brand-700 underline-offset-4 hover:underline">
						Back to the roster
					</Link>
				</p>
			) : (
				<Form method="post" action={action} className="flex flex-wrap items-center gap-3">
					<input type="hidden" name="intent" value="confirm" />
					<Button type="submit" disabled={busy}>
						{busy ? 'Importing...' : 'Confirm Import'}
					</Button>
					<Link to={backTo} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
						Cancel
					</Link>
				</Form>
			)}
		</>
	)
}
