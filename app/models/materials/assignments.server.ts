import type { Kysely } from 'kysely'
import { isCourseStaff } from '#app/models/courses/course-staff.server.ts'
import { courseAccess, isClosedTo } from '#app/models/materials/materials.server.ts'
import type { MaterialReader } from '#app/models/materials/materials.ts'
import { UploadRefusal } from '#app/models/materials/uploads.server.ts'
import { formatSessionDay } from '#app/models/sessions/live-sessions.ts'
import { sessionOpensAtSql, weekSessionJoin } from '#app/models/sessions/session-schedule.server.ts'
import type { Database } from '#db/types.ts'
import type { AssignmentForStudent, StudentAssignment } from './assignments.ts'

/**
 * Assignments joined with their week's live session and the course, so that sessionOpensAtSql
 * says when the week opens (null: no week or no session, open).
 */
function selectAssignmentsWithOpening(db: Kysely<Database>) {
	return db
		.selectFrom('assignments as a')
		.innerJoin('courses as course', 'course.id', 'a.course_id')
		.leftJoin('course_materials as week', 'week.id', 'a.week_id')
		.leftJoin('live_sessions as session', weekSessionJoin)
}

/**
 * A course's assignments as one student sees them, with their own status and grade. One of a
 * week that has not opened to them says when it opens ('Tue 6 Jan', in their zone as the week
 * card says it, docs/decisions/031) and is not to be linked.
 */
export async function listStudentAssignments(
	db: Kysely<Database>,
	{ reader, courseId, now = new Date() }: { reader: MaterialReader; courseId: number; now?: Date },
): Promise<StudentAssignment[]> {
	const rows = await selectAssignmentsWithOpening(db)
		.leftJoin('assignment_submissions as s', (join) => join.onRef('s.assignment_id', '=', 'a.id').on('s.student_id', '=', reader.id))
		.select([
			'a.id',
			'a.title',
			'week.week_number as weekNumber',
			'a.due_at as dueAt',
			's.status',
			's.grade',
			sessionOpensAtSql.as('opensAt'),
			'session.time_zone as sessionZone',
		])
		.where('a.course_id', '=', courseId)
		.orderBy('week.week_number', (order) => order.asc().nullsLast())
		.orderBy('a.due_at', (order) => order.asc().nullsLast())
		.orderBy('a.id')
		.execute()
	return rows.map(({ opensAt, sessionZone, ...row }) => {
		const opening = opensAt ? new Date(opensAt) : null
		const closed = opening !== null && isClosedTo(reader, { opensAt: opening }, now)
		return {
			...row,
			status: row.status ?? 'not-submitted',
			opensOn: closed ? formatSessionDay(opening, reader.timeZone ?? sessionZone ?? 'UTC') : null,
		}
	})
}

/**
 * An assignment as the user may see it: a student of a course they are actively enrolled in
 * (with their own submission), an alumnus (who reads it and their submission but hands nothing
 * in, decision 035), or an admin (who reads it but hands nothing in). Until its week opens, a
 * student gets 'not-open', as for the week's files (docs/decisions/031).
 */
export async function getAssignmentForStudent(
	db: Kysely<Database>,
	user: MaterialReader,
	assignmentId: number,
	now: Date = new Date(),
): Promise<AssignmentForStudent | 'not-found' | 'forbidden' | 'not-open'> {
	const row = await selectAssignmentsWithOpening(db)
		.select([
			'a.id',
			'a.title',
			'a.instructions',
			'a.due_at as dueAt',
			'a.course_id as courseId',
			'course.title as courseTitle',
			'week.week_number as weekNumber',
			'week.topic',
			sessionOpensAtSql.as('opensAt'),
		])
		.where('a.id', '=', assignmentId)
		.executeTakeFirst()
	if (!row) return 'not-found'
	const { opensAt, ...assignment } = row
	// The student's own access: an admin reads every assignment but hands nothing in.
	const access = await courseAccess(db, { id: user.id, isAdmin: false }, assignment.courseId)
	if (!access && !user.isAdmin) return 'forbidden'
	if (isClosedTo(user, { opensAt: opensAt ? new Date(opensAt) : null }, now)) return 'not-open'
	const submission = await db
		.selectFrom('assignment_submissions')
		.select([
			'id',
			'body',
			'file_name as fileName',
			'file_size as fileSize',
			'status',
			'grade',
			'feedback',
			'submitted_at as submittedAt',
			'graded_at as gradedAt',
		])
		.where('assignment_id', '=', assignmentId)
		.where('student_id', '=', user.id)
		.executeTakeFirst()
	return {
		assignment,
		submission: submission ?? null,
		courseCompleted: access === 'read-only',
		canSubmit: access === 'full' && submission?.status !== 'graded',
	}
}

export type SubmittedFile = { key: string; contentType: string; size: number; fileName: string }

/**
 * Writes a student's answer whose file (if any) is stored. Handing in again before grading
 * replaces the answer (and the file, when a new one comes); once graded it is locked
 * (UploadRefusal). Returns the key of the file the new one replaced, for the caller to remove.
 */
export async function saveSubmission(
	db: Kysely<Database>,
	{
		studentId,
		assignmentId,
		body,
		file,
	}: { studentId: string; assignmentId: number; body: string | undefined; file: SubmittedFile | undefined },
): Promise<string | null> {
	return db.transaction().execute(async (trx) => {
		const existing = await trx
			.selectFrom('assignment_submissions')
			.select(['id', 'status', 'storage_key'])
			.where('assignment_id', '=', assignmentId)
			.where('student_id', '=', studentId)
			.forUpdate()
			.executeTakeFirst()
		if (existing?.status === 'graded') throw new UploadRefusal('This assignment has already been graded.', 409)
		const stored = file ? { file_name: file.fileName, file_type: file.contentType, file_size: file.size, storage_key: file.key } : {}
		if (existing) {
			await trx
				.updateTable('assignment_submissions')
				.set({ body: body ?? null, ...stored, submitted_at: new Date() })
				.where('id', '=', existing.id)
				.execute()
			return file ? existing.storage_key : null
		}
		await trx
			.insertInto('assignment_submissions')
			.values({ assignment_id: assignmentId, student_id: studentId, body: body ?? null, ...stored })
			.execute()
		return null
	})
}

/** A submission's stored file, for its student, the staff of its course (docs/decisions/056) and admins. */
export async function getSubmissionFile(db: Kysely<Database>, user: MaterialReader, submissionId: number) {
	const row = await db
		.selectFrom('assignment_submissions as s')
		.innerJoin('assignments as a', 'a.id', 's.assignment_id')
		.select(['s.student_id', 's.storage_key', 's.file_name', 's.file_type', 's.file_size', 'a.course_id'])
		.where('s.id', '=', submissionId)
		.executeTakeFirst()
	if (!row?.storage_key) return 'not-found' as const
	if (row.student_id !== user.id && !user.isAdmin && !(await isCourseStaff(db, user.id, row.course_id))) return 'forbidden' as const
	return {
		storageKey: row.storage_key,
		fileName: row.file_name ?? 'file',
		fileType: row.file_type ?? 'application/octet-stream',
		size: row.file_size,
	}
}
