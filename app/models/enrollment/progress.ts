import { z } from 'zod'
import { courseLengthInWeeks } from '#app/models/courses/courses.ts'
import type { AttendanceStatus } from '#db/types.ts'

/**
 * Progress (issue 40 point 2, docs/decisions/051): the student's line per course and the rules of
 * the admin's roster — what counts as attended, who is at risk and why, and the roster's orders.
 */

const DAY_MS = 86_400_000
/** A student who has opened nothing new for this many days, with something left to open, is at risk. */
export const INACTIVE_DAYS = 7
/** Assignments due within this many days are named on the student's line. */
const DUE_SOON_DAYS = 7

/** A class counts as attended when the student was there, late or not. */
export function attended(status: AttendanceStatus | null | undefined) {
	return status === 'present' || status === 'late'
}

function plural(count: number, one: string, many = `${one}s`) {
	return `${count} ${count === 1 ? one : many}`
}

/** 'YYYY-MM-DD' of the moment in the zone. */
function calendarDate(moment: Date, timeZone: string) {
	return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(moment)
}

function weekday(moment: Date, timeZone: string) {
	return new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short' }).format(moment)
}

function shortDay(moment: Date, timeZone: string) {
	return new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short' }).format(moment)
}

export type CoursePhase =
	| { phase: 'before'; startsOn: string }
	| { phase: 'running'; week: number; weeks: number }
	| { phase: 'ended' }
	| { phase: 'undated' }

/**
 * Where a course stands on the calendar of its zone: before its start date, in week N of its
 * length (week 1 from the start date, 7 days each, never past the last), or after its end date.
 */
