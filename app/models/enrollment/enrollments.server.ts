import { type Kysely, sql } from 'kysely'
import type { Database, EnrollmentStatus } from '#db/types.ts'

const UNKNOWN_COURSE_TITLE = 'Unknown Course'

export type UserEnrollment = {
	id: number
	courseId: number
	courseTitle: string
	status: EnrollmentStatus
	/** ISO timestamp. */
	enrollmentDate: string
}

/** The user's enrollments in any status with their course titles, most recent first. */
export async function listUserEnrollments(db: Kysely<Database>, userId: string): Promise<UserEnrollment[]> {
	const rows = await db
		.selectFrom('enrollments')
		.leftJoin('courses', 'courses.id', 'enrollments.course_id')
		.select([
			'enrollments.id',
			'enrollments.course_id as courseId',
			'enrollments.status',
			'enrollments.enrollment_date as enrollmentDate',
			'courses.title as courseTitle',
		])
		.where('enrollments.user_id', '=', userId)
		.orderBy('enrollments.enrollment_date', 'desc')
		.orderBy('enrollments.id', 'desc')
		.execute()
	return rows.map((row) => ({
		id: row.id,
		courseId: row.courseId,
		courseTitle: row.courseTitle?.trim() || UNKNOWN_COURSE_TITLE,
		status: row.status,
		enrollmentDate: row.enrollmentDate.toISOString(),
	}))
}

export type WaitlistRequest = {
	id: number
	program: string
	/** What the visitor wrote, without the 'Waitlist request for:' line. */
	note: string
	/** ISO timestamp. */
	createdAt: string
}

/** The waitlist requests sent with the user's e-mail address (case-insensitive), newest first. */
export async function listUserWaitlistRequests(db: Kysely<Database>, email: string): Promise<WaitlistRequest[]> {
	const rows = await db
		.selectFrom('contact_submissions')
		.select(['id', 'program', 'message', 'created_at'])
		.where('kind', '=', 'waitlist')
		.where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
		.orderBy('created_at', 'desc')
		.orderBy('id', 'desc')
		.execute()
	return rows.map((row) => ({
		id: row.id,
		program: row.program ?? '',
		note: row.message.replace(/^Waitlist request for:[^\n]*\n?/, '').trim(),
		createdAt: row.created_at.toISOString(),
	}))
}
