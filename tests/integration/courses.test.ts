import type { Kysely } from 'kysely'
import { describe, expect, test } from 'vitest'
import { getCourseWithAvailability, listCoursesWithAvailability } from '#app/models/courses/courses.server.ts'
import { availabilityOf, PROGRAM_OUTCOMES } from '#app/models/courses/courses.ts'
import { loader as courseDetailLoader } from '#app/routes/public/course-detail.tsx'
import type { Database, EnrollmentStatus } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertSeatHold, insertUser } from '#tests/support/fixtures.ts'
import { createCountingDb } from '#tests/support/query-counter.ts'

const t = useTestDatabase()

const MINUTE = 60_000

async function enroll(db: Kysely<Database>, courseId: number, status: EnrollmentStatus) {
	await insertEnrollment(db, { userId: await insertUser(db), courseId, status })
}

async function hold(db: Kysely<Database>, courseId: number, expiresInMs: number) {
	await insertSeatHold(db, { userId: await insertUser(db), courseId, expiresInMs })
}

describe('availabilityOf', () => {
	test('is green with plenty of spots', () => {
		expect(availabilityOf({ capacity: 10, taken: 7 })).toEqual({
			taken: 7,
			spotsLeft: 3,
			isFull: false,
			isAlmostFull: false,
			tone: 'green',
		})
	})

	test('is ALMOST FULL and orange at 2 and at 1 spot left', () => {
		expect(availabilityOf({ capacity: 10, taken: 8 })).toMatchObject({ spotsLeft: 2, isAlmostFull: true, tone: 'orange' })
		expect(availabilityOf({ capacity: 10, taken: 9 })).toMatchObject({ spotsLeft: 1, isAlmostFull: true, tone: 'orange' })
	})

	test('is FULL and red at capacity, not almost full', () => {
		expect(availabilityOf({ capacity: 10, taken: 10 })).toMatchObject({
			spotsLeft: 0,
			isFull: true,
			isAlmostFull: false,
			tone: 'red',
		})
	})

	test('floors spots left at 0 when over capacity', () => {
		expect(availabilityOf({ capacity: 3, taken: 5 })).toMatchObject({ taken: 5, spotsLeft: 0, isFull: true })
	})
})

describe('course availability', () => {
	const getDb = () => t.db
	test('counts active, pending and completed enrollments but not inactive ones', async () => {
		const db = getDb()
		const course = await insertCourse(db, { capacity: 10 })
		for (const status of ['active', 'pending', 'completed', 'inactive', 'inactive'] as const) {
			await enroll(db, course.id, status)
		}
		expect(await getCourseWithAvailability(db, course.id)).toMatchObject({ taken: 3, spotsLeft: 7, isFull: false })
	})

	test('counts live seat holds and ignores expired ones', async () => {
		const db = getDb()
		const course = await insertCourse(db, { capacity: 5 })
		await enroll(db, course.id, 'active')
		await hold(db, course.id, 30 * MINUTE)
		await hold(db, course.id, 5 * MINUTE)
		await hold(db, course.id, -1 * MINUTE)
		expect(await getCourseWithAvailability(db, course.id)).toMatchObject({
			taken: 3,
			spotsLeft: 2,
			isAlmostFull: true,
			tone: 'orange',
		})
	})

	test('floors spots left at 0 when over capacity', async () => {
		const db = getDb()
		const course = await insertCourse(db, { capacity: 1 })
		await enroll(db, course.id, 'active')
		await enroll(db, course.id, 'completed')
		await hold(db, course.id, 10 * MINUTE)
		expect(await getCourseWithAvailability(db, course.id)).toMatchObject({
			taken: 3,
			spotsLeft: 0,
			isFull: true,
			tone: 'red',
		})
	})

	test('returns plain serialisable fields', async () => {
		const db = getDb()
		const course = await insertCourse(db, {
			title: 'Serialisable',
			description: 'About it',
			start_date: '2027-01-15',
			end_date: '2027-04-15',
			capacity: 12,
			registration_fee: 250000,
		})
		const found = await getCourseWithAvailability(db, course.id)
		expect(found).toEqual({
			id: course.id,
			title: 'Serialisable',
			description: 'About it',
			startDate: '2027-01-15',
			endDate: '2027-04-15',
			capacity: 12,
			registrationFee: 250000,
			schedule: null,
			outcomes: PROGRAM_OUTCOMES,
			duration: '3 months',
			published: true,
			createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.+Z$/),
			updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.+Z$/),
			taken: 0,
			spotsLeft: 12,
			isFull: false,
			isAlmostFull: false,
			tone: 'green',
		})
		expect(JSON.parse(JSON.stringify(found))).toEqual(found)
	})

	test('returns null for a missing course', async () => {
		expect(await getCourseWithAvailability(getDb(), 2_000_000_000)).toBeNull()
	})

	test('lists courses newest first, each with its own availability', async () => {
		const db = getDb()
		const older = await insertCourse(db, { capacity: 2, created_at: new Date(Date.now() - 2 * MINUTE) })
		const newer = await insertCourse(db, { capacity: 4, created_at: new Date(Date.now() + MINUTE) })
		await enroll(db, older.id, 'active')
		await enroll(db, older.id, 'pending')
		await hold(db, newer.id, 10 * MINUTE)

		const courses = await listCoursesWithAvailability(db)
		const ids = courses.map((course) => course.id)
		expect(ids[0]).toBe(newer.id)
		expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id))
		expect(courses.find((course) => course.id === older.id)).toMatchObject({ taken: 2, isFull: true })
		expect(courses.find((course) => course.id === newer.id)).toMatchObject({ taken: 1, spotsLeft: 3 })
	})
})

