import { stringify } from 'csv-stringify/sync'
import { type Kysely, sql } from 'kysely'
import { READING_STATUSES } from '#app/models/materials/materials.ts'
import { sessionOpensAtSql, weekSessionJoin } from '#app/models/sessions/session-schedule.server.ts'
import { CSV_OPTIONS } from '#app/utils/csv.server.ts'
import type { Database } from '#db/types.ts'
import { attended, type CourseRoster, coursePhase, type RosterCell, type RosterRow, type RosterWeek, riskFlags } from './progress.ts'

/**
 * A course's progress roster (docs/decisions/051): its students (active or completed) × its weeks,
 * with the risk flags. A fixed number of set-based queries, however many students, weeks or rows:
 * the course, then its students, weeks, sessions, assignments, first opens, attendance and
 * submissions at once; the rest is put together here. Null: no such course.
 */
export async function getCourseRoster(db: Kysely<Database>, courseId: number, now = new Date()): Promise<CourseRoster | null> {
	const course = await db
		.selectFrom('courses')
		.select(['id', 'title', 'start_date as startDate', 'end_date as endDate', 'time_zone as timeZone'])
		.where('id', '=', courseId)
		.executeTakeFirst()
	if (!course) return null

	const [students, weekRows, sessions, assignments, opens, attendanceRows, submissions] = await Promise.all([
		db
			.selectFrom('enrollments')
			.innerJoin('users', 'users.id', 'enrollments.user_id')
			.innerJoin('profiles', 'profiles.id', 'enrollments.user_id')
			.select(['users.id as userId', 'profiles.name', 'users.email', 'enrollments.enrollment_date as enrolledAt'])
			.where('enrollments.course_id', '=', courseId)
			.where('enrollments.status', 'in', READING_STATUSES)
			.execute(),
		db
			.selectFrom('course_materials as week')
			.innerJoin('courses as course', 'course.id', 'week.course_id')
			.leftJoin('live_sessions as session', weekSessionJoin)
			.leftJoin('material_items as item', 'item.material_id', 'week.id')
			.select([
				'week.week_number as weekNumber',
				sql<string>`count(DISTINCT item.id)`.as('materials'),
				sql<boolean>`bool_and(${sessionOpensAtSql} IS NULL OR ${sessionOpensAtSql} <= ${now})`.as('open'),
			])
			.where('week.course_id', '=', courseId)
			.groupBy('week.week_number')
			.execute(),
		db
			.selectFrom('live_sessions as s')
			.select([
				's.id',
				's.week_number as weekNumber',
				's.starts_at as startsAt',
				's.ends_at as endsAt',
				sql<boolean>`EXISTS (SELECT 1 FROM attendance att WHERE att.live_session_id = s.id)`.as('taken'),
			])
			.where('s.course_id', '=', courseId)
			.where('s.status', '=', 'scheduled')
			.orderBy('s.starts_at')
			.execute(),
		db
			.selectFrom('assignments as a')
			.leftJoin('course_materials as week', 'week.id', 'a.week_id')
			.select(['a.id', 'a.title', 'week.week_number as weekNumber', 'a.due_at as dueAt'])
			.where('a.course_id', '=', courseId)
			.orderBy('a.due_at', (order) => order.asc().nullsLast())
			.orderBy('a.id')
			.execute(),
		db
			.selectFrom('material_opens as opened')
			.innerJoin('material_items as item', 'item.id', 'opened.material_item_id')
			.innerJoin('course_materials as week', 'week.id', 'item.material_id')
			.select([
				'opened.user_id as userId',
				'week.week_number as weekNumber',
				sql<string>`count(*)`.as('opened'),
				sql<Date>`max(opened.first_opened_at)`.as('lastOpenedAt'),
			])
			.where('week.course_id', '=', courseId)
			.groupBy(['opened.user_id', 'week.week_number'])
			.execute(),
		db
			.selectFrom('attendance as att')
			.innerJoin('live_sessions as s', 's.id', 'att.live_session_id')
			.select(['att.user_id as userId', 'att.live_session_id as sessionId', 'att.status'])
			.where('s.course_id', '=', courseId)
			.execute(),
		db
			.selectFrom('assignment_submissions as x')
			.innerJoin('assignments as a', 'a.id', 'x.assignment_id')
			.select(['x.student_id as userId', 'x.assignment_id as assignmentId', 'x.status'])
			.where('a.course_id', '=', courseId)
			.execute(),
	])

	const heldSessions = sessions.filter((session) => session.endsAt <= now)
	const weekNumbers = [...new Set([...weekRows.map((week) => week.weekNumber), ...sessions.map((session) => session.weekNumber)])].sort(
		(a, b) => a - b,
	)
	const weeks: RosterWeek[] = weekNumbers.map((weekNumber) => {
		const row = weekRows.find((week) => week.weekNumber === weekNumber)
		const session = sessions.find((one) => one.weekNumber === weekNumber)
		return {
			weekNumber,
			materials: Number(row?.materials ?? 0),
			open: row?.open ?? false,
			session: session
				? { id: session.id, weekNumber, startsAt: session.startsAt, endsAt: session.endsAt, held: session.endsAt <= now }
				: null,
			assignments: assignments.filter((assignment) => assignment.weekNumber === weekNumber),
		}
	})
	const rules = {
		takenSessions: heldSessions.filter((session) => session.taken),
		assignments,
		openMaterials: weeks.filter((week) => week.open).reduce((sum, week) => sum + week.materials, 0),
	}

	const rows = students.map((student): RosterRow => {
		const ownOpens = opens.filter((row) => row.userId === student.userId)
		const openedByWeek = new Map(ownOpens.map((row) => [row.weekNumber, Number(row.opened)]))
		const lastOpenedAt = ownOpens.reduce<Date | null>(
			(latest, row) => (latest && latest >= new Date(row.lastOpenedAt) ? latest : new Date(row.lastOpenedAt)),
			null,
		)
		const attendance = new Map(attendanceRows.filter((row) => row.userId === student.userId).map((row) => [row.sessionId, row.status]))
		const ownSubmissions = new Map(submissions.filter((row) => row.userId === student.userId).map((row) => [row.assignmentId, row.status]))
		const activity = {
			enrolledAt: student.enrolledAt,
			lastOpenedAt,
			openedCount: [...openedByWeek.values()].reduce((sum, count) => sum + count, 0),
			attendance,
			handedIn: new Set(ownSubmissions.keys()),
		}
		return {
			...student,
			lastOpenedAt,
			openedCount: activity.openedCount,
			heldSessions: heldSessions.length,
			attendedSessions: heldSessions.filter((session) => attended(attendance.get(session.id))).length,
			handedIn: ownSubmissions.size,
			graded: [...ownSubmissions.values()].filter((status) => status === 'graded').length,
			flags: riskFlags(activity, rules, now),
			weeks: weeks.map((week) => ({
				opened: openedByWeek.get(week.weekNumber) ?? 0,
				attendance: week.session?.held ? (attendance.get(week.session.id) ?? 'not-recorded') : null,
				handedIn: week.assignments.filter((assignment) => ownSubmissions.has(assignment.id)).length,
				graded: week.assignments.filter((assignment) => ownSubmissions.get(assignment.id) === 'graded').length,
			})),
		}
	})

	return {
		course: { id: course.id, title: course.title, phase: coursePhase(course, now) },
		weeks,
		materials: weeks.reduce((sum, week) => sum + week.materials, 0),
		assignments: assignments.length,
		heldSessions: heldSessions.length,
		rows,
	}
}

