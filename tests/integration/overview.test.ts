import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { getOverview } from '#app/models/reports/overview.server.ts'
import { overviewRangeSchema } from '#app/models/reports/overview.ts'
import { loader as overviewLoader } from '#app/routes/admin/overview.tsx'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertAttendance,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertLiveSession,
	insertPayment,
	insertPaymentRefund,
	insertPlanPurchase,
	insertUser,
	insertUsers,
	insertWaitlistEntry,
} from '#tests/support/fixtures.ts'
import { useQueryCounter } from '#tests/support/query-counter.ts'
import { callRoute, getRequest, sessionCookieFor } from '#tests/support/requests.ts'

const t = useTestDatabase()

const RANGE = { from: '2026-01-01', to: '2026-03-31', group: 'month' as const, timeZone: 'UTC', now: new Date('2026-03-10T12:00:00Z') }

async function paidPayment(
	courseId: number,
	amountCents: number,
	paidAt: string,
	values: { discount_cents?: number; payment_intent_id?: string } = {},
) {
	return insertPayment(t.db, {
		course_id: courseId,
		course_title: 'A course',
		customer_email: 'buyer@example.com',
		amount_cents: amountCents,
		status: 'paid',
		fulfilled_at: new Date(paidAt),
		created_at: paidAt,
		...values,
	})
}

/** A refund made by the admin, succeeded unless told. */
async function refund(paymentId: number, amountCents: number, values: Partial<Parameters<typeof insertPaymentRefund>[1]> = {}) {
	return insertPaymentRefund(t.db, {
		payment_id: paymentId,
		amount_cents: amountCents,
		status: 'succeeded',
		request_key: randomUUID(),
		provider_refund_id: `re_${randomUUID()}`,
		...values,
	})
}

/**
 * A school of two courses, in a first quarter: payments in full, one with a discount, one refunded
 * in part (a failed refund beside it), a plan with its first payment, a later instalment paid and
 * one outstanding, and what must be left out (a pending enrolment, an expired checkout, a payment
 * before the range, a cancelled plan's instalment, a future and a cancelled session).
 */