export function coursePhase(course: { startDate: string | null; endDate: string | null; timeZone: string }, now: Date): CoursePhase {
	if (!course.startDate) return { phase: 'undated' }
	const today = calendarDate(now, course.timeZone)
	if (today < course.startDate) return { phase: 'before', startsOn: shortDay(new Date(`${course.startDate}T12:00:00Z`), 'UTC') }
	if (course.endDate && today > course.endDate) return { phase: 'ended' }
	const weeks = courseLengthInWeeks(course.startDate, course.endDate)
	const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${course.startDate}T00:00:00Z`)) / DAY_MS)
	return { phase: 'running', week: Math.min(weeks, Math.floor(days / 7) + 1), weeks }
}

/** What the student's line of one course is made of, counted by the database. */
export type StudentCourseProgress = {
	courseId: number
	title: string
	startDate: string | null
	endDate: string | null
	timeZone: string
	/** Sessions that have ended and were not cancelled. */
	heldSessions: number
	/** Of those, the ones the student attended (present or late). */
	attendedSessions: number
	/** Assignments past their due time that the student has not handed in. */
	overdueAssignments: number
	/** Assignments not handed in, due from now on, the soonest first. */
	upcomingDueDates: Date[]
	/** The enrolment is completed (docs/decisions/052). */
	completed: boolean
}

/**
 * The student's line for a course, e.g. 'Week 3 of 8 · 2 of 3 classes attended · 1 assignment due Fri'.
 * Days are named in the reader's zone (the course's unless they chose one).
 */
export function progressLine(progress: StudentCourseProgress, now: Date, readerZone: string | null = null) {
	const zone = readerZone ?? progress.timeZone
	const parts: string[] = []
	const phase = coursePhase(progress, now)
	if (phase.phase === 'before') parts.push(`Starts ${phase.startsOn}`)
	else if (phase.phase === 'running') parts.push(`Week ${phase.week} of ${phase.weeks}`)
	else if (phase.phase === 'ended') parts.push('Course ended')
	if (progress.completed) parts.push('Completed')

	parts.push(
		progress.heldSessions === 0
			? 'No classes held yet'
			: `${progress.attendedSessions} of ${plural(progress.heldSessions, 'class', 'classes')} attended`,
	)

	if (progress.overdueAssignments > 0) parts.push(`${plural(progress.overdueAssignments, 'assignment')} overdue`)
	const [next] = progress.upcomingDueDates
	if (next) {
		const dueSoon = progress.upcomingDueDates.filter((due) => due.getTime() - now.getTime() <= DUE_SOON_DAYS * DAY_MS).length
		if (dueSoon === 0) parts.push(`Next assignment due ${shortDay(next, zone)}`)
		else if (dueSoon === 1) parts.push(`1 assignment due ${weekday(next, zone)}`)
		else parts.push(`${dueSoon} assignments due, the next ${weekday(next, zone)}`)
	} else if (progress.overdueAssignments === 0 && phase.phase !== 'ended') {
		parts.push('No assignments due')
	}
	return parts.join(' · ')
}

// The admin's roster.

export type RiskFlag = { kind: 'missed-classes' | 'inactive' | 'overdue'; reason: string }

export type RosterSession = { id: number; weekNumber: number; startsAt: Date; endsAt: Date }
export type RosterAssignment = { id: number; title: string; weekNumber: number | null; dueAt: Date | null }

/** What the rules need of one student. */
export type StudentActivity = {
	enrolledAt: Date
	/** Their latest first open of any material; null if they opened none. */
	lastOpenedAt: Date | null
	/** Materials of open weeks they have opened. */
	openedCount: number
	/** Session id → their status (absent from the map: nothing recorded). */
	attendance: ReadonlyMap<number, AttendanceStatus>
	/** Assignment ids they handed in. */
	handedIn: ReadonlySet<number>
}

/**
 * Why a student is at risk, in the roster's words (docs/decisions/051):
 * - two classes missed in a row: of the held sessions whose attendance was taken (anyone of the
 *   course has a row) and that ended after they enrolled, two consecutive ones without present or
 *   late; an excused class is left out of the run, neither breaking nor extending it;
 * - nothing opened for 7 days (since enrolling if never), while an open week still has something
 *   they have not opened;
 * - an assignment past its due time not handed in.
 */
export function riskFlags(
	student: StudentActivity,
	course: { takenSessions: RosterSession[]; assignments: RosterAssignment[]; openMaterials: number },
	now: Date,
): RiskFlag[] {
	const flags: RiskFlag[] = []
	let run: RosterSession[] = []
	let missedRun: RosterSession[] | null = null
	for (const session of [...course.takenSessions].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())) {
		if (session.endsAt <= student.enrolledAt || session.endsAt > now) continue
		const status = student.attendance.get(session.id)
		if (status === 'excused') continue
		run = attended(status) ? [] : [...run, session]
		if (run.length >= 2) missedRun = run.slice(-2)
	}
	if (missedRun) {
		flags.push({
			kind: 'missed-classes',
			reason: `Missed two classes in a row (weeks ${missedRun[0]!.weekNumber} and ${missedRun[1]!.weekNumber})`,
		})
	}

	const since = student.lastOpenedAt ?? student.enrolledAt
	const idleDays = Math.floor((now.getTime() - since.getTime()) / DAY_MS)
	if (course.openMaterials > student.openedCount && idleDays >= INACTIVE_DAYS) {
		flags.push({
			kind: 'inactive',
			reason: student.lastOpenedAt
				? `Nothing opened for ${idleDays} days`
				: `Nothing opened since enrolling ${plural(idleDays, 'day')} ago`,
		})
	}

	const overdue = course.assignments.filter(
		(assignment) => assignment.dueAt && assignment.dueAt < now && !student.handedIn.has(assignment.id),
	)
	if (overdue.length > 0) {
		flags.push({ kind: 'overdue', reason: `Overdue: ${overdue.map((assignment) => assignment.title).join(', ')}` })
	}
	return flags
}

/** A week of the roster: its materials, its session and its assignments. */
export type RosterWeek = {
	weekNumber: number
	materials: number
	/** Its files are open to students. */
	open: boolean
	session: (RosterSession & { held: boolean }) | null
	assignments: RosterAssignment[]
}

/** One student's week: materials opened, the class, the week's assignments handed in and graded. */
export type RosterCell = {
	opened: number
	/** The class: its status, 'not-recorded' when held and nothing recorded, null when none was held. */
	attendance: AttendanceStatus | 'not-recorded' | null
	handedIn: number
	graded: number
}

export type RosterRow = {
	userId: string
	name: string
	email: string
	enrolledAt: Date
	lastOpenedAt: Date | null
	openedCount: number
	heldSessions: number
	attendedSessions: number
	handedIn: number
	graded: number
	flags: RiskFlag[]
	weeks: RosterCell[]
}

export type CourseRoster = {
	course: { id: number; title: string; phase: CoursePhase }
	weeks: RosterWeek[]
	/** Materials in all weeks, and in the weeks open to students. */
	materials: number
	assignments: number
	heldSessions: number
	rows: RosterRow[]
}

export const ROSTER_SORTS = {
	risk: 'At risk first',
	name: 'Name',
	attendance: 'Lowest attendance',
	opened: 'Fewest opened',
} as const
export type RosterSort = keyof typeof ROSTER_SORTS

/** The roster's order from the address (?sort=…); an unknown or missing one is 'risk'. */
export const RosterQuerySchema = z.object({
	sort: z.enum(Object.keys(ROSTER_SORTS) as [RosterSort, ...RosterSort[]]).catch('risk'),
})

/** A roster row as the orders need it. */
type Sortable = { name: string; email: string; flags: RiskFlag[]; attendedSessions: number; heldSessions: number; openedCount: number }

/** The roster in the chosen order; ties by name, then e-mail. */
export function sortRoster<Row extends Sortable>(rows: Row[], sort: RosterSort): Row[] {
	const byName = (a: Row, b: Row) => a.name.localeCompare(b.name, 'en') || a.email.localeCompare(b.email, 'en')
	const share = (row: Row) => (row.heldSessions === 0 ? 1 : row.attendedSessions / row.heldSessions)
	const orders: Record<RosterSort, (a: Row, b: Row) => number> = {
		name: byName,
		risk: (a, b) => b.flags.length - a.flags.length || byName(a, b),
		attendance: (a, b) => share(a) - share(b) || byName(a, b),
		opened: (a, b) => a.openedCount - b.openedCount || byName(a, b),
	}
	return [...rows].sort(orders[sort])
}