describe('listCoursesWithAvailability query count', () => {
	test('issues exactly one SQL statement whatever the number of courses', async () => {
		const { db: counted, statements, destroy } = createCountingDb(t.url)
		try {
			await insertCourse(t.db)
			await listCoursesWithAvailability(counted)
			expect(statements).toHaveLength(1)

			for (let i = 0; i < 5; i++) {
				const course = await insertCourse(t.db)
				await enroll(t.db, course.id, 'active')
				await hold(t.db, course.id, 10 * MINUTE)
			}
			statements.length = 0
			const courses = await listCoursesWithAvailability(counted)
			expect(courses.length).toBeGreaterThanOrEqual(6)
			expect(statements).toHaveLength(1)
		} finally {
			await destroy()
		}
	})
})

describe('course detail loader', () => {
	function load(id: string) {
		return courseDetailLoader({
			request: new Request(`http://localhost/courses/${id}`),
			params: { id },
			context: {},
		} as Parameters<typeof courseDetailLoader>[0])
	}

	test.each(['abc', '0', '-1', '1.5', '99999999999'])('answers 404 for the invalid id %s', async (id) => {
		await expect(load(id)).rejects.toMatchObject({ init: { status: 404 } })
	})

	test('answers 404 for a missing course', async () => {
		await expect(load('2000000000')).rejects.toMatchObject({ init: { status: 404 } })
	})

	test('returns the course with its availability', async () => {
		const course = await insertCourse(t.db, { title: 'Loader course', capacity: 3 })
		await enroll(t.db, course.id, 'active')
		const result = await load(String(course.id))
		expect(result.course).toMatchObject({ id: course.id, title: 'Loader course', taken: 1, spotsLeft: 2 })
	})
})

describe('a course page in the school’s own words', () => {
	test('shows the course’s outcomes and duration; without them the program’s list and "3 months", or its scheduled weeks', async () => {
		const own = await insertCourse(t.db, { outcomes: 'Find deals\n\n  Fund them  \nRent them', duration_text: '6 weeks' })
		const plain = await insertCourse(t.db)
		const scheduled = await insertCourse(t.db, {
			start_date: '2031-01-07',
			end_date: '2031-02-10',
			schedule_weekday: 2,
			schedule_start_time: '19:00',
			schedule_minutes: 90,
		})
		for (const week of [1, 2, 3, 4, 5]) {
			await t.db
				.insertInto('live_sessions')
				.values({
					course_id: scheduled.id,
					week_number: week,
					starts_at: new Date(Date.UTC(2031, 0, week * 7)),
					ends_at: new Date(Date.UTC(2031, 0, week * 7, 1)),
					time_zone: 'UTC',
				})
				.execute()
		}
		expect(await getCourseWithAvailability(t.db, own.id)).toMatchObject({
			outcomes: ['Find deals', 'Fund them', 'Rent them'],
			duration: '6 weeks',
		})
		const programs = await getCourseWithAvailability(t.db, plain.id)
		expect(programs?.duration).toBe('3 months')
		expect(programs?.outcomes).toHaveLength(6)
		expect(programs?.outcomes[0]).toMatch(/^Business formation/)
		expect((await getCourseWithAvailability(t.db, scheduled.id))?.duration).toBe('5 weeks')
	})
})
