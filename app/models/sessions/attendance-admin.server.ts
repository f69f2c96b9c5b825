import { type Kysely, sql } from 'kysely'
import { READING_STATUSES } from '#app/models/materials/materials.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { AttendanceImportPlan, AttendanceStatus, Database } from '#db/types.ts'
import { type ImportEffect, type ImportPreview, type RosterEntry, statusFromMinutes } from './attendance.ts'
import { formatMoment, formatSessionTime } from './live-sessions.ts'
import type { ParticipantRow } from './participant-reports.server.ts'
import { sessionTimeColumns } from './session-schedule.server.ts'

/**
 * The admin's side of attendance (docs/decisions/048): the roster of a session, marking it by hand,
 * and a meeting report's import in two steps — a preview kept in `attendance_imports`, then its
 * confirmation. Precedence is written into each upsert: by hand over the report over the join link.
 */

/** An unused preview is forgotten after a day. */
const IMPORT_KEPT_HOURS = 24

export type AttendanceSession = {
	id: number
	courseId: number
	courseTitle: string
	weekNumber: number
	when: string
	timeZone: string
	status: 'scheduled' | 'cancelled'
	/** The session's length in minutes. */
	minutes: number
	presentPercent: number
}

/** A session of a course with what its attendance needs; null when the course has no such session. */
export async function getAttendanceSession(db: Kysely<Database>, courseId: number, sessionId: number): Promise<AttendanceSession | null> {
	const row = await db
		.selectFrom('live_sessions as session')
		.innerJoin('courses as course', 'course.id', 'session.course_id')
		.select(sessionTimeColumns())
		.select(['session.id', 'course.attendance_present_percent as presentPercent'])
		.where('session.id', '=', sessionId)
		.where('session.course_id', '=', courseId)
		.executeTakeFirst()
	if (!row) return null
	const startsAt = new Date(row.startsAt)
	const endsAt = new Date(row.endsAt)
	return {
		id: row.id,
		courseId: row.courseId,
		courseTitle: row.courseTitle,
		weekNumber: row.weekNumber,
		when: formatSessionTime(startsAt, endsAt, row.timeZone),
		timeZone: row.timeZone,
		status: row.status,
		minutes: Math.round((endsAt.getTime() - startsAt.getTime()) / 60_000),
		presentPercent: row.presentPercent,
	}
}

/** The students a session's attendance is about: enrolled in its course and able to read it (active or completed). */
function rosterOf(db: Kysely<Database>, courseId: number) {
	return db
		.selectFrom('enrollments')
		.innerJoin('users', 'users.id', 'enrollments.user_id')
		.innerJoin('profiles', 'profiles.id', 'enrollments.user_id')
		.where('enrollments.course_id', '=', courseId)
		.where('enrollments.status', 'in', READING_STATUSES)
}

/** The roster of a session with each student's attendance, who set it and when they joined (one query). */
export async function listRoster(
	db: Kysely<Database>,
	session: { id: number; courseId: number; timeZone: string },
): Promise<RosterEntry[]> {
	const rows = await rosterOf(db, session.courseId)
		.leftJoin('attendance', (join) => join.onRef('attendance.user_id', '=', 'users.id').on('attendance.live_session_id', '=', session.id))
		.leftJoin('profiles as setter', 'setter.id', 'attendance.set_by')
		.leftJoin('session_joins', (join) =>
			join.onRef('session_joins.user_id', '=', 'users.id').on('session_joins.live_session_id', '=', session.id),
		)
		.select([
			'users.id as userId',
			'profiles.name',
			'users.email',
			'attendance.status',
			'attendance.minutes',
			'attendance.source',
			'setter.name as setBy',
			'session_joins.joined_at as joinedAt',
		])
		.orderBy('profiles.name')
		.orderBy('users.id')
		.execute()
	return rows.map((row) => ({ ...row, joinedAt: row.joinedAt ? formatMoment(new Date(row.joinedAt), session.timeZone) : null }))
}

/**
 * Writes statuses from the hand or a report, with the precedence of docs/decisions/048: the hand
 * overwrites any status that differs (keeping a report's minutes); a report overwrites what is not
 * set by hand, and only where status, minutes or source differ, so the same report twice changes
 * nothing. Students are written in one order, so two writes at once lock their rows in the same
 * order rather than deadlock. Answers the rows inserted or changed.
 */
