import { type Kysely, sql } from 'kysely'
import { isCourseStaff } from '#app/models/courses/course-staff.server.ts'
import { planBlocksEnrollment } from '#app/models/payments/plan-access.server.ts'
import {
	formatSessionDay,
	formatSessionTime,
	JOIN_OPENS_MINUTES_BEFORE,
	joinLinkOpen,
	meetingLinkFor,
} from '#app/models/sessions/live-sessions.ts'
import { sessionOpensAtSql, weekSessionJoin } from '#app/models/sessions/session-schedule.server.ts'
import type { Database } from '#db/types.ts'
import {
	type AccessibleCourse,
	COURSE_ACCESS_BY_STATUS,
	type CourseAccess,
	type CourseWeek,
	type CourseWeekList,
	type MaterialItemDetail,
	type MaterialListItem,
	type MaterialReader,
	materialKind,
	READING_STATUSES,
	RECENT_WEEKS,
	type WeekSession,
} from './materials.ts'

/**
 * How the user may use a course (docs/decisions/035): an admin fully, any existing course; anyone
 * else as their enrolment's status allows (active: fully, completed: read-only) and its payment
 * plan (docs/decisions/059); null: not at all.
 */
export async function courseAccess(db: Kysely<Database>, user: MaterialReader, courseId: number): Promise<CourseAccess | null> {
	if (user.isAdmin) {
		const course = await db.selectFrom('courses').select('id').where('id', '=', courseId).executeTakeFirst()
		return course ? 'full' : null
	}
	const enrollment = await db
		.selectFrom('enrollments')
		.select(['status', planBlocksEnrollment.as('planBlocks')])
		.where('user_id', '=', user.id)
		.where('course_id', '=', courseId)
		.executeTakeFirst()
	// A payment plan paused for an overdue payment, or not paid in full by an alumnus, stops access (docs/decisions/059).
	if (!enrollment || enrollment.planBlocks) return null
	return COURSE_ACCESS_BY_STATUS[enrollment.status] ?? null
}

/**
 * The reader as a course's materials see them: an instructor who teaches the course reads it as an
 * admin does (every week, open or not, and no first opens recorded), for that course only
 * (docs/decisions/056); anyone else is the reader they are.
 */
export async function readerOfCourse<Reader extends MaterialReader>(db: Kysely<Database>, reader: Reader, courseId: number) {
	if (reader.isAdmin || !(await isCourseStaff(db, reader.id, courseId))) return reader
	return { ...reader, isAdmin: true }
}

/** Whether the user may read a course's materials and files (full or read-only access). */
export async function canAccessCourse(db: Kysely<Database>, user: MaterialReader, courseId: number) {
	return (await courseAccess(db, user, courseId)) !== null
}

/**
 * The courses whose materials the user may see, in one query: every course for an admin,
 * those with an active or completed enrollment otherwise. The most recent active enrollment
 * comes first (it is the default selection), then completed ones, then the rest by title.
 */
export async function listAccessibleCourses(db: Kysely<Database>, user: MaterialReader): Promise<AccessibleCourse[]> {
	let query = db
		.selectFrom('courses')
		.leftJoin('enrollments', (join) =>
			join
				.onRef('enrollments.course_id', '=', 'courses.id')
				.on('enrollments.user_id', '=', user.id)
				.on('enrollments.status', 'in', READING_STATUSES)
				.on(sql<boolean>`NOT ${planBlocksEnrollment}`),
		)
		.select(['courses.id', 'courses.title', 'enrollments.enrollment_date', 'enrollments.status'])
	if (!user.isAdmin) query = query.where('enrollments.id', 'is not', null)
	const rows = await query
		.orderBy(sql`enrollments.status = 'active'`, (order) => order.desc().nullsLast())
		.orderBy('enrollments.enrollment_date', (order) => order.desc().nullsLast())
		.orderBy('courses.title')
		.orderBy('courses.id')
		.execute()
	return rows.map((row) => ({
		id: row.id,
		title: row.title,
		enrolled: row.enrollment_date !== null,
		readOnly: !user.isAdmin && row.status !== null && COURSE_ACCESS_BY_STATUS[row.status] === 'read-only',
	}))
}

/** An item's title, kind and file, as every reader of `material_items as item` shows it. */
const itemColumns = [
	'item.title',
	'item.type',
	'item.category',
	'item.storage_key as storageKey',
	'item.mime_type as mimeType',
	'item.file_url as fileUrl',
	'item.size_bytes as sizeBytes',
] as const

/**
 * Weeks joined with their items, the columns every week list reads (a week without items
 * gives one row whose item columns are null); callers choose the weeks and the order.
 */
export function selectWeeksWithItems(db: Kysely<Database>) {
	return db
		.selectFrom('course_materials as week')
		.leftJoin('material_items as item', 'item.material_id', 'week.id')
		.innerJoin('courses as course', 'course.id', 'week.course_id')
		.leftJoin('live_sessions as session', weekSessionJoin)
		.select([
			'session.id as sessionId',
			'session.starts_at as sessionStartsAt',
			'session.ends_at as sessionEndsAt',
			'session.time_zone as sessionZone',
			'session.status as sessionStatus',
			'session.note as sessionNote',
			sessionOpensAtSql.as('opensAt'),
			'week.id as weekId',
			'week.week_number as weekNumber',
			'week.topic',
			'week.zoom_link as zoomLink',
			'course.meeting_link as courseMeetingLink',
			'item.id as itemId',
			...itemColumns,
		])
}