async function createSchool() {
	const admin = await insertUser(t.db, { role: 'admin' })
	const instructor = await insertUser(t.db, { role: 'instructor' })
	const mentorship = await insertCourse(t.db, { title: 'Mentorship', capacity: 10, start_date: '2026-01-10', end_date: '2026-03-20' })
	const workshop = await insertCourse(t.db, { title: 'Workshop', capacity: 4, start_date: '2026-02-01', end_date: '2026-02-28' })
	await insertCourse(t.db, { title: 'Last Year', capacity: 5, start_date: '2025-01-01', end_date: '2025-02-01' })
	await insertCourseStaff(t.db, { courseId: workshop.id, userId: instructor })
	const [completed, active, ended, pending, workshopStudent] = (await insertUsers(t.db, 5)).map((user) => user.id) as [
		string,
		string,
		string,
		string,
		string,
	]
	const enrol = async (userId: string, courseId: number, status: 'active' | 'completed' | 'inactive' | 'pending', day: string) =>
		(await insertEnrollment(t.db, { userId, courseId, status, enrolledAt: new Date(`${day}T10:00:00Z`) })).id
	await enrol(completed, mentorship.id, 'completed', '2026-01-15')
	const planEnrolment = await enrol(active, mentorship.id, 'active', '2026-01-20')
	await enrol(ended, mentorship.id, 'inactive', '2026-02-03')
	await enrol(pending, mentorship.id, 'pending', '2026-02-04')
	await enrol(workshopStudent, workshop.id, 'active', '2026-02-20')

	await paidPayment(mentorship.id, 250_000, '2026-01-15T10:00:00Z')
	await paidPayment(mentorship.id, 200_000, '2026-02-03T10:00:00Z', { discount_cents: 50_000 })
	const refunded = await paidPayment(workshop.id, 100_000, '2026-02-20T10:00:00Z')
	// Asked for on 4 March, returned on the 5th.
	await refund(refunded.id, 40_000, { created_at: '2026-03-04T10:00:00Z', updated_at: '2026-03-05T10:00:00Z' })
	await refund(refunded.id, 10_000, { status: 'failed', provider_refund_id: null })
	await insertPayment(t.db, { course_id: mentorship.id, course_title: 'Mentorship', customer_email: 'x@example.com', status: 'expired' })
	await paidPayment(mentorship.id, 99_000, '2025-12-31T23:00:00Z')

	// The plan: $2,600 in three; the first payment is its checkout's, the second paid later, the third due in March.
	const plan = await insertPlanPurchase(t.db, {
		userId: active,
		courseId: mentorship.id,
		enrollmentId: planEnrolment,
		firstDueOn: '2026-01-20',
	})
	await paidPayment(mentorship.id, 86_668, '2026-01-20T10:00:00Z', { payment_intent_id: 'pi_plan_first' })
	const [first, second] = plan.instalmentIds as [number, number, number]
	await t.db
		.updateTable('plan_instalments')
		.set({ paid_at: new Date('2026-01-20T10:00:00Z'), payment_intent_id: 'pi_plan_first' })
		.where('id', '=', first)
		.execute()
	await t.db
		.updateTable('plan_instalments')
		.set({ status: 'paid', paid_at: new Date('2026-02-20T10:00:00Z'), payment_intent_id: 'pi_plan_second' })
		.where('id', '=', second)
		.execute()
	await insertPlanPurchase(t.db, {
		userId: ended,
		courseId: mentorship.id,
		enrollmentId: null,
		status: 'cancelled',
		firstDueOn: '2026-01-25',
	})

	await insertWaitlistEntry(t.db, { course_id: mentorship.id, position: 1 })
	await insertWaitlistEntry(t.db, {
		course_id: mentorship.id,
		position: 2,
		status: 'enrolled',
		offered_at: new Date('2026-02-01T10:00:00Z'),
	})
	await insertWaitlistEntry(t.db, {
		course_id: mentorship.id,
		position: 3,
		status: 'expired',
		offered_at: new Date('2026-02-05T10:00:00Z'),
	})
	await insertWaitlistEntry(t.db, {
		course_id: mentorship.id,
		position: 4,
		status: 'expired',
		offered_at: new Date('2025-12-01T10:00:00Z'),
	})
	await insertWaitlistEntry(t.db, {
		course_id: mentorship.id,
		position: 5,
		status: 'offered',
		offered_at: new Date('2026-03-01T10:00:00Z'),
		offer_expires_at: new Date('2026-03-02T10:00:00Z'),
		offer_token_hash: randomUUID(),
	})

	const held = await insertLiveSession(t.db, { courseId: mentorship.id, startsAt: '2026-02-01T18:00:00Z', endsAt: '2026-02-01T19:00:00Z' })
	await insertAttendance(t.db, { sessionId: held, userId: completed, status: 'present' })
	await insertAttendance(t.db, { sessionId: held, userId: active, status: 'late' })
	await insertLiveSession(t.db, {
		courseId: mentorship.id,
		weekNumber: 2,
		startsAt: '2026-03-15T18:00:00Z',
		endsAt: '2026-03-15T19:00:00Z',
	})
	const cancelled = await insertLiveSession(t.db, {
		courseId: workshop.id,
		startsAt: '2026-02-10T18:00:00Z',
		endsAt: '2026-02-10T19:00:00Z',
	})
	await t.db.updateTable('live_sessions').set({ status: 'cancelled' }).where('id', '=', cancelled).execute()
	const workshopSession = await insertLiveSession(t.db, {
		courseId: workshop.id,
		weekNumber: 2,
		startsAt: '2026-02-24T18:00:00Z',
		endsAt: '2026-02-24T19:00:00Z',
	})

	return { admin, instructor, mentorship, workshop, held, workshopSession }
}