async function writeAttendance(
	db: Kysely<Database>,
	{
		sessionId,
		source,
		adminId,
		now,
		entries,
	}: {
		sessionId: number
		source: 'hand' | 'report'
		adminId: string
		now: Date
		entries: Array<{ userId: string; status: AttendanceStatus; minutes?: number }>
	},
) {
	const fromReport = source === 'report'
	const sorted = [...entries].sort((a, b) => (a.userId < b.userId ? -1 : 1))
	return db
		.insertInto('attendance')
		.values(
			sorted.map((entry) => ({
				live_session_id: sessionId,
				user_id: entry.userId,
				status: entry.status,
				minutes: fromReport ? entry.minutes : null,
				source,
				set_by: adminId,
				updated_at: now,
			})),
		)
		.onConflict((conflict) =>
			conflict
				.columns(['live_session_id', 'user_id'])
				.doUpdateSet((eb) => ({
					status: eb.ref('excluded.status'),
					minutes: fromReport ? eb.ref('excluded.minutes') : eb.ref('attendance.minutes'),
					source: eb.ref('excluded.source'),
					set_by: eb.ref('excluded.set_by'),
					updated_at: eb.ref('excluded.updated_at'),
				}))
				.where(
					fromReport
						? sql<boolean>`attendance.source <> 'hand' AND (attendance.status, attendance.minutes, attendance.source) IS DISTINCT FROM (excluded.status, excluded.minutes, excluded.source)`
						: sql<boolean>`attendance.status IS DISTINCT FROM excluded.status`,
				),
		)
		.returning(['user_id', 'status'])
		.execute()
}

export type Mark = { userId: string; status?: AttendanceStatus | undefined }

/**
 * Marks a session's roster by hand: each chosen status that differs from the student's current one
 * is written as set by this admin, whatever the report or the join link said; a student left
 * without a choice, or with the status they have, keeps their row as it is. Null when a mark names
 * someone not on the roster (nothing is written). Answers how many changed.
 */
export async function markAttendance(
	db: Kysely<Database>,
	{ adminId, session, marks, now = new Date() }: { adminId: string; session: { id: number; courseId: number }; marks: Mark[]; now?: Date },
) {
	return db.transaction().execute(async (trx) => {
		const roster = new Set((await rosterOf(trx, session.courseId).select('users.id').execute()).map((row) => row.id))
		if (marks.some((mark) => !roster.has(mark.userId))) return null
		const chosen = marks.filter((mark): mark is Required<Mark> => mark.status !== undefined)
		if (chosen.length === 0) return { changed: 0 }
		const changed = await writeAttendance(trx, { sessionId: session.id, source: 'hand', adminId, now, entries: chosen })
		if (changed.length > 0) {
			await recordAudit(trx, {
				actorId: adminId,
				action: 'attendance.mark',
				entity: 'live_session',
				entityId: session.id,
				details: { marks: changed.map((row) => ({ userId: row.user_id, status: row.status })) },
			})
		}
		return { changed: changed.length }
	})
}

/** Lower case, accents and extra spaces away: how names are compared. */
function nameKey(name: string) {
	return name.normalize('NFKD').replace(/\p{M}/gu, '').trim().replace(/\s+/g, ' ').toLowerCase()
}

/**
 * What a report would do to a session's roster: rows matched to students by e-mail, then by a name
 * only one student has (the display name or the original one); a student's rows summed, up to the
 * session's length (two devices at once count once); the status from the course's threshold, and
 * absent for a student the report does not name. Rows that matched nobody are listed apart.
 */
export function planImport(
	rows: ParticipantRow[],
	roster: Array<{ userId: string; name: string; email: string }>,
	session: { minutes: number; presentPercent: number },
): AttendanceImportPlan {
	const byEmail = new Map(roster.map((student) => [student.email.toLowerCase(), student.userId]))
	const byName = new Map<string, string | null>()
	for (const student of roster) {
		const key = nameKey(student.name)
		byName.set(key, byName.has(key) ? null : student.userId)
	}
	const totals = new Map<string, { minutes: number; matchedBy: 'email' | 'name' }>()
	const unmatched: AttendanceImportPlan['unmatched'] = []
	for (const row of rows) {
		let userId = byEmail.get(row.email.toLowerCase())
		let matchedBy: 'email' | 'name' = 'email'
		if (!userId) {
			matchedBy = 'name'
			userId = row.names.map((name) => byName.get(nameKey(name))).find((found) => typeof found === 'string')
		}
		if (!userId) {
			unmatched.push({ line: row.line, name: row.name, email: row.email, minutes: row.minutes })
			continue
		}
		const total = totals.get(userId)
		totals.set(userId, {
			minutes: (total?.minutes ?? 0) + row.minutes,
			matchedBy: total?.matchedBy === 'email' ? 'email' : matchedBy,
		})
	}
	return {
		rows: rows.length,
		students: roster.map((student) => {
			const total = totals.get(student.userId)
			const minutes = Math.min(total?.minutes ?? 0, session.minutes)
			return {
				userId: student.userId,
				minutes,
				status: statusFromMinutes(minutes, session.minutes, session.presentPercent),
				matchedBy: total?.matchedBy ?? null,
			}
		}),
		unmatched,
	}
}

