import { z } from 'zod'

/*
 * The school's overview (issue 43, docs/decisions/065): the range form's schema and the figures'
 * shapes, shared by the page and the queries of `overview.server.ts`. Days are 'YYYY-MM-DD' in the
 * viewer's time zone; amounts are whole cents.
 */

export const OVERVIEW_GROUPINGS = ['month', 'week'] as const
export type OverviewGrouping = (typeof OVERVIEW_GROUPINGS)[number]

/** The longest range the page draws: five years is 261 weeks, still a readable table. */
export const MAX_RANGE_DAYS = 5 * 366

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/

/** A real day of a year a school's records can hold (PostgreSQL has no year 0). */
function isCalendarDay(value: string) {
	if (!DAY_PATTERN.test(value)) return false
	const year = Number(value.slice(0, 4))
	if (year < 1900 || year > 2999) return false
	const date = new Date(`${value}T00:00:00Z`)
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

function daySchema(which: 'start' | 'end') {
	return z
		.string()
		.trim()
		.refine(isCalendarDay, { error: `Enter the ${which} date as a date (YYYY-MM-DD)` })
}

/** The first day of the month five months before `today`'s: six calendar months up to today. */
export function defaultRangeStart(today: string) {
	const [year, month] = today.split('-').map(Number) as [number, number]
	return new Date(Date.UTC(year, month - 1 - 5, 1)).toISOString().slice(0, 10)
}

export function daysBetween(from: string, to: string) {
	return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/**
 * The overview's GET form: a range (both days optional: the last six months up to today) and the
 * grouping of its figures. A start after the end, or a range over five years, is refused by name.
 */
export function overviewRangeSchema(today: string) {
	return z
		.object({
			from: daySchema('start').optional(),
			to: daySchema('end').optional(),
			group: z.enum(OVERVIEW_GROUPINGS, { error: 'Choose month or week' }).default('month'),
		})
		.transform(({ from, to, group }) => {
			const end = to ?? today
			return { from: from ?? defaultRangeStart(end), to: end, group }
		})
		.superRefine(({ from, to }, context) => {
			if (from > to) context.addIssue({ code: 'custom', path: ['from'], message: 'The start date must be on or before the end date' })
			else if (daysBetween(from, to) > MAX_RANGE_DAYS)
				context.addIssue({ code: 'custom', path: ['from'], message: 'Choose a range of at most five years' })
		})
}

export type OverviewRange = { from: string; to: string; group: OverviewGrouping }

/** Today's date where the viewer is, as 'YYYY-MM-DD'. */
export function todayIn(timeZone: string, now = new Date()) {
	return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
}

/** One week or month of the range: enrolments made and, for admins, the money. */
export type OverviewPeriod = {
	/** The period's first day (a Monday for weeks), 'YYYY-MM-DD'; the first period may start before the range. */
	start: string
	enrolments: number
	money: PeriodMoney | null
}

export type PeriodMoney = {
	/** Received: checkouts paid (full payments and a plan's first payment) and later plan instalments. */
	paidCents: number
	/** Taken off the price by promotion codes at the checkouts paid. */
	discountCents: number
	/** Returned by refunds that succeeded, made in the period. */
	refundedCents: number
	/** Paid less refunded. */
	netCents: number
	/** Every plan instalment paid in the period, the first payment included (so also part of paid). */
	planCollectedCents: number
	/** Plan instalments due in the period and not paid, of plans still running. */
	planOutstandingCents: number
}

export type CourseFigures = {
	id: number
	title: string
	startDate: string | null
	endDate: string | null
	capacity: number
	/** Enrolments that hold a seat now (active, pending, completed). */
	seatsTaken: number
	waiting: number
	/** Offers made in the range, and what became of them. */
	offersMade: number
	offersTaken: number
	offersExpired: number
	offersOpen: number
	/** Enrolments ever made (pending ones aside), and how they stand. */
	enrolled: number
	completed: number
	active: number
	ended: number
}

export type SessionAttendance = {
	id: number
	courseId: number
	courseTitle: string
	weekNumber: number
	startsAt: string
	present: number
	late: number
	absent: number
	excused: number
	/** Students on the course's roster with no status for the session. */
	unrecorded: number
}

/** What is still to collect on plans running now, whatever the range. */
export type PlanBalance = { outstandingCents: number; overdueCents: number; plans: number }

export type OverviewFigures = {
	range: OverviewRange
	periods: OverviewPeriod[]
	planBalance: PlanBalance | null
	courses: CourseFigures[]
	sessions: SessionAttendance[]
}

export function percent(part: number, whole: number) {
	return whole === 0 ? null : Math.round((part / whole) * 100)
}

/** Present or late, of those on the roster. */
export function attendanceRate(session: SessionAttendance) {
	const roster = session.present + session.late + session.absent + session.excused + session.unrecorded
	return percent(session.present + session.late, roster)
}

const monthLabel = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
const shortDayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

/** A period's name in a table: 'Jun 2026', or 'Week of Jun 1, 2026'. */
export function periodLabel(start: string, group: OverviewGrouping) {
	const date = new Date(`${start}T00:00:00Z`)
	return group === 'month' ? monthLabel.format(date) : `Week of ${dayLabel.format(date)}`
}

/** A period's name under a chart's bar, where room is short: 'Jun 2026', or 'Jun 1'. */
export function periodTick(start: string, group: OverviewGrouping) {
	const date = new Date(`${start}T00:00:00Z`)
	return group === 'month' ? monthLabel.format(date) : shortDayLabel.format(date)
}

export function formatDay(day: string) {
	return dayLabel.format(new Date(`${day}T00:00:00Z`))
}
