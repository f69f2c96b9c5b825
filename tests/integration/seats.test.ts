import { describe, expect, test } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import {
	changeEnrollmentStatus,
	enrollWithinCapacity,
	placeSeatHold,
	SeatUnavailableError,
	sweepExpiredSeatHolds,
} from '#app/models/enrollment/seats.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse } from '#tests/support/fixtures.ts'

const t = useTestDatabase()
let sequence = 0

async function student() {
	sequence += 1
	const user = await createUser(t.db, { email: `seat-${sequence}@example.com`, name: 'Seat Taker', passwordHash: 'x', confirmed: true })
	return user.id
}

async function course(capacity: number) {
	return (await insertCourse(t.db, { title: 'Seats', capacity })).id
}

async function enrolledCount(courseId: number) {
	const rows = await t.db.selectFrom('enrollments').select('id').where('course_id', '=', courseId).execute()
	return rows.length
}

function reasonOf(error: unknown) {
	return error instanceof SeatUnavailableError ? error.reason : 'unexpected'
}

describe('seats', () => {
	test('enrols until the course is full, then refuses with course-full', async () => {
		const courseId = await course(1)
		const first = await student()
		await t.db.transaction().execute((trx) => enrollWithinCapacity(trx, { userId: first, courseId }))
		const second = await student()
		const refused = await t.db
			.transaction()
			.execute((trx) => enrollWithinCapacity(trx, { userId: second, courseId }))
			.catch(reasonOf)
		expect(refused).toBe('course-full')
	})

	test('a second enrollment of the same user is refused', async () => {
		const courseId = await course(5)
		const userId = await student()
		await t.db.transaction().execute((trx) => enrollWithinCapacity(trx, { userId, courseId }))
		const refused = await t.db
			.transaction()
			.execute((trx) => enrollWithinCapacity(trx, { userId, courseId }))
			.catch(reasonOf)
		expect(refused).toBe('already-enrolled')
	})

	test('an unknown course is refused', async () => {
		const userId = await student()
		const refused = await t.db
			.transaction()
			.execute((trx) => enrollWithinCapacity(trx, { userId, courseId: 999_999 }))
			.catch(reasonOf)
		expect(refused).toBe('course-not-found')
	})

	test('50 concurrent attempts for the last 2 seats: exactly 2 succeed, 48 are told the course is full', async () => {
		const courseId = await course(3)
		await t.db.transaction().execute(async (trx) => enrollWithinCapacity(trx, { userId: await student(), courseId }))
		const users = await Promise.all(Array.from({ length: 50 }, () => student()))
		const outcomes = await Promise.all(
			users.map((userId, index) =>
				t.db
					.transaction()
					.execute((trx) =>
						index % 2 === 0
							? enrollWithinCapacity(trx, { userId, courseId }).then(() => 'seat')
							: placeSeatHold(trx, { userId, courseId, expiresAt: new Date(Date.now() + 60_000) }).then(() => 'seat'),
					)
					.catch(reasonOf),
			),
		)
		expect(outcomes.filter((outcome) => outcome === 'seat')).toHaveLength(2)
		expect(outcomes.filter((outcome) => outcome === 'course-full')).toHaveLength(48)
	})

	test('a live hold takes a seat; an expired one does not and is swept', async () => {
		const courseId = await course(1)
		const holder = await student()
		await t.db.transaction().execute((trx) => placeSeatHold(trx, { userId: holder, courseId, expiresAt: new Date(Date.now() + 60_000) }))
		const other = await student()
		expect(
			await t.db
				.transaction()
				.execute((trx) => enrollWithinCapacity(trx, { userId: other, courseId }))
				.catch(reasonOf),
		).toBe('course-full')

		await t.db
			.updateTable('seat_holds')
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where('user_id', '=', holder)
			.execute()
		await t.db.transaction().execute((trx) => enrollWithinCapacity(trx, { userId: other, courseId }))
		expect(await enrolledCount(courseId)).toBe(1)
		expect(await sweepExpiredSeatHolds(t.db)).toBeGreaterThanOrEqual(1)
	})

	test('fulfilling a checkout turns the own hold into the enrollment, even when the hold filled the course', async () => {
		const courseId = await course(1)
		const userId = await student()
		await t.db.transaction().execute((trx) => placeSeatHold(trx, { userId, courseId, expiresAt: new Date(Date.now() + 60_000) }))
		await t.db.transaction().execute((trx) => enrollWithinCapacity(trx, { userId, courseId, consumeHold: true }))
		expect(await enrolledCount(courseId)).toBe(1)
		const holds = await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute()
		expect(holds).toEqual([])
	})

	test('re-activating an inactive enrollment needs a free seat', async () => {
		const courseId = await course(1)
		const first = await student()
		const { enrollmentId } = await t.db
			.transaction()
			.execute((trx) => enrollWithinCapacity(trx, { userId: first, courseId, status: 'inactive' }))
		await t.db.transaction().execute(async (trx) => enrollWithinCapacity(trx, { userId: await student(), courseId }))
		const refused = await t.db
			.transaction()
			.execute((trx) => changeEnrollmentStatus(trx, enrollmentId, 'active'))
			.catch(reasonOf)
		expect(refused).toBe('course-full')
	})
})
