import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Database } from '#db/types.ts'
import { createTestDatabase } from '#tests/support/db.ts'

type Target = { db: Kysely<Database>; drop: () => Promise<void> }

describe('schema constraints', () => {
	let target: Target
	let db: Kysely<Database>
	beforeAll(async () => {
		target = await createTestDatabase()
		db = target.db
	})
	afterAll(async () => target.drop())

	let sequence = 0
	async function user(role: 'student' | 'instructor' | 'admin' = 'student') {
		sequence += 1
		const row = await db
			.insertInto('users')
			.values({ email: `schema-${sequence}@example.com`, password_hash: 'x' })
			.returning('id')
			.executeTakeFirstOrThrow()
		await db.insertInto('profiles').values({ id: row.id, name: 'Someone', role }).execute()
		return row.id
	}
	async function course(values: Partial<{ capacity: number; registration_fee: number }> = {}) {
		const row = await db
			.insertInto('courses')
			.values({ title: 'A course', ...values })
			.returning('id')
			.executeTakeFirstOrThrow()
		return row.id
	}

	test('courses default to capacity 20 and a fee of 0, and refuse capacity ≤ 0 or a negative fee', async () => {
		const id = await course()
		const row = await db.selectFrom('courses').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
		expect(row.capacity).toBe(20)
		expect(row.registration_fee).toBe(0)
		await expect(course({ capacity: 0 })).rejects.toThrow(/check/i)
		await expect(course({ registration_fee: -1 })).rejects.toThrow(/check/i)
	})

	test('a course cannot end before it starts', async () => {
		await expect(
			db.insertInto('courses').values({ title: 'Backwards', start_date: '2026-05-01', end_date: '2026-04-01' }).execute(),
		).rejects.toThrow(/check/i)
	})

	test('e-mail addresses are unique and stored lower-case', async () => {
		await db.insertInto('users').values({ email: 'unique@example.com', password_hash: 'x' }).execute()
		await expect(db.insertInto('users').values({ email: 'unique@example.com', password_hash: 'x' }).execute()).rejects.toThrow(
			/unique|duplicate/i,
		)
		await expect(db.insertInto('users').values({ email: 'Upper@Example.com', password_hash: 'x' }).execute()).rejects.toThrow(/check/i)
	})

	test('roles are student, instructor or admin', async () => {
		const id = (
			await db.insertInto('users').values({ email: 'role@example.com', password_hash: 'x' }).returning('id').executeTakeFirstOrThrow()
		).id
		await expect(sql`INSERT INTO profiles (id, name, role) VALUES (${id}, 'X', 'superuser')`.execute(db)).rejects.toThrow(/check/i)
		await db.insertInto('profiles').values({ id, name: 'X' }).execute()
		const profile = await db.selectFrom('profiles').select('role').where('id', '=', id).executeTakeFirstOrThrow()
		expect(profile.role).toBe('student')
	})

	test('one enrollment per user and course, with a known status', async () => {
		const userId = await user()
		const courseId = await course()
		await db.insertInto('enrollments').values({ user_id: userId, course_id: courseId }).execute()
		await expect(
			db.insertInto('enrollments').values({ user_id: userId, course_id: courseId, status: 'pending' }).execute(),
		).rejects.toThrow(/unique|duplicate/i)
		const otherCourse = await course()
		await expect(
			sql`INSERT INTO enrollments (user_id, course_id, status) VALUES (${userId}, ${otherCourse}, 'paused')`.execute(db),
		).rejects.toThrow(/check/i)
	})

	test('week numbers start at 1', async () => {
		const courseId = await course()
		await expect(
			db.insertInto('course_materials').values({ course_id: courseId, week_number: 0, topic: 'Zero' }).execute(),
		).rejects.toThrow(/check/i)
	})

	test('a material item has either a stored file or a link, never both or neither', async () => {
		const courseId = await course()
		const week = await db
			.insertInto('course_materials')
			.values({ course_id: courseId, week_number: 1, topic: 'Intro' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const base = { material_id: week.id, title: 'File', type: 'document' as const, category: 'material' as const }
		await expect(db.insertInto('material_items').values(base).execute()).rejects.toThrow(/check/i)
		await expect(
			db
				.insertInto('material_items')
				.values({ ...base, storage_key: 'k1', file_url: 'https://x.example' })
				.execute(),
		).rejects.toThrow(/check/i)
		await expect(
			sql`INSERT INTO material_items (material_id, title, type, category, storage_key) VALUES (${week.id}, 'x', 'audio', 'material', 'k2')`.execute(
				db,
			),
		).rejects.toThrow(/check/i)
	})

	test('deleting a course removes its weeks, items, enrollments and holds in one statement', async () => {
		const userId = await user()
		const courseId = await course()
		const week = await db
			.insertInto('course_materials')
			.values({ course_id: courseId, week_number: 1, topic: 'Intro' })
			.returning('id')
			.executeTakeFirstOrThrow()
		await db
			.insertInto('material_items')
			.values({ material_id: week.id, title: 'Slides', type: 'document', category: 'material', storage_key: `k-${courseId}` })
			.execute()
		await db.insertInto('enrollments').values({ user_id: userId, course_id: courseId }).execute()
		await db
			.insertInto('seat_holds')
			.values({ user_id: userId, course_id: courseId, expires_at: new Date(Date.now() + 60_000) })
			.execute()
		await db
			.insertInto('registration_payments')
			.values({
				checkout_session_id: `cs_${courseId}`,
				provider: 'test',
				user_id: userId,
				course_id: courseId,
				course_title: 'A course',
				customer_email: 'x@example.com',
				amount_cents: 100,
			})
			.execute()

		await db.deleteFrom('courses').where('id', '=', courseId).execute()

		const count = async (table: 'course_materials' | 'enrollments' | 'seat_holds') =>
			(await db.selectFrom(table).select(db.fn.countAll<number>().as('n')).where('course_id', '=', courseId).executeTakeFirstOrThrow()).n
		expect(Number(await count('course_materials'))).toBe(0)
		expect(Number(await count('enrollments'))).toBe(0)
		expect(Number(await count('seat_holds'))).toBe(0)
		const items = await db.selectFrom('material_items').select('id').where('material_id', '=', week.id).execute()
		expect(items).toEqual([])
		// The payment record is kept for the books, detached from the course.
		const payment = await db
			.selectFrom('registration_payments')
			.select(['course_id', 'course_title'])
			.where('checkout_session_id', '=', `cs_${courseId}`)
			.executeTakeFirstOrThrow()
		expect(payment).toEqual({ course_id: null, course_title: 'A course' })
	})

	test('an announcement has no receiver, a direct message has one, and nobody messages themself', async () => {
		const sender = await user('admin')
		const receiver = await user()
		await expect(
			db.insertInto('messages').values({ sender_id: sender, receiver_id: receiver, is_announcement: true, content: 'x' }).execute(),
		).rejects.toThrow(/check/i)
		await expect(
			db.insertInto('messages').values({ sender_id: sender, receiver_id: null, is_announcement: false, content: 'x' }).execute(),
		).rejects.toThrow(/check/i)
		await expect(db.insertInto('messages').values({ sender_id: sender, receiver_id: sender, content: 'x' }).execute()).rejects.toThrow(
			/check/i,
		)
	})

	test('a waitlist request is unique per e-mail and program', async () => {
		const values = {
			kind: 'waitlist' as const,
			name: 'Wanda',
			email: 'wanda@example.com',
			message: 'Waitlist request for: Program\nhello',
			program: 'Program',
		}
		await db.insertInto('contact_submissions').values(values).execute()
		await expect(
			db
				.insertInto('contact_submissions')
				.values({ ...values, email: 'WANDA@example.com' })
				.execute(),
		).rejects.toThrow(/unique|duplicate/i)
		await expect(
			db.insertInto('contact_submissions').values({ name: 'C', email: 'c@example.com', message: 'm', program: 'P' }).execute(),
		).rejects.toThrow(/check/i)
	})

	test('a graded submission has a grade and a submission has content', async () => {
		const student = await user()
		const courseId = await course()
		const assignment = await db
			.insertInto('assignments')
			.values({ course_id: courseId, title: 'Homework' })
			.returning('id')
			.executeTakeFirstOrThrow()
		await expect(
			db.insertInto('assignment_submissions').values({ assignment_id: assignment.id, student_id: student }).execute(),
		).rejects.toThrow(/check/i)
		await expect(
			db
				.insertInto('assignment_submissions')
				.values({ assignment_id: assignment.id, student_id: student, body: 'done', status: 'graded' })
				.execute(),
		).rejects.toThrow(/check/i)
	})
})
