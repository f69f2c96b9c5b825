import { z } from 'zod'
import type { AttendanceImportPlan, AttendanceSource, AttendanceStatus } from '#db/types.ts'

/**
 * Attendance of live sessions (issue 40, docs/decisions/048): the statuses, where a status came from
 * and which source wins, the rule that turns a report's minutes into a status, and the roster's form.
 * Isomorphic: the roster page and its action share them.
 */

export const ATTENDANCE_STATUSES = ['present', 'late', 'absent', 'excused'] as const satisfies readonly AttendanceStatus[]

export const ATTENDANCE_STATUS_LABELS: Record<AttendanceStatus, string> = {
	present: 'Present',
	late: 'Late',
	absent: 'Absent',
	excused: 'Excused',
}

export const ATTENDANCE_SOURCE_LABELS: Record<AttendanceSource, string> = {
	join_link: 'Join link',
	report: 'Meeting report',
	hand: 'Set by hand',
}

/** Which source wins when two speak of one student: by hand over the report over the join link. */
export const SOURCE_RANK: Record<AttendanceSource, number> = { join_link: 0, report: 1, hand: 2 }

export const DEFAULT_PRESENT_PERCENT = 50

/** A report import's limits (issue 40): its size and its participant rows. */
export const MAX_REPORT_BYTES = 5 * 1024 * 1024
export const MAX_REPORT_ROWS = 10_000

/**
 * The status a meeting report gives: present from `presentPercent` % of the session's length on,
 * late below it (they came, for part of it), absent without a minute.
 */
export function statusFromMinutes(minutes: number, sessionMinutes: number, presentPercent: number): AttendanceStatus {
	if (minutes <= 0) return 'absent'
	return minutes * 100 >= sessionMinutes * presentPercent ? 'present' : 'late'
}

/** A student's line on the roster of one session, as the admin's page shows it. */
export type RosterEntry = {
	userId: string
	name: string
	email: string
	status: AttendanceStatus | null
	minutes: number | null
	source: AttendanceSource | null
	/** The admin who set it (a report's importer or the hand), by name. */
	setBy: string | null
	/** 'Tue 13 Jan, 7:04 pm EST': when the student went through the join link, if they did. */
	joinedAt: string | null
}

/** The roster form: one choice per student (a student left without one keeps what they have). */
export const RosterSchema = z.object({
	marks: z
		.array(
			z.object({
				userId: z.uuid({ error: 'The roster changed; reload the page and mark again' }),
				status: z.enum(ATTENDANCE_STATUSES, { error: 'Choose present, late, absent or excused' }).optional(),
			}),
		)
		.max(5000)
		.default([]),
})

export const ATTENDANCE_MESSAGES = {
	notOnRoster: 'The roster changed; reload the page and mark again',
	noFile: 'Choose the participant report (a .csv file) to import',
	tooLarge: `The report is larger than ${MAX_REPORT_BYTES / 1024 / 1024} MB`,
	tooManyRows: `The report has more than ${MAX_REPORT_ROWS.toLocaleString('en-US')} participant rows`,
	alreadyApplied: 'This report was already imported',
	expired: 'This preview is no longer available; upload the report again',
} as const

/** A kept import set against the roster as it is now, for its preview page. */
export type ImportEffect = 'new' | 'change' | 'same' | 'kept'

export type ImportPreview = {
	id: string
	fileName: string
	applied: boolean
	rows: number
	students: Array<{
		userId: string
		name: string
		email: string
		matchedBy: 'email' | 'name' | null
		minutes: number
		status: AttendanceStatus
		current: { status: AttendanceStatus; source: AttendanceSource; minutes: number | null } | null
		/** new: no status yet; change: the report changes it; same: nothing to change; kept: set by hand, the report does not touch it. */
		effect: ImportEffect
	}>
	unmatched: AttendanceImportPlan['unmatched']
}
