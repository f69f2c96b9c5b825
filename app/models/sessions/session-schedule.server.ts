import { type JoinBuilder, type Kysely, sql } from 'kysely'
import { Temporal } from 'temporal-polyfill'
import { courseLengthInWeeks } from '#app/models/courses/courses.ts'
import type { Database, LiveSessionStatus } from '#db/types.ts'
import type { CourseSchedule } from './live-sessions.ts'

/*
 * The calendar arithmetic of live sessions (docs/decisions/031), apart from the rest of the model
 * so that the seed script, which Node runs without a build, can use it: it imports no e-mail template.
 */

/**
 * The start and end of week N's session: the schedule's weekday on or after the course's start
 * date, N − 1 weeks later, at the schedule's wall-clock time in its zone. Computed on the calendar
 * of that zone (Temporal), so a session after a DST change starts at the same local time; a
 * wall-clock time that does not exist that day (the spring-forward hour) moves forward by the gap.
 */
export function weekSessionTimes(schedule: CourseSchedule & { startDate: string }, weekNumber: number) {
	const firstDay = Temporal.PlainDate.from(schedule.startDate)
	const toWeekday = (schedule.weekday - firstDay.dayOfWeek + 7) % 7
	const day = firstDay.add({ days: toWeekday + 7 * (weekNumber - 1) })
	return sessionTimesOn(day.toString(), schedule.startTime, schedule.minutes, schedule.timeZone)
}

/** A wall-clock date and time in a zone, and a length, as instants. */
export function sessionTimesOn(date: string, startTime: string, minutes: number, timeZone: string) {
	const start = Temporal.PlainDate.from(date).toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from(startTime) })
	return { startsAt: new Date(start.epochMilliseconds), endsAt: new Date(start.add({ minutes }).epochMilliseconds) }
}

/**
 * The instant `days` calendar days after this one at the same wall-clock time in the zone: across a
 * DST change the instant moves by an hour more or less, the time on the clock stays.
 */
export function shiftByDays(instant: Date, days: number, timeZone: string) {
	const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone)
	return new Date(zoned.add({ days }).epochMilliseconds)
}

/** Whole days from one 'YYYY-MM-DD' date to another, and a date moved by such a number. */
export function daysBetween(from: string, to: string) {
	return Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to)).days
}

export function addDays(date: string, days: number) {
	return Temporal.PlainDate.from(date).add({ days }).toString()
}

/** The wall-clock date ('YYYY-MM-DD') and time ('HH:MM') of an instant in a zone, for a form. */
export function wallClockOf(instant: Date, timeZone: string) {
	const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone)
	return { date: zoned.toPlainDate().toString(), time: zoned.toPlainTime().toString({ smallestUnit: 'minute' }) }
}

type SessionTimesRow = {
	id: number
	weekNumber: number
	startsAt: Date
	endsAt: Date
	timeZone: string
	status: LiveSessionStatus
	rescheduled: boolean
}

/**
 * Brings a course's sessions in line with its schedule, in the caller's transaction: week 1 … N
 * (N from the course's dates) each get a session; sessions still ahead that no admin moved follow a
 * changed schedule (their SEQUENCE counts the change); sessions ahead beyond the last week, or of a
 * course whose schedule was removed, are cancelled rather than deleted, so calendars drop them.
 * Sessions in the past are history and stay as they were.
 */
