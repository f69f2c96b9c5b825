import { type Kysely, sql } from 'kysely'
import { createElement } from 'react'
import { href } from 'react-router'
import { type SessionChange, SessionChangedEmail, sessionChangedSubject } from '#app/emails/session-changed.tsx'
import { SessionReminderEmail, sessionReminderSubject } from '#app/emails/session-reminder.tsx'
import { WeekOpenEmail, weekOpenSubject } from '#app/emails/week-open.tsx'
import { emailSite, enqueueEmail, siteUrl } from '#app/models/messaging/emails.server.ts'
import type { Database } from '#db/types.ts'
import {
	dueReminderLead,
	formatSessionTime,
	meetingLinkFor,
	passedReminderLeads,
	reminderMinutesToName,
	sessionJoinPath,
} from './live-sessions.ts'
import { sessionOpensAtSql, sessionWeekSql } from './session-schedule.server.ts'

/** How long after a week opened its 'Week N is open' mail may still go (a restart catches up; old weeks stay quiet). */
const WEEK_OPEN_NOTICE_WINDOW_HOURS = 24

function dashboardUrl(courseId: number) {
	return `${siteUrl()}${href('/dashboard')}?course=${courseId}`
}

/** Students with an active enrollment in the session's course, with what their mail needs. */
function activeStudentsOf(db: Kysely<Database>) {
	return db
		.selectFrom('live_sessions as session')
		.innerJoin('courses as course', 'course.id', 'session.course_id')
		.innerJoin('enrollments', (join) =>
			join.onRef('enrollments.course_id', '=', 'session.course_id').on('enrollments.status', '=', 'active'),
		)
		.innerJoin('users', 'users.id', 'enrollments.user_id')
		.innerJoin('profiles', 'profiles.id', 'enrollments.user_id')
		.select([
			'session.course_id as courseId',
			'session.week_number as weekNumber',
			'session.starts_at as startsAt',
			'session.ends_at as endsAt',
			'session.time_zone as sessionZone',
			'course.title',
			'users.email',
			'profiles.name',
			'profiles.time_zone as userZone',
			sessionWeekSql('topic').as('topic'),
		])
}

/**
 * The notice of a moved, shortened, cancelled or restored session, to every student with an
 * active enrollment (whatever their reminder switch: a change is not a reminder), each with the
 * times in their own zone. In the transaction of the change. The notice stands for every reminder
 * whose moment has already come at the new time: those are recorded as sent, so a session moved
 * to tomorrow does not get a second 'in 24 hours' minutes after its notice.
 */
export async function sendSessionChangeNotices(
	db: Kysely<Database>,
	{ sessionId, previousStartsAt, previousEndsAt, now }: { sessionId: number; previousStartsAt: Date; previousEndsAt: Date; now: Date },
) {
	const rows = await activeStudentsOf(db)
		.select([
			'session.status',
			'session.note',
			'course.reminder_first_minutes as first',
			'course.reminder_second_minutes as second',
			'users.id as userId',
		])
		.where('session.id', '=', sessionId)
		.execute()
	const site = await emailSite(db)
	for (const row of rows) {
		const zone = row.userZone ?? row.sessionZone
		const startsAt = new Date(row.startsAt)
		const endsAt = new Date(row.endsAt)
		const moved = startsAt.getTime() !== previousStartsAt.getTime() || endsAt.getTime() !== previousEndsAt.getTime()
		const change: SessionChange = row.status === 'cancelled' ? 'cancelled' : moved ? 'moved' : 'restored'
		await enqueueEmail(db, {
			to: row.email,
			subject: sessionChangedSubject({ change, courseTitle: row.title, weekNumber: row.weekNumber }),
			body: createElement(SessionChangedEmail, {
				site,
				name: row.name,
				change,
				courseTitle: row.title,
				weekNumber: row.weekNumber,
				when: formatSessionTime(startsAt, endsAt, zone),
				previously: moved ? formatSessionTime(previousStartsAt, previousEndsAt, zone) : null,
				note: row.note,
				dashboardUrl: dashboardUrl(row.courseId),
			}),
		})
		const coveredLeads = row.status === 'scheduled' ? passedReminderLeads(startsAt, [row.first, row.second], now) : []
		if (coveredLeads.length > 0) {
			await db
				.insertInto('session_reminders')
				.values(coveredLeads.map((lead_minutes) => ({ session_id: sessionId, user_id: row.userId, lead_minutes, starts_at: startsAt })))
				.onConflict((conflict) => conflict.doNothing())
				.execute()
		}
	}
}