const ATTENDANCE_WORDS: Record<RosterCell['attendance'] & string, string> = {
	present: 'present',
	late: 'late',
	absent: 'absent',
	excused: 'excused',
	'not-recorded': 'not recorded',
}

/** The roster as CSV, one line per student in the given order; every cell safe to open in a spreadsheet. */
export function rosterCsv(roster: CourseRoster, rows: RosterRow[]) {
	const header = [
		'Student',
		'Email',
		'Enrolled',
		'Classes attended',
		'Classes held',
		'Materials opened',
		'Materials',
		'Assignments handed in',
		'Assignments graded',
		'Assignments',
		'Last opened',
		'At risk',
		...roster.weeks.flatMap((week) => [
			`Week ${week.weekNumber} opened`,
			`Week ${week.weekNumber} class`,
			`Week ${week.weekNumber} handed in`,
		]),
	]
	const lines = rows.map((row) => [
		row.name,
		row.email,
		row.enrolledAt.toISOString().slice(0, 10),
		row.attendedSessions,
		row.heldSessions,
		row.openedCount,
		roster.materials,
		row.handedIn,
		row.graded,
		roster.assignments,
		row.lastOpenedAt?.toISOString() ?? '',
		row.flags.map((flag) => flag.reason).join('; '),
		...row.weeks.flatMap((cell, index) => {
			const week = roster.weeks[index]!
			return [
				`${cell.opened} of ${week.materials}`,
				cell.attendance ? ATTENDANCE_WORDS[cell.attendance] : '',
				week.assignments.length ? `${cell.handedIn} of ${week.assignments.length}` : '',
			]
		}),
	])
	return stringify([header, ...lines], CSV_OPTIONS)
}
