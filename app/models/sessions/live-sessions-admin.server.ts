/** The admin's side of live sessions (docs/decisions/031): moving, cancelling and restoring one, a week's opening, the schedule's settings and the admin's list. */

import type { Kysely } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { Database } from '#db/types.ts'
import { courseScheduleLine, listCourseSessions, scheduledSessionsColumns, selectSessions, toSession } from './live-sessions.server.ts'
import { type AdminSessionView, formatMoment, formatSessionTime, type SessionStatus, weekOpensAt } from './live-sessions.ts'
import { sendSessionChangeNotices } from './session-emails.server.ts'
import { sessionTimesOn, sessionWeekSql, wallClockOf } from './session-schedule.server.ts'

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
			'meeting_link',
			'attendance_present_percent',
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
		meetingLink: row.meeting_link ?? '',
		attendancePresentPercent: String(row.attendance_present_percent),
	}
}

/** A course's sessions for the admin's list and editor, formatted in each session's zone, each with its week's topic. */
export async function listAdminSessions(db: Kysely<Database>, courseId: number, now: Date = new Date()): Promise<AdminSessionView[]> {
	const [sessions, course, topics] = await Promise.all([
		listCourseSessions(db, courseId),
		db.selectFrom('courses').select('weeks_open_days_before').where('id', '=', courseId).executeTakeFirst(),
		db
			.selectFrom('live_sessions as session')
			.select(['session.id', sessionWeekSql('topic').as('topic')])
			.where('session.course_id', '=', courseId)
			.execute(),
	])
	const daysBefore = course?.weeks_open_days_before ?? 0
	const topicOf = new Map(topics.map((row) => [row.id, row.topic]))
	return sessions.map((session) => {
		const opensAt = weekOpensAt(session, daysBefore)
		const wall = wallClockOf(session.startsAt, session.timeZone)
		return {
			id: session.id,
			weekNumber: session.weekNumber,
			topic: topicOf.get(session.id) ?? null,
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
		.select((eb) => ['time_zone', 'schedule_weekday', 'schedule_start_time', 'schedule_minutes', ...scheduledSessionsColumns(eb)])
		.where('id', '=', courseId)
		.executeTakeFirst()
	return row ? courseScheduleLine(row) : null
}