/**
 * Queues every reminder that is due at `now` (docs/decisions/032): for each scheduled session
 * that has not started and each student with an active enrollment and reminders on, the
 * reminder whose lead time has come most recently. Each is recorded in `session_reminders`
 * (one row per student, session, lead time and start) in the same transaction as its mail, and
 * only a row this call inserted is mailed: two processes running this at once send one mail.
 * A reminder missed while nothing ran, or due before the student enrolled, is sent late only while
 * the session has not started, and then names the time left (`reminderMinutesToName`); a longer
 * lead time passed over by a shorter one is recorded as done and not sent.
 */
export async function sendDueReminders(db: Kysely<Database>, now: Date = new Date()) {
	return db.transaction().execute(async (trx) => {
		const rows = await activeStudentsOf(trx)
			.select([
				'session.id as sessionId',
				'course.meeting_link as courseLink',
				'course.reminder_first_minutes as first',
				'course.reminder_second_minutes as second',
				'users.id as userId',
			])
			.select(sessionWeekSql('zoom_link').as('weekLink'))
			.where('profiles.email_reminders', '=', true)
			.where('session.status', '=', 'scheduled')
			.where('session.starts_at', '>', now)
			.where(
				sql<boolean>`session.starts_at <= ${now}::timestamptz + make_interval(mins => greatest(course.reminder_first_minutes, course.reminder_second_minutes))`,
			)
			.orderBy('session.starts_at')
			.orderBy('users.id')
			.execute()
		const site = await emailSite(trx)
		let sent = 0
		for (const row of rows) {
			const startsAt = new Date(row.startsAt)
			const lead = dueReminderLead(startsAt, [row.first, row.second], now)
			if (lead === null) continue
			const passed = [row.first, row.second].filter((other): other is number => other !== null && other >= lead)
			const recorded = await trx
				.insertInto('session_reminders')
				.values(passed.map((lead_minutes) => ({ session_id: row.sessionId, user_id: row.userId, lead_minutes, starts_at: startsAt })))
				.onConflict((conflict) => conflict.doNothing())
				.returning('lead_minutes')
				.execute()
			if (!recorded.some((inserted) => inserted.lead_minutes === lead)) continue
			const named = reminderMinutesToName(startsAt, lead, now)
			await enqueueEmail(trx, {
				to: row.email,
				subject: sessionReminderSubject({ courseTitle: row.title, weekNumber: row.weekNumber, leadMinutes: named }),
				body: createElement(SessionReminderEmail, {
					site,
					name: row.name,
					courseTitle: row.title,
					weekNumber: row.weekNumber,
					topic: row.topic,
					when: formatSessionTime(startsAt, new Date(row.endsAt), row.userZone ?? row.sessionZone),
					leadMinutes: named,
					joinUrl: meetingLinkFor(row) ? `${site.url}${sessionJoinPath(row.sessionId)}` : null,
					dashboardUrl: dashboardUrl(row.courseId),
					settingsUrl: `${site.url}${href('/dashboard/settings')}`,
				}),
			})
			sent++
		}
		return { sent }
	})
}

/**
 * 'Week N is open' to the active students of courses that announce openings, once per session:
 * the session row is claimed (`open_notice_sent_at`) by the update that finds it, so a second
 * process finds nothing. Weeks that opened more than a day ago are not announced late.
 */
export async function sendWeekOpenNotices(db: Kysely<Database>, now: Date = new Date()) {
	return db.transaction().execute(async (trx) => {
		const opensAt = sessionOpensAtSql
		const claimed = await trx
			.updateTable('live_sessions as session')
			.from('courses as course')
			.set({ open_notice_sent_at: now })
			.whereRef('course.id', '=', 'session.course_id')
			.where('course.announce_week_open', '=', true)
			.where('session.open_notice_sent_at', 'is', null)
			.where(sql<boolean>`${opensAt} <= ${now}::timestamptz`)
			.where(sql<boolean>`${opensAt} > ${now}::timestamptz - make_interval(hours => ${WEEK_OPEN_NOTICE_WINDOW_HOURS})`)
			.where('session.starts_at', '>', now)
			.returning('session.id')
			.execute()
		if (claimed.length === 0) return { sent: 0 }
		const rows = await activeStudentsOf(trx)
			.select('session.status')
			.where(
				'session.id',
				'in',
				claimed.map((row) => row.id),
			)
			.execute()
		const site = await emailSite(trx)
		for (const row of rows) {
			await enqueueEmail(trx, {
				to: row.email,
				subject: weekOpenSubject({ courseTitle: row.title, weekNumber: row.weekNumber }),
				body: createElement(WeekOpenEmail, {
					site,
					name: row.name,
					courseTitle: row.title,
					weekNumber: row.weekNumber,
					topic: row.topic,
					sessionWhen:
						row.status === 'scheduled'
							? formatSessionTime(new Date(row.startsAt), new Date(row.endsAt), row.userZone ?? row.sessionZone)
							: null,
					dashboardUrl: dashboardUrl(row.courseId),
				}),
			})
		}
		return { sent: rows.length }
	})
}