export async function syncCourseSessions(db: Kysely<Database>, courseId: number, now: Date = new Date()) {
	const course = await db
		.selectFrom('courses')
		.select(['start_date', 'end_date', 'time_zone', 'schedule_weekday', 'schedule_start_time', 'schedule_minutes'])
		.where('id', '=', courseId)
		.executeTakeFirstOrThrow()
	const existing: SessionTimesRow[] = (
		await db
			.selectFrom('live_sessions')
			.select([
				'id',
				'week_number as weekNumber',
				'starts_at as startsAt',
				'ends_at as endsAt',
				'time_zone as timeZone',
				'status',
				'rescheduled',
			])
			.where('course_id', '=', courseId)
			.execute()
	).map((row) => ({ ...row, startsAt: new Date(row.startsAt), endsAt: new Date(row.endsAt) }))
	const byWeek = new Map(existing.map((session) => [session.weekNumber, session]))
	const schedule =
		course.start_date && course.schedule_weekday && course.schedule_start_time && course.schedule_minutes
			? {
					startDate: course.start_date,
					weekday: course.schedule_weekday,
					startTime: course.schedule_start_time,
					minutes: course.schedule_minutes,
					timeZone: course.time_zone,
				}
			: null
	const weeks = schedule ? courseLengthInWeeks(course.start_date, course.end_date) : 0
	const fresh = []
	for (let week = 1; week <= weeks && schedule; week++) {
		const times = weekSessionTimes(schedule, week)
		const session = byWeek.get(week)
		if (!session) {
			fresh.push({ course_id: courseId, week_number: week, starts_at: times.startsAt, ends_at: times.endsAt, time_zone: schedule.timeZone })
			continue
		}
		const ahead = session.startsAt > now
		const moved =
			session.startsAt.getTime() !== times.startsAt.getTime() ||
			session.endsAt.getTime() !== times.endsAt.getTime() ||
			session.timeZone !== schedule.timeZone ||
			session.status === 'cancelled'
		// A session the admin moved or cancelled keeps that decision; one the schedule cancelled comes back.
		if (!ahead || session.rescheduled || !moved) continue
		await db
			.updateTable('live_sessions')
			.set((eb) => ({
				starts_at: times.startsAt,
				ends_at: times.endsAt,
				time_zone: schedule.timeZone,
				status: 'scheduled',
				note: null,
				sequence: eb('sequence', '+', 1),
				updated_at: now,
			}))
			.where('id', '=', session.id)
			.execute()
	}
	if (fresh.length) await db.insertInto('live_sessions').values(fresh).execute()
	await db
		.updateTable('live_sessions')
		.set((eb) => ({ status: 'cancelled', sequence: eb('sequence', '+', 1), updated_at: now }))
		.where('course_id', '=', courseId)
		.where('week_number', '>', weeks)
		.where('status', '=', 'scheduled')
		.where('rescheduled', '=', false)
		.where('starts_at', '>', now)
		.execute()
}

type WeekAndSession = { week: Database['course_materials']; session: Database['live_sessions'] }

/**
 * The join of a week (`course_materials as week`) to its live session (`live_sessions as session`),
 * the one sessionOpensAtSql reads: `.leftJoin('live_sessions as session', weekSessionJoin)`.
 */
export function weekSessionJoin<DB extends WeekAndSession, TB extends keyof DB>(join: JoinBuilder<DB, TB>) {
	// Kysely checks references only against concrete tables: the two this join names are those of WeekAndSession.
	const weekAndSession = join as unknown as JoinBuilder<WeekAndSession, 'week' | 'session'>
	return weekAndSession
		.onRef('session.course_id', '=', 'week.course_id')
		.onRef('session.week_number', '=', 'week.week_number') as unknown as JoinBuilder<DB, TB>
}

/**
 * SQL for the moment a week opens to students: its session's own opening, else the course's days
 * before the session; null (open) for a week without a session. For queries that join
 * `live_sessions as session` and `courses as course`.
 */
export const sessionOpensAtSql = sql<Date | null>`coalesce(session.opens_at, session.starts_at - make_interval(days => course.weeks_open_days_before))`

/**
 * SQL for a session's week topic or call link: from the first week row of that number, if the
 * admin made one; null otherwise. For queries that join `live_sessions as session`.
 */
export function sessionWeekSql(column: 'topic' | 'zoom_link') {
	return sql<
		string | null
	>`(SELECT ${sql.ref(`w.${column}`)} FROM course_materials w WHERE w.course_id = session.course_id AND w.week_number = session.week_number ORDER BY w.id LIMIT 1)`
}

/**
 * A session's course, week, times and status. For queries from `live_sessions as session` joined
 * to `courses as course`.
 */
export function sessionTimeColumns() {
	return [
		'session.course_id as courseId',
		'course.title as courseTitle',
		'session.week_number as weekNumber',
		'session.starts_at as startsAt',
		'session.ends_at as endsAt',
		'session.time_zone as timeZone',
		'session.status',
	] as const
}

/**
 * A session as a student's views show it (the dashboard's next session, the calendar feed): its
 * course, week, times, status and note, with the week's topic, and the week's and the course's
 * meeting links (`meetingLinkFor` picks one). For queries from `live_sessions as session` joined
 * to `courses as course`.
 */
export function sessionViewColumns() {
	return [
		...sessionTimeColumns(),
		'session.note',
		sessionWeekSql('topic').as('topic'),
		sessionWeekSql('zoom_link').as('weekLink'),
		'course.meeting_link as courseLink',
	] as const
}
