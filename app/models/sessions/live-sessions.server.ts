import type { ExpressionBuilder, Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import {
	describeSchedule,
	formatSessionTime,
	JOIN_OPENS_MINUTES_BEFORE,
	joinLinkOpen,
	meetingLinkFor,
	type NextLiveSession,
	type SessionStatus,
	sessionJoinPath,
} from './live-sessions.ts'
import { sessionViewColumns } from './session-schedule.server.ts'

export type LiveSession = {
	id: number
	courseId: number
	weekNumber: number
	startsAt: Date
	endsAt: Date
	/** The IANA zone it was planned in (the course's). */
	timeZone: string
	status: SessionStatus
	note: string | null
	sequence: number
	rescheduled: boolean
	/** The admin's opening moment, or null for the course's default. */
	opensAt: Date | null
}

export function selectSessions(db: Kysely<Database>) {
	return db
		.selectFrom('live_sessions')
		.select([
			'id',
			'course_id as courseId',
			'week_number as weekNumber',
			'starts_at as startsAt',
			'ends_at as endsAt',
			'time_zone as timeZone',
			'status',
			'note',
			'sequence',
			'rescheduled',
			'opens_at as opensAt',
		])
}

/** A session as read: its times may come as strings. */
export function toSession(row: Omit<LiveSession, 'startsAt' | 'endsAt'> & { startsAt: Date | string; endsAt: Date | string }): LiveSession {
	return { ...row, startsAt: new Date(row.startsAt), endsAt: new Date(row.endsAt), opensAt: row.opensAt ? new Date(row.opensAt) : null }
}

export async function listCourseSessions(db: Kysely<Database>, courseId: number): Promise<LiveSession[]> {
	const rows = await selectSessions(db).where('course_id', '=', courseId).orderBy('week_number').execute()
	return rows.map(toSession)
}

/** A course's scheduled (not cancelled) sessions. For queries from `courses`. */
function scheduledSessionsOf(eb: ExpressionBuilder<Database, 'courses'>) {
	return eb
		.selectFrom('live_sessions')
		.whereRef('live_sessions.course_id', '=', 'courses.id')
		.where('live_sessions.status', '=', 'scheduled')
}

/** How many sessions of a course are scheduled, as `sessionCount`: the course's weeks where it has a schedule. */
export function scheduledSessionCount(eb: ExpressionBuilder<Database, 'courses'>) {
	return scheduledSessionsOf(eb)
		.select((sub) => sub.fn.countAll<string>().as('n'))
		.as('sessionCount')
}

/** What a course's schedule line reads of its sessions: how many are scheduled, and when the first of them starts. */
export function scheduledSessionsColumns(eb: ExpressionBuilder<Database, 'courses'>) {
	return [
		scheduledSessionCount(eb),
		scheduledSessionsOf(eb)
			.select((sub) => sub.fn.min('live_sessions.starts_at').as('first'))
			.as('firstSessionAt'),
	] as const
}

/** 'Tuesdays 7 pm ET, 8 sessions from 13 Jan' of a course row read with `scheduledSessionsColumns`; null without a schedule. */
export function courseScheduleLine(row: {
	time_zone: string
	schedule_weekday: number | null
	schedule_start_time: string | null
	schedule_minutes: number | null
	sessionCount: string | number | null
	firstSessionAt: Date | string | null
}) {
	if (!row.schedule_weekday || !row.schedule_start_time || !row.schedule_minutes) return null
	return describeSchedule(
		{ weekday: row.schedule_weekday, startTime: row.schedule_start_time, minutes: row.schedule_minutes, timeZone: row.time_zone },
		{ count: Number(row.sessionCount ?? 0), firstStartsAt: row.firstSessionAt ? new Date(row.firstSessionAt) : null },
	)
}

/**
 * The next live session of the courses a student is actively enrolled in (one query, however
 * many sessions): the first that has not ended, and, when that one is cancelled, the first
 * after it that takes place. Times in the student's zone, else the course's.
 */
export async function getNextLiveSession(
	db: Kysely<Database>,
	reader: { id: string; timeZone: string | null },
	now: Date = new Date(),
): Promise<NextLiveSession | null> {
	const rows = await db
		.selectFrom('live_sessions as session')
		.innerJoin('enrollments', (join) =>
			join
				.onRef('enrollments.course_id', '=', 'session.course_id')
				.on('enrollments.user_id', '=', reader.id)
				.on('enrollments.status', '=', 'active'),
		)
		.innerJoin('courses as course', 'course.id', 'session.course_id')
		.select('session.id as sessionId')
		.select(sessionViewColumns())
		.where('session.ends_at', '>', now)
		.orderBy('session.starts_at')
		.orderBy('session.id')
		.limit(NEXT_SESSION_LOOKAHEAD)
		.execute()
	const next = rows[0]
	if (!next) return null
	const zone = (row: { timeZone: string }) => reader.timeZone ?? row.timeZone
	const startsAt = new Date(next.startsAt)
	const endsAt = new Date(next.endsAt)
	const following = next.status === 'cancelled' ? rows.find((row) => row.status === 'scheduled') : undefined
	return {
		courseId: next.courseId,
		courseTitle: next.courseTitle,
		weekNumber: next.weekNumber,
		topic: next.topic,
		when: formatSessionTime(startsAt, endsAt, zone(next)),
		status: next.status,
		note: next.note,
		joinUrl: joinLinkOpen({ startsAt, endsAt, status: next.status }, now) && meetingLinkFor(next) ? sessionJoinPath(next.sessionId) : null,
		joinOpensAt: new Date(startsAt.getTime() - JOIN_OPENS_MINUTES_BEFORE * 60_000).toISOString(),
		following: following
			? {
					weekNumber: following.weekNumber,
					when: formatSessionTime(new Date(following.startsAt), new Date(following.endsAt), zone(following)),
				}
			: null,
	}
}

/** Sessions read to find the next one that takes place after a cancelled one. */
const NEXT_SESSION_LOOKAHEAD = 10
