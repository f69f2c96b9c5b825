import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { recordAudit } from './audit-log.server.ts'
import {
	type AdminSessionView,
	type CourseSchedule,
	describeSchedule,
	formatMoment,
	formatSessionTime,
	JOIN_OPENS_MINUTES_BEFORE,
	joinLinkOpen,
	type NextLiveSession,
	type SessionStatus,
	weekOpensAt,
} from './live-sessions.ts'
import { safeExternalUrl } from './materials.ts'
import { sendSessionChangeNotices } from './session-emails.server.ts'
import { sessionTimesOn, sessionViewColumns, wallClockOf } from './session-schedule.server.ts'

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

export type CourseSessionSettings = CourseSchedule & { startDate: string; endDate: string | null }

function selectSessions(db: Kysely<Database>) {
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

function toSession(row: {
	id: number
	courseId: number
	weekNumber: number
	startsAt: Date | string
	endsAt: Date | string
	timeZone: string
	status: SessionStatus
	note: string | null
	sequence: number
	rescheduled: boolean
	opensAt: Date | null
}): LiveSession {
	return { ...row, startsAt: new Date(row.startsAt), endsAt: new Date(row.endsAt), opensAt: row.opensAt ? new Date(row.opensAt) : null }
}

export async function listCourseSessions(db: Kysely<Database>, courseId: number): Promise<LiveSession[]> {
	const rows = await selectSessions(db).where('course_id', '=', courseId).orderBy('week_number').execute()
	return rows.map(toSession)
}

export async function getCourseSession(db: Kysely<Database>, courseId: number, sessionId: number): Promise<LiveSession | null> {
	const row = await selectSessions(db).where('course_id', '=', courseId).where('id', '=', sessionId).executeTakeFirst()
	return row ? toSession(row) : null
}

export class SessionChangeError extends Error {}

/**
 * Moves and/or shortens one session (a new wall-clock date, start and length in its zone), or
 * cancels or restores it, with an optional note; the change counts in its SEQUENCE, the
 * schedule leaves it alone from now on, and every student with an active enrollment is mailed
 * a notice, all in one transaction. A session that already ended is history: refused.
 */
export async function changeSession(
	db: Kysely<Database>,
	{
		adminId,
		courseId,
		sessionId,
		change,
		now = new Date(),
	}: {
		adminId: string
		courseId: number
		sessionId: number
		change:
			| { kind: 'move'; date: string; startTime: string; minutes: number; note: string | null }
			| { kind: 'cancel'; note: string | null }
			| { kind: 'restore' }
		now?: Date
	},
) {
	return db.transaction().execute(async (trx) => {
		const before = await selectSessions(trx)
			.where('course_id', '=', courseId)
			.where('id', '=', sessionId)
			.forUpdate()
			.executeTakeFirst()
			.then((row) => (row ? toSession(row) : null))
		if (!before) return null
		if (before.endsAt <= now) throw new SessionChangeError('This session is over and can no longer be changed.')
		let set: { starts_at?: Date; ends_at?: Date; status: SessionStatus; note: string | null }
		if (change.kind === 'move') {
			const times = sessionTimesOn(change.date, change.startTime, change.minutes, before.timeZone)
			if (times.startsAt <= now) throw new SessionChangeError('Choose a start in the future.')
			set = { starts_at: times.startsAt, ends_at: times.endsAt, status: 'scheduled', note: change.note }
		} else if (change.kind === 'cancel') {
			set = { status: 'cancelled', note: change.note }
		} else {
			if (before.startsAt <= now) throw new SessionChangeError('A session that has started cannot be restored.')
			set = { status: 'scheduled', note: null }
		}
		const after = await trx
			.updateTable('live_sessions')
			.set((eb) => ({ ...set, rescheduled: true, sequence: eb('sequence', '+', 1), updated_at: now }))
			.where('id', '=', sessionId)
			.returning(['starts_at', 'ends_at', 'status', 'note'])
			.executeTakeFirstOrThrow()
		await recordAudit(trx, {
			actorId: adminId,
			action: `live_session.${change.kind}`,
			entity: 'live_session',
			entityId: sessionId,
			details: { before: { startsAt: before.startsAt, endsAt: before.endsAt, status: before.status, note: before.note }, after },
		})
		const unchanged =
			after.status === before.status &&
			new Date(after.starts_at).getTime() === before.startsAt.getTime() &&
			new Date(after.ends_at).getTime() === before.endsAt.getTime()
		if (!unchanged || change.kind !== 'restore') {
			await sendSessionChangeNotices(trx, { sessionId, previousStartsAt: before.startsAt, previousEndsAt: before.endsAt, now })
		}
		return { id: sessionId }
	})
}

/** Opens the session's week at `at` (now for 'open now'), or back to the course's default with null. */
export async function setWeekOpening(
	db: Kysely<Database>,
	{ adminId, courseId, sessionId, at }: { adminId: string; courseId: number; sessionId: number; at: Date | null },
) {
	return db.transaction().execute(async (trx) => {
		const row = await trx
			.updateTable('live_sessions')
			.set({ opens_at: at, updated_at: new Date() })
			.where('course_id', '=', courseId)
			.where('id', '=', sessionId)
			.returning('id')
			.executeTakeFirst()
		if (!row) return null
		await recordAudit(trx, { actorId: adminId, action: 'live_session.open', entity: 'live_session', entityId: sessionId, details: { at } })
		return row
	})
}

/** A course's time zone, schedule, opening and reminder settings as the course form shows them. */
export async function getCourseScheduleSettings(db: Kysely<Database>, courseId: number) {
	const row = await db
		.selectFrom('courses')
		.select([
			'time_zone',
			'schedule_weekday',
			'schedule_start_time',
			'schedule_minutes',
			'weeks_open_days_before',
			'reminder_first_minutes',
			'reminder_second_minutes',
			'announce_week_open',
		])
		.where('id', '=', courseId)
		.executeTakeFirst()
	if (!row) return null
	return {
		timeZone: row.time_zone,
		scheduleWeekday: row.schedule_weekday ? String(row.schedule_weekday) : undefined,
		scheduleStartTime: row.schedule_start_time?.slice(0, 5),
		scheduleMinutes: String(row.schedule_minutes ?? 60),
		weeksOpenDaysBefore: String(row.weeks_open_days_before),
		reminderFirstHours: String((row.reminder_first_minutes ?? 0) / 60),
		reminderSecondMinutes: String(row.reminder_second_minutes ?? 0),
		announceWeekOpen: row.announce_week_open,
	}
}

/** A course's sessions for the admin's list and editor, formatted in each session's zone. */
export async function listAdminSessions(db: Kysely<Database>, courseId: number, now: Date = new Date()): Promise<AdminSessionView[]> {
	const [sessions, course] = await Promise.all([
		listCourseSessions(db, courseId),
		db.selectFrom('courses').select('weeks_open_days_before').where('id', '=', courseId).executeTakeFirst(),
	])
	const daysBefore = course?.weeks_open_days_before ?? 0
	return sessions.map((session) => {
		const opensAt = weekOpensAt(session, daysBefore)
		const wall = wallClockOf(session.startsAt, session.timeZone)
		return {
			id: session.id,
			weekNumber: session.weekNumber,
			when: formatSessionTime(session.startsAt, session.endsAt, session.timeZone),
			status: session.status,
			note: session.note,
			rescheduled: session.rescheduled,
			opening: opensAt <= now ? 'Open' : `Opens ${formatMoment(opensAt, session.timeZone)}`,
			openedByAdmin: session.opensAt !== null,
			over: session.endsAt <= now,
			date: wall.date,
			startTime: wall.time,
			minutes: Math.round((session.endsAt.getTime() - session.startsAt.getTime()) / 60_000),
			timeZone: session.timeZone,
		}
	})
}

/** 'Tuesdays 7 pm ET, 8 sessions from 13 Jan' for a course with a schedule; null without one. */
export async function describeCourseSchedule(db: Kysely<Database>, courseId: number) {
	const row = await db
		.selectFrom('courses')
		.select((eb) => [
			'time_zone',
			'schedule_weekday',
			'schedule_start_time',
			'schedule_minutes',
			eb
				.selectFrom('live_sessions')
				.select((sub) => sub.fn.countAll<string>().as('n'))
				.whereRef('live_sessions.course_id', '=', 'courses.id')
				.where('live_sessions.status', '=', 'scheduled')
				.as('sessions'),
			eb
				.selectFrom('live_sessions')
				.select((sub) => sub.fn.min('live_sessions.starts_at').as('first'))
				.whereRef('live_sessions.course_id', '=', 'courses.id')
				.where('live_sessions.status', '=', 'scheduled')
				.as('firstStartsAt'),
		])
		.where('id', '=', courseId)
		.executeTakeFirst()
	if (!row?.schedule_weekday || !row.schedule_start_time || !row.schedule_minutes) return null
	return describeSchedule(
		{ weekday: row.schedule_weekday, startTime: row.schedule_start_time, minutes: row.schedule_minutes, timeZone: row.time_zone },
		{ count: Number(row.sessions ?? 0), firstStartsAt: row.firstStartsAt ? new Date(row.firstStartsAt) : null },
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
		joinUrl: joinLinkOpen({ startsAt, endsAt, status: next.status }, now) ? safeExternalUrl(next.zoomLink) : null,
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
