/**
 * Rows a test needs, written straight to the database: shared by the integration and the
 * end-to-end tests, so each test says only what is particular about its data.
 */
import { randomUUID } from 'node:crypto'
import type { Insertable, Kysely } from 'kysely'
import { materialKey } from '#app/services/storage/keys.ts'
import type { CoursesTable, Database, EnrollmentStatus, MaterialCategory, Role } from '#db/types.ts'

/**
 * A user with a profile, written straight to the database: for tests that need someone to
 * exist, not someone who can log in with a password (the hash is a placeholder).
 */
export async function insertUser(
	db: Kysely<Database>,
	{
		role = 'student',
		email = `${randomUUID()}@example.com`,
		name = `A ${role}`,
		confirmed = true,
	}: { role?: Role; email?: string; name?: string; confirmed?: boolean } = {},
) {
	const user = await db
		.insertInto('users')
		.values({ email, password_hash: 'unused', email_confirmed_at: confirmed ? new Date() : null })
		.returning('id')
		.executeTakeFirstOrThrow()
	await db.insertInto('profiles').values({ id: user.id, name, role }).execute()
	return user.id
}

/** A course with a unique title; any column can be given. */
export async function insertCourse(db: Kysely<Database>, values: Partial<Insertable<CoursesTable>> = {}) {
	return db
		.insertInto('courses')
		.values({ title: `Course ${randomUUID().slice(0, 8)}`, ...values })
		.returning(['id', 'title', 'capacity'])
		.executeTakeFirstOrThrow()
}

/** An enrolment, `daysAgo` days old. */
export async function insertEnrollment(
	db: Kysely<Database>,
	{ userId, courseId, status = 'active', daysAgo = 0 }: { userId: string; courseId: number; status?: EnrollmentStatus; daysAgo?: number },
) {
	return db
		.insertInto('enrollments')
		.values({ user_id: userId, course_id: courseId, status, enrollment_date: new Date(Date.now() - daysAgo * 86_400_000) })
		.returning('id')
		.executeTakeFirstOrThrow()
}

/** How many rows a table holds (e.g. the audit entries an action wrote). */
export async function countRows(db: Kysely<Database>, table: 'audit_log' | 'enrollments' | 'messages' | 'courses') {
	const row = await db
		.selectFrom(table)
		.select((eb) => eb.fn.countAll<string>().as('n'))
		.executeTakeFirstOrThrow()
	return Number(row.n)
}

/** A week of a course's materials. */
export async function insertWeek(
	db: Kysely<Database>,
	{
		courseId,
		weekNumber,
		topic = `Topic ${weekNumber}`,
		zoomLink = null,
	}: { courseId: number; weekNumber: number; topic?: string; zoomLink?: string | null },
) {
	const week = await db
		.insertInto('course_materials')
		.values({ course_id: courseId, week_number: weekNumber, topic, zoom_link: zoomLink })
		.returning('id')
		.executeTakeFirstOrThrow()
	return week.id
}

/** A material row whose key names a stored file (rows only: listing materials needs no file). */
export async function insertMaterialItem(
	db: Kysely<Database>,
	{
		courseId,
		weekId,
		title,
		fileName,
		category = 'material',
		sizeBytes = 1234,
	}: { courseId: number; weekId: number; title: string; fileName: string; category?: MaterialCategory; sizeBytes?: number },
) {
	const item = await db
		.insertInto('material_items')
		.values({
			material_id: weekId,
			title,
			type: category === 'recording' ? 'video' : 'document',
			category,
			storage_key: materialKey(courseId, weekId, category, fileName),
			mime_type: 'application/octet-stream',
			size_bytes: sizeBytes,
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	return item.id
}

/** A live session of a course's week; by default one that ended long ago (so its week is open). */
export async function insertLiveSession(
	db: Kysely<Database>,
	{
		courseId,
		weekNumber = 1,
		startsAt = '2020-01-07T00:00:00Z',
		endsAt = '2020-01-07T01:00:00Z',
		timeZone = 'America/New_York',
	}: { courseId: number; weekNumber?: number; startsAt?: Date | string; endsAt?: Date | string; timeZone?: string },
) {
	const session = await db
		.insertInto('live_sessions')
		.values({ course_id: courseId, week_number: weekNumber, starts_at: startsAt, ends_at: endsAt, time_zone: timeZone })
		.returning('id')
		.executeTakeFirstOrThrow()
	return session.id
}

/** A paid test-checkout payment for a course ($2,500.00 unless told), as a finished checkout leaves it. */
export async function insertPaidPayment(
	db: Kysely<Database>,
	{
		checkoutSessionId,
		userId,
		courseId,
		courseTitle,
		customerEmail,
		amountCents = 250000,
	}: {
		checkoutSessionId: string
		userId: string
		courseId: number
		courseTitle: string
		customerEmail: string
		amountCents?: number
	},
) {
	const payment = await db
		.insertInto('registration_payments')
		.values({
			checkout_session_id: checkoutSessionId,
			provider: 'test',
			user_id: userId,
			course_id: courseId,
			course_title: courseTitle,
			customer_email: customerEmail,
			amount_cents: amountCents,
			status: 'paid',
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	return payment.id
}
