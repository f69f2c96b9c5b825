import { type Kysely, sql } from 'kysely'
import { COURSE_ACCESS_BY_STATUS } from '#app/models/materials/materials.ts'
import { planBlocksEnrollment } from '#app/models/payments/plan-access.server.ts'
import type { Database } from '#db/types.ts'
import { formatMoment, JOIN_OPENS_MINUTES_BEFORE, joinLinkOpen, meetingLinkFor } from './live-sessions.ts'
import { sessionWeekSql } from './session-schedule.server.ts'

/**
 * A student's side of attendance (docs/decisions/048): going through the app's join link records
 * the join, then sends them on to the meeting.
 */

export type JoinOutcome =
	| { kind: 'joined'; courseId: number; meetingUrl: string }
	| { kind: 'not-open-yet'; courseId: number; opensAt: string }
	| { kind: 'over' | 'cancelled' | 'no-link'; courseId: number }

/**
 * Joins a live session: for a student with full access to its course (an active enrolment) inside
 * the join window (from 15 minutes before the start until the end), records the join once — the
 * first click's moment in `session_joins`, and present from the join link in `attendance` unless a
 * report or an admin already said otherwise — and answers the meeting link. An admin passes
 * through without a record (they teach; they are on no roster). Null when the session does not
 * exist or the reader may not join it: the route answers 404, whatever the id.
 */
export async function joinLiveSession(
	db: Kysely<Database>,
	{
		sessionId,
		user,
		now = new Date(),
	}: { sessionId: number; user: { id: string; isAdmin: boolean; timeZone?: string | null }; now?: Date },
): Promise<JoinOutcome | null> {
	const session = await db
		.selectFrom('live_sessions as session')
		.innerJoin('courses as course', 'course.id', 'session.course_id')
		.leftJoin('enrollments', (join) =>
			join.onRef('enrollments.course_id', '=', 'session.course_id').on('enrollments.user_id', '=', user.id),
		)
		.select([
			'session.course_id as courseId',
			'session.starts_at as startsAt',
			'session.ends_at as endsAt',
			'session.status',
			'session.time_zone as timeZone',
			'enrollments.status as enrollmentStatus',
			planBlocksEnrollment.as('planBlocks'),
			sessionWeekSql('zoom_link').as('weekLink'),
			'course.meeting_link as courseLink',
		])
		.where('session.id', '=', sessionId)
		.executeTakeFirst()
	if (!session) return null
	// A payment plan paused for an overdue payment stops the live link too (docs/decisions/059).
	const fullAccess = session.enrollmentStatus && !session.planBlocks ? COURSE_ACCESS_BY_STATUS[session.enrollmentStatus] === 'full' : false
	if (!user.isAdmin && !fullAccess) return null
	const { courseId } = session
	const startsAt = new Date(session.startsAt)
	const endsAt = new Date(session.endsAt)
	if (!joinLinkOpen({ startsAt, endsAt, status: session.status }, now)) {
		if (session.status === 'cancelled') return { kind: 'cancelled', courseId }
		if (now >= endsAt) return { kind: 'over', courseId }
		const opensAt = new Date(startsAt.getTime() - JOIN_OPENS_MINUTES_BEFORE * 60_000)
		return { kind: 'not-open-yet', courseId, opensAt: formatMoment(opensAt, user.timeZone ?? session.timeZone) }
	}
	const meetingUrl = meetingLinkFor(session)
	if (!meetingUrl) return { kind: 'no-link', courseId }
	if (!user.isAdmin) await recordJoin(db, { sessionId, userId: user.id, now })
	return { kind: 'joined', courseId, meetingUrl }
}

/**
 * One join row however many clicks arrive at once (the key and ON CONFLICT), and present from the
 * join link only where nothing stronger is recorded: a report's or an admin's status stays.
 */
async function recordJoin(db: Kysely<Database>, { sessionId, userId, now }: { sessionId: number; userId: string; now: Date }) {
	await db.transaction().execute(async (trx) => {
		const first = await trx
			.insertInto('session_joins')
			.values({ live_session_id: sessionId, user_id: userId, joined_at: now })
			.onConflict((conflict) => conflict.doNothing())
			.returning('user_id')
			.executeTakeFirst()
		if (!first) return
		await trx
			.insertInto('attendance')
			.values({ live_session_id: sessionId, user_id: userId, status: 'present', source: 'join_link', updated_at: now })
			.onConflict((conflict) => conflict.doNothing())
			.execute()
	})
}

/**
 * The live minutes a student attended in a course, for a certificate to state: a report's minutes
 * where it gave them, else the session's own length for a present or late mark (joined or marked by
 * hand); absent and excused count nothing. Null for a course without live sessions, where the
 * certificate leaves the line out.
 */
export async function attendedLiveMinutes(db: Kysely<Database>, { userId, courseId }: { userId: string; courseId: number }) {
	const row = await db
		.selectFrom('live_sessions as session')
		.leftJoin('attendance', (join) => join.onRef('attendance.live_session_id', '=', 'session.id').on('attendance.user_id', '=', userId))
		.select((eb) => [
			eb.fn.countAll<string>().as('sessions'),
			sql<string>`coalesce(sum(CASE WHEN attendance.status IN ('present', 'late')
				THEN coalesce(attendance.minutes, round(extract(epoch FROM session.ends_at - session.starts_at) / 60)) ELSE 0 END), 0)`.as(
				'minutes',
			),
		])
		.where('session.course_id', '=', courseId)
		.where('session.status', '<>', 'cancelled')
		.executeTakeFirstOrThrow()
	return Number(row.sessions) === 0 ? null : Number(row.minutes)
}