describe('the overview', () => {
	let school: Awaited<ReturnType<typeof createSchool>>
	beforeAll(async () => {
		school = await createSchool()
	})

	test('adds up a hand-built quarter: money by month, seats, waitlist, attendance and completion', async () => {
		const overview = await getOverview(t.db, { id: school.admin, isAdmin: true }, RANGE)

		expect(overview.periods.map((period) => [period.start, period.enrolments])).toEqual([
			['2026-01-01', 2],
			['2026-02-01', 2],
			['2026-03-01', 0],
		])
		expect(overview.periods.map((period) => period.money)).toEqual([
			// $2,500 in full and the plan's first payment.
			{ paidCents: 336_668, discountCents: 0, refundedCents: 0, netCents: 336_668, planCollectedCents: 86_668, planOutstandingCents: 0 },
			// $2,000 after a $500 discount, $1,000 in full, and the plan's second instalment.
			{
				paidCents: 386_666,
				discountCents: 50_000,
				refundedCents: 0,
				netCents: 386_666,
				planCollectedCents: 86_666,
				planOutstandingCents: 0,
			},
			// The refund that succeeded; the plan's third instalment is due.
			{ paidCents: 0, discountCents: 0, refundedCents: 40_000, netCents: -40_000, planCollectedCents: 0, planOutstandingCents: 86_666 },
		])
		expect(overview.planBalance).toEqual({ outstandingCents: 86_666, overdueCents: 0, plans: 1 })

		expect(overview.courses.map((course) => course.title)).toEqual(['Mentorship', 'Workshop'])
		expect(overview.courses[0]).toMatchObject({
			capacity: 10,
			seatsTaken: 3,
			waiting: 1,
			offersMade: 3,
			offersTaken: 1,
			offersExpired: 1,
			offersOpen: 1,
			enrolled: 3,
			completed: 1,
			active: 1,
			ended: 1,
		})
		expect(overview.courses[1]).toMatchObject({ capacity: 4, seatsTaken: 1, enrolled: 1, completed: 0, active: 1 })

		expect(overview.sessions).toEqual([
			expect.objectContaining({ id: school.held, courseTitle: 'Mentorship', present: 1, late: 1, absent: 0, excused: 0, unrecorded: 0 }),
			expect.objectContaining({ id: school.workshopSession, courseTitle: 'Workshop', present: 0, unrecorded: 1 }),
		])
	})

	test("weeks start on Monday, and the viewer's time zone decides a payment's day", async () => {
		const weekly = await getOverview(
			t.db,
			{ id: school.admin, isAdmin: true },
			{ ...RANGE, from: '2026-01-14', to: '2026-01-21', group: 'week' },
		)
		expect(weekly.periods.map((period) => [period.start, period.money?.paidCents])).toEqual([
			['2026-01-12', 250_000],
			['2026-01-19', 86_668],
		])
		// 23:00 UTC on 31 December is already 1 January in Berlin.
		const berlin = await getOverview(t.db, { id: school.admin, isAdmin: true }, { ...RANGE, timeZone: 'Europe/Berlin' })
		expect(berlin.periods[0]?.money?.paidCents).toBe(336_668 + 99_000)
	})

	test('an instructor sees the courses they teach, and no money', async () => {
		const overview = await getOverview(t.db, { id: school.instructor, isAdmin: false }, RANGE)
		expect(overview.periods.map((period) => period.enrolments)).toEqual([0, 1, 0])
		expect(overview.periods.every((period) => period.money === null)).toBe(true)
		expect(overview.planBalance).toBeNull()
		expect(overview.courses.map((course) => course.id)).toEqual([school.workshop.id])
		expect(overview.sessions.map((session) => session.id)).toEqual([school.workshopSession])
	})

	test('the page answers an instructor without the revenue section', async () => {
		const cookie = await sessionCookieFor(school.instructor)
		const response = await callRoute(overviewLoader, getRequest('/dashboard/admin/overview?from=2026-01-01&to=2026-03-31', { cookie }))
		expect(response.status).toBe(200)
		const body = await response.json()
		expect(body.isAdmin).toBe(false)
		expect(body.overview.planBalance).toBeNull()
	})
})