/** Reads a report against the session's roster and keeps the outcome for its preview; answers the preview's id. */
export async function prepareImport(
	db: Kysely<Database>,
	{
		adminId,
		session,
		fileName,
		rows,
		now = new Date(),
	}: { adminId: string; session: AttendanceSession; fileName: string; rows: ParticipantRow[]; now?: Date },
) {
	const roster = await rosterOf(db, session.courseId).select(['users.id as userId', 'profiles.name', 'users.email']).execute()
	const plan = planImport(rows, roster, session)
	await db
		.deleteFrom('attendance_imports')
		.where('created_at', '<', new Date(now.getTime() - IMPORT_KEPT_HOURS * 3_600_000))
		.execute()
	const saved = await db
		.insertInto('attendance_imports')
		.values({
			live_session_id: session.id,
			created_by: adminId,
			file_name: fileName.slice(0, 255) || 'report.csv',
			plan: JSON.stringify(plan),
			created_at: now,
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	return saved.id
}

function effectOf(
	planned: { status: AttendanceStatus; minutes: number },
	current: ImportPreview['students'][number]['current'],
): ImportEffect {
	if (!current) return 'new'
	if (current.source === 'hand') return 'kept'
	return current.source === 'report' && current.status === planned.status && current.minutes === planned.minutes ? 'same' : 'change'
}

/** A kept preview against the roster as it is now; null when the session has no such import. */
export async function getImportPreview(
	db: Kysely<Database>,
	{ session, importId }: { session: { id: number; courseId: number }; importId: string },
): Promise<ImportPreview | null> {
	const saved = await db
		.selectFrom('attendance_imports')
		.select(['id', 'file_name', 'plan', 'applied_at'])
		.where('id', '=', importId)
		.where('live_session_id', '=', session.id)
		.executeTakeFirst()
	if (!saved) return null
	const current = await rosterOf(db, session.courseId)
		.leftJoin('attendance', (join) => join.onRef('attendance.user_id', '=', 'users.id').on('attendance.live_session_id', '=', session.id))
		.select(['users.id as userId', 'profiles.name', 'users.email', 'attendance.status', 'attendance.source', 'attendance.minutes'])
		.execute()
	const byUser = new Map(current.map((row) => [row.userId, row]))
	const students: ImportPreview['students'] = []
	for (const planned of saved.plan.students) {
		const row = byUser.get(planned.userId)
		if (!row) continue
		const now = row.status && row.source ? { status: row.status, source: row.source, minutes: row.minutes } : null
		students.push({ ...planned, name: row.name, email: row.email, current: now, effect: effectOf(planned, now) })
	}
	students.sort((a, b) => a.name.localeCompare(b.name))
	return {
		id: saved.id,
		fileName: saved.file_name,
		applied: saved.applied_at !== null,
		rows: saved.plan.rows,
		students,
		unmatched: saved.plan.unmatched,
	}
}

/**
 * Confirms a preview: writes the report's status and minutes for each student still on the roster,
 * except where an admin set one by hand, and only where it differs (importing the same report
 * again changes nothing). Once per preview: its row is locked and marked applied in the same
 * transaction, so a second confirmation, at once or later, answers 'already'. Two imports of one
 * session at once still leave one row per student (the key and ON CONFLICT).
 */
export async function applyImport(
	db: Kysely<Database>,
	{
		adminId,
		session,
		importId,
		now = new Date(),
	}: { adminId: string; session: { id: number; courseId: number }; importId: string; now?: Date },
): Promise<{ changed: number } | 'already' | null> {
	return db.transaction().execute(async (trx) => {
		const saved = await trx
			.selectFrom('attendance_imports')
			.select(['plan', 'applied_at', 'file_name'])
			.where('id', '=', importId)
			.where('live_session_id', '=', session.id)
			.forUpdate()
			.executeTakeFirst()
		if (!saved) return null
		if (saved.applied_at) return 'already'
		await trx.updateTable('attendance_imports').set({ applied_at: now }).where('id', '=', importId).execute()
		const roster = new Set((await rosterOf(trx, session.courseId).select('users.id').execute()).map((row) => row.id))
		const students = saved.plan.students.filter((student) => roster.has(student.userId))
		if (students.length === 0) return { changed: 0 }
		const changed = await writeAttendance(trx, { sessionId: session.id, source: 'report', adminId, now, entries: students })
		await recordAudit(trx, {
			actorId: adminId,
			action: 'attendance.import',
			entity: 'live_session',
			entityId: session.id,
			details: { importId, fileName: saved.file_name, changed: changed.length },
		})
		return { changed: changed.length }
	})
}