/**
 * A course's weeks, the open ones newest first and then those not open yet (the next first), each
 * with its class materials and recordings sorted by title: RECENT_WEEKS of them in that order unless
 * `all` is asked for. One query, whatever the number
 * of weeks and files. An alumnus's list has no live links (`liveLinks: false`, decision 035).
 */
export async function getCourseWeeks(
	db: Kysely<Database>,
	courseId: number,
	{
		all = false,
		liveLinks = true,
		reader = { id: '', isAdmin: false },
		now = new Date(),
	}: { all?: boolean; liveLinks?: boolean; reader?: MaterialReader; now?: Date } = {},
): Promise<CourseWeekList> {
	// Open weeks newest first, then the weeks not open yet, the next to open first (issue 39 point 7):
	// the current week leads the list instead of sitting below the locked ones.
	const notOpenYet = sql<boolean>`coalesce(${sessionOpensAtSql} > ${now}, false)`
	const weekOrder = sql<number>`CASE WHEN ${notOpenYet} THEN week.week_number ELSE -week.week_number END`
	const listedWeekIds = db
		.selectFrom('course_materials as week')
		.innerJoin('courses as course', 'course.id', 'week.course_id')
		.leftJoin('live_sessions as session', weekSessionJoin)
		.select('week.id')
		.where('week.course_id', '=', courseId)
		.orderBy(notOpenYet)
		.orderBy(weekOrder)
		.orderBy('week.id', 'desc')
		.$if(!all, (query) => query.limit(RECENT_WEEKS))
	const rows = await selectWeeksWithItems(db)
		.select((eb) =>
			eb.selectFrom('course_materials').select(eb.fn.countAll<string>().as('count')).where('course_id', '=', courseId).as('totalWeeks'),
		)
		.where('week.id', 'in', listedWeekIds)
		.orderBy(notOpenYet)
		.orderBy(weekOrder)
		.orderBy('week.id', 'desc')
		.orderBy('item.title')
		.orderBy('item.id')
		.execute()

	const weeks: CourseWeek[] = []
	for (const row of rows) {
		let week = weeks.at(-1)
		if (week?.id !== row.weekId) {
			const opensAt = row.opensAt ? new Date(row.opensAt) : null
			const zone = reader.timeZone ?? row.sessionZone ?? 'UTC'
			const closed = opensAt !== null && opensAt > now
			week = {
				id: row.weekId,
				weekNumber: row.weekNumber,
				topic: row.topic,
				zoomLink: liveLinks ? meetingLinkFor({ weekLink: row.zoomLink, courseLink: row.courseMeetingLink }) : null,
				session: weekSessionOf(row, zone, now),
				opensOn: closed ? formatSessionDay(opensAt, zone) : null,
				filesHidden: isClosedTo(reader, { opensAt }, now),
				materials: [],
				recordings: [],
			}
			weeks.push(week)
		}
		if (week.filesHidden) continue
		if (row.itemId === null || row.title === null || row.type === null || row.category === null) continue
		const item: MaterialListItem = {
			id: row.itemId,
			title: row.title,
			type: row.type,
			kind: materialKind(row),
			sizeBytes: row.sizeBytes,
		}
		;(row.category === 'recording' ? week.recordings : week.materials).push(item)
	}
	return { weeks, totalWeeks: Number(rows[0]?.totalWeeks ?? 0) }
}

function weekSessionOf(
	row: {
		sessionId: number | null
		sessionStartsAt: Date | string | null
		sessionEndsAt: Date | string | null
		sessionStatus: 'scheduled' | 'cancelled' | null
		sessionNote: string | null
	},
	zone: string,
	now: Date,
): WeekSession | null {
	if (!row.sessionId || !row.sessionStartsAt || !row.sessionEndsAt || !row.sessionStatus) return null
	const startsAt = new Date(row.sessionStartsAt)
	const endsAt = new Date(row.sessionEndsAt)
	return {
		id: row.sessionId,
		when: formatSessionTime(startsAt, endsAt, zone),
		status: row.sessionStatus,
		note: row.sessionNote,
		joinOpen: joinLinkOpen({ startsAt, endsAt, status: row.sessionStatus }, now),
		joinOpensAt: new Date(startsAt.getTime() - JOIN_OPENS_MINUTES_BEFORE * 60_000).toISOString(),
		over: endsAt <= now,
	}
}

/** One item with its week and course; null when it does not exist. */
export async function getMaterialItem(db: Kysely<Database>, itemId: number): Promise<MaterialItemDetail | null> {
	const row = await db
		.selectFrom('material_items as item')
		.innerJoin('course_materials as week', 'week.id', 'item.material_id')
		.innerJoin('courses as course', 'course.id', 'week.course_id')
		.leftJoin('live_sessions as session', weekSessionJoin)
		.select([
			sessionOpensAtSql.as('opensAt'),
			'item.id',
			...itemColumns,
			'item.preview_status as previewStatus',
			'item.preview_for_key as previewForKey',
			'week.id as weekId',
			'week.week_number as weekNumber',
			'week.topic',
			'week.course_id as courseId',
		])
		.where('item.id', '=', itemId)
		.executeTakeFirst()
	return row ? { ...row, opensAt: row.opensAt ? new Date(row.opensAt) : null } : null
}

/** Whether the week of an item is still closed to this reader: students wait for its opening, admins never do. */
export function isClosedTo(reader: MaterialReader, item: { opensAt: Date | null }, now: Date = new Date()) {
	return !reader.isAdmin && item.opensAt !== null && item.opensAt > now
}