describe('the range form', () => {
	const schema = overviewRangeSchema('2026-06-15')
	test('defaults to the six calendar months up to today, by month', () => {
		expect(schema.parse({})).toEqual({ from: '2026-01-01', to: '2026-06-15', group: 'month' })
		expect(schema.parse({ to: '2026-03-31', group: 'week' })).toEqual({ from: '2025-10-01', to: '2026-03-31', group: 'week' })
	})

	test('refuses what is not a range, by name', () => {
		const messages = (input: Record<string, string>) => schema.safeParse(input).error?.issues.map((issue) => issue.message)
		expect(messages({ from: '2026-02-30' })).toEqual(['Enter the start date as a date (YYYY-MM-DD)'])
		expect(messages({ to: 'yesterday' })).toEqual(['Enter the end date as a date (YYYY-MM-DD)'])
		expect(messages({ from: '0000-01-01', to: '0000-02-01' })).toEqual([
			'Enter the start date as a date (YYYY-MM-DD)',
			'Enter the end date as a date (YYYY-MM-DD)',
		])
		expect(messages({ from: '2026-05-01', to: '2026-04-01' })).toEqual(['The start date must be on or before the end date'])
		expect(messages({ from: '2016-01-01', to: '2026-01-01' })).toEqual(['Choose a range of at most five years'])
		expect(messages({ group: 'year' })).toEqual(['Choose month or week'])
	})

	test('bad dates on the page answer 400 with the message and no figures', async () => {
		const cookie = await sessionCookieFor(await insertUser(t.db, { role: 'admin' }))
		const response = await callRoute(overviewLoader, getRequest('/dashboard/admin/overview?from=2026-05-01&to=2026-04-01', { cookie }))
		expect(response.status).toBe(400)
		const body = await response.json()
		expect(body.overview).toBeNull()
		expect(body.result.error.from).toEqual(['The start date must be on or before the end date'])
	})
})

describe('statements', () => {
	const counter = useQueryCounter(t)

	/** `n` courses taught by one instructor, each with `n` students, payments, refunds, plans, waitlist places and sessions. */
	async function growSchool(instructor: string, n: number) {
		const students = (await insertUsers(t.db, n)).map((user) => user.id)
		for (let index = 0; index < n; index++) {
			const course = await insertCourse(t.db, { capacity: n, start_date: '2026-01-01', end_date: '2026-06-30' })
			await insertCourseStaff(t.db, { courseId: course.id, userId: instructor })
			const session = await insertLiveSession(t.db, {
				courseId: course.id,
				startsAt: '2026-02-02T18:00:00Z',
				endsAt: '2026-02-02T19:00:00Z',
			})
			for (const student of students) {
				const enrolment = await insertEnrollment(t.db, { userId: student, courseId: course.id })
				const payment = await paidPayment(course.id, 10_000, '2026-02-10T10:00:00Z', { discount_cents: 1_000 })
				await refund(payment.id, 500)
				await insertPlanPurchase(t.db, { userId: student, courseId: course.id, enrollmentId: enrolment.id, firstDueOn: '2026-02-01' })
				await insertAttendance(t.db, { sessionId: session, userId: student })
				await insertWaitlistEntry(t.db, {
					course_id: course.id,
					position: students.indexOf(student) + 1,
					status: 'expired',
					offered_at: new Date(),
				})
			}
		}
	}

	async function countStatements(cookie: string) {
		let status = 0
		const statements = await counter.record(async () => {
			status = (await callRoute(overviewLoader, getRequest('/dashboard/admin/overview?from=2025-12-01&to=2026-12-31', { cookie }))).status
		})
		expect(status).toBe(200)
		return statements.length
	}

	test('the page issues as many statements for 1 course of 1 student as for 12 courses of 12', async () => {
		const admin = await sessionCookieFor(await insertUser(t.db, { role: 'admin' }))
		const instructorId = await insertUser(t.db, { role: 'instructor' })
		const instructor = await sessionCookieFor(instructorId)

		await growSchool(instructorId, 1)
		const small = { admin: await countStatements(admin), instructor: await countStatements(instructor) }
		await growSchool(instructorId, 12)
		const large = { admin: await countStatements(admin), instructor: await countStatements(instructor) }

		expect(large).toEqual(small)
		expect(small.admin).toBeLessThanOrEqual(8)
	})
})
