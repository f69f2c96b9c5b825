import { randomBytes } from 'node:crypto'
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import type { Kysely } from 'kysely'
import { Temporal } from 'temporal-polyfill'
import { tzlib_get_ical_block } from 'timezones-ical-library'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import type { Database, LiveSessionStatus } from '#db/types.ts'
import { isTimeZone, meetingLinkFor, sessionJoinPath } from './live-sessions.ts'
import { sessionViewColumns } from './session-schedule.server.ts'

/**
 * The private calendar feed of a student's live sessions (docs/decisions/031): an unguessable
 * token in the URL, replaced on reset; every session of the courses they are actively enrolled in,
 * past ones included, each with a UID that never changes and the SEQUENCE of its changes, so a
 * calendar updates a moved or cancelled session in place. Times carry their IANA zone (TZID with
 * its VTIMEZONE rules).
 */

export type FeedSession = {
	id: number
	courseId: number
	courseTitle: string
	weekNumber: number
	topic: string | null
	startsAt: Date
	endsAt: Date
	timeZone: string
	status: LiveSessionStatus
	note: string | null
	sequence: number
	/** The week's own meeting link and the course's: `meetingLinkFor` picks one. */
	weekLink: string | null
	courseLink: string | null
	updatedAt: Date
}

/** 64 hex digits, the shape of the token the database gives each new profile (migration 2026-11-28-0601). */
function newToken() {
	return randomBytes(32).toString('hex')
}

/** The student's feed token (every profile has one from the start: reading Settings writes nothing). */
export async function getCalendarToken(db: Kysely<Database>, userId: string) {
	const row = await db.selectFrom('profiles').select('calendar_token').where('id', '=', userId).executeTakeFirstOrThrow()
	return row.calendar_token
}

/** Replaces the token: the old URL stops working at once. */
export async function resetCalendarToken(db: Kysely<Database>, userId: string) {
	const token = newToken()
	await db.updateTable('profiles').set({ calendar_token: token, updated_at: new Date() }).where('id', '=', userId).execute()
	return token
}

/** Saves the student's time zone; null goes back to each course's own. An unknown zone is refused. */
export async function setTimeZone(db: Kysely<Database>, userId: string, timeZone: string | null) {
	if (timeZone !== null && !isTimeZone(timeZone)) throw new Error(`Unknown time zone: ${timeZone}`)
	await db.updateTable('profiles').set({ time_zone: timeZone, updated_at: new Date() }).where('id', '=', userId).execute()
}

function selectFeedSessions(db: Kysely<Database>) {
	return db
		.selectFrom('live_sessions as session')
		.innerJoin('courses as course', 'course.id', 'session.course_id')
		.select(['session.id', 'session.sequence', 'session.updated_at as updatedAt'])
		.select(sessionViewColumns())
		.orderBy('session.starts_at')
		.orderBy('session.id')
}

function toFeedSession(
	row: Omit<FeedSession, 'startsAt' | 'endsAt' | 'updatedAt'> & {
		startsAt: Date | string
		endsAt: Date | string
		updatedAt: Date | string
	},
) {
	return { ...row, startsAt: new Date(row.startsAt), endsAt: new Date(row.endsAt), updatedAt: new Date(row.updatedAt) }
}

/** The sessions of a feed token's owner (two queries, whatever the number of sessions); null for an unknown token. */
export async function listFeedSessions(db: Kysely<Database>, token: string): Promise<FeedSession[] | null> {
	const owner = await db.selectFrom('profiles').select('id').where('calendar_token', '=', token).executeTakeFirst()
	if (!owner) return null
	const rows = await selectFeedSessions(db)
		.innerJoin('enrollments', (join) =>
			join
				.onRef('enrollments.course_id', '=', 'session.course_id')
				.on('enrollments.user_id', '=', owner.id)
				.on('enrollments.status', '=', 'active'),
		)
		.execute()
	return rows.map(toFeedSession)
}

/** Every session of one course (the series attached to the enrolment receipt). */
export async function listCourseFeedSessions(db: Kysely<Database>, courseId: number): Promise<FeedSession[]> {
	const rows = await selectFeedSessions(db).where('session.course_id', '=', courseId).execute()
	return rows.map(toFeedSession)
}

/** A stable UID per session: it never changes, whatever is moved or renamed. */
function sessionUid(sessionId: number, siteUrl: string) {
	return `live-session-${sessionId}@${new URL(siteUrl).hostname}`
}

/** The iCalendar text of the sessions. */
export function renderCalendar(sessions: FeedSession[], { siteUrl, name }: { siteUrl: string; name: string }) {
	const calendar = ical({ name, prodId: { company: SITE_NAME, product: 'Live sessions' }, method: ICalCalendarMethod.PUBLISH })
	calendar.timezone({ name: null, generator: (zone) => tzlib_get_ical_block(zone)[0] ?? null })
	for (const session of sessions) {
		const zoned = (instant: Date) => Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(session.timeZone)
		// Through the app, which records the join (docs/decisions/048); only for a session with a meeting link.
		const joinUrl = meetingLinkFor(session) ? `${siteUrl}${sessionJoinPath(session.id)}` : null
		const courseUrl = `${siteUrl}/dashboard?course=${session.courseId}`
		const lines = [
			session.status === 'cancelled' ? `Cancelled.${session.note ? ` ${session.note}` : ''}` : session.note,
			joinUrl ? `Join: ${joinUrl}` : 'The join link will be in your dashboard.',
			`Course: ${courseUrl}`,
		].filter(Boolean)
		calendar.createEvent({
			id: sessionUid(session.id, siteUrl),
			sequence: session.sequence,
			start: zoned(session.startsAt),
			end: zoned(session.endsAt),
			timezone: session.timeZone,
			stamp: session.updatedAt,
			lastModified: session.updatedAt,
			summary: `${session.courseTitle}: week ${session.weekNumber}${session.topic ? `, ${session.topic}` : ''}`,
			description: lines.join('\n'),
			location: joinUrl ?? undefined,
			url: joinUrl ?? courseUrl,
			status: session.status === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
		})
	}
	return calendar.toString()
}
