/**
 * Money and seats at scale. SECURITY_REPEATS (set by `npm run test:stress`)
 * repeats the 200-buyer race; the normal suite runs it once.
 */
import { describe, expect, test } from 'vitest'
import { changeEnrollmentStatus, enrollWithinCapacity, SeatUnavailableError } from '#app/models/enrollment/seats.server.ts'
import { joinWaitlist, sweepWaitlistOffers } from '#app/models/enrollment/waitlist.server.ts'
import { loader as completionLoader } from '#app/routes/register/registration-complete.tsx'
import { deliverStripeEvent, holdAndOpenCheckout } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertUser, insertUsers } from '#tests/support/fixtures.ts'
import { raceTallies, tally } from '#tests/support/races.ts'
import { getRequest } from '#tests/support/requests.ts'
import { useStripeStandIn } from '#tests/support/stripe-stand-in.ts'

const t = useTestDatabase()
const REPEATS = Number(process.env.SECURITY_REPEATS ?? 1)
let sequence = 0

async function users(count: number) {
	return (await usersWithEmails(count)).map((user) => user.id)
}

async function usersWithEmails(count: number) {
	return insertUsers(t.db, count, { name: () => 'Buyer', email: () => `buyer-${++sequence}-${Date.now()}@example.com` })
}

async function courseWithSeatsLeft(capacity: number, taken: number) {
	const course = await insertCourse(t.db, { title: `Race ${++sequence}`, capacity })
	for (const userId of await users(taken)) await insertEnrollment(t.db, { userId, courseId: course.id })
	return course.id
}

function attempt(userId: string, courseId: number) {
	return t.db
		.transaction()
		.execute((trx) => enrollWithinCapacity(trx, { userId, courseId }))
		.then(
			() => 'enrolled',
			(error: unknown) => (error instanceof SeatUnavailableError ? error.reason : `unexpected: ${String(error)}`),
		)
}

describe('seats under concurrency', () => {
	test(`200 distinct buyers race for the last 3 seats: exactly 3 enrol (${REPEATS} run${REPEATS === 1 ? '' : 's'})`, async () => {
		const races = { runs: REPEATS, label: '200 buyers / 3 seats:', print: Boolean(process.env.SECURITY_REPEATS) }
		const results = await raceTallies(races, async () => {
			const courseId = await courseWithSeatsLeft(10, 7)
			const buyers = await users(200)
			const outcomes = await Promise.all(buyers.map((userId) => attempt(userId, courseId)))
			const enrolled = await t.db.selectFrom('enrollments').select('id').where('course_id', '=', courseId).execute()
			expect(enrolled).toHaveLength(10)
			return outcomes
		})
		for (const result of results) expect(result).toEqual({ enrolled: 3, 'course-full': 197 })
	}, 600_000)

	test('one user sending 50 parallel attempts gets one enrollment', async () => {
		const courseId = await courseWithSeatsLeft(30, 0)
		const [userId] = await users(1)
		const outcomes = await Promise.all(Array.from({ length: 50 }, () => attempt(userId!, courseId)))
		expect(tally(outcomes)).toEqual({ enrolled: 1, 'already-enrolled': 49 })
		const rows = await t.db.selectFrom('enrollments').select('id').where('user_id', '=', userId!).execute()
		expect(rows).toHaveLength(1)
	})
})

describe('checkout events at scale', () => {
	const { stripe, payments } = useStripeStandIn({ installed: true })

	async function heldCheckout() {
		const email = `paying-${++sequence}@example.com`
		const user = { id: await insertUser(t.db, { email, name: 'Paying Buyer' }), email }
		const course = await insertCourse(t.db, { title: `Paid ${sequence}`, capacity: 1, registration_fee: 250000 })
		const { sessionId } = await holdAndOpenCheckout(t.db, payments, { user, courseId: course.id, cancelPath: '/register?step=3' })
		return { email, courseId: course.id, sessionId }
	}

	test('checkout.session.completed delivered 10 times at once while the completion page loads 5 times: one enrollment, one receipt', async () => {
		const { email, courseId, sessionId } = await heldCheckout()
		stripe.pay(sessionId)
		const event = stripe.webhook('checkout.session.completed', sessionId)
		const mailsBefore = await t.db.selectFrom('email_outbox').select('id').where('to_address', '=', email).execute()
		const [hooks, pages] = await Promise.all([
			Promise.all(Array.from({ length: 10 }, () => deliverStripeEvent(event))),
			Promise.all(
				Array.from({ length: 5 }, () =>
					completionLoader({ request: getRequest(`/registration-complete?session_id=${sessionId}`), params: {}, context: {} } as never),
				),
			),
		])
		expect(hooks.map((hook) => hook.status)).toEqual(Array(10).fill(200))
		for (const page of pages) expect(page).toMatchObject({ state: 'success' })
		const enrollments = await t.db.selectFrom('enrollments').select(['user_id', 'status']).where('course_id', '=', courseId).execute()
		expect(enrollments).toHaveLength(1)
		const mails = await t.db
			.selectFrom('email_outbox')
			.select('subject')
			.where('to_address', '=', email)
			.where('id', 'not in', [0, ...mailsBefore.map((mail) => mail.id)])
			.execute()
		// The receipt leaves with the enrollment, once: 15 racing deliveries add exactly one mail.
		expect(mails.map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Enrollment confirmed: /)])
	})
})

describe('waitlist offers under concurrency (docs/decisions/034)', () => {
	async function fullCourseWithQueue(capacity: number, waiting: number) {
		const courseId = await courseWithSeatsLeft(capacity, capacity)
		const title = (await t.db.selectFrom('courses').select('title').where('id', '=', courseId).executeTakeFirstOrThrow()).title
		const queue = await usersWithEmails(waiting)
		const joined = await Promise.all(
			queue.map((user) => joinWaitlist(t.db, { name: 'Waiting', email: user.email, program: title, courseId, userId: user.id })),
		)
		const enrollments = await t.db.selectFrom('enrollments').select('id').where('course_id', '=', courseId).execute()
		return { courseId, queue, joined, enrollmentIds: enrollments.map((row) => row.id) }
	}

	async function seatsOf(courseId: number) {
		const [active, offers, course] = await Promise.all([
			t.db.selectFrom('enrollments').select('user_id').where('course_id', '=', courseId).where('status', '=', 'active').execute(),
			t.db
				.selectFrom('waitlist_entries')
				.select(['user_id', 'position'])
				.where('course_id', '=', courseId)
				.where('status', '=', 'offered')
				.where('offer_expires_at', '>', new Date())
				.orderBy('position')
				.execute(),
			t.db.selectFrom('courses').select('capacity').where('id', '=', courseId).executeTakeFirstOrThrow(),
		])
		const enrolledUsers = new Set(active.map((row) => row.user_id))
		return {
			capacity: course.capacity,
			active: active.length,
			offers: offers.length,
			offeredPositions: offers.map((row) => row.position),
			offeredAndEnrolled: offers.filter((row) => row.user_id && enrolledUsers.has(row.user_id)).length,
		}
	}

	const inactive = (enrollmentId: number) =>
		t.db
			.transaction()
			.execute((trx) => changeEnrollmentStatus(trx, enrollmentId, 'inactive'))
			.then(() => 'freed')

	test(`40 join a full course at once, then 10 seats free while 60 outsiders claim and 5 sweeps run: exactly 10 offers, to the first 10 in line, no outsider seated (${REPEATS} run${REPEATS === 1 ? '' : 's'})`, async () => {
		const results: Record<string, number>[] = []
		for (let run = 0; run < REPEATS; run++) {
			const { courseId, joined, enrollmentIds } = await fullCourseWithQueue(10, 40)
			const positions = joined.map((place) => (place.kind === 'queued' ? place.position : 0)).sort((a, b) => a - b)
			expect(positions).toEqual(Array.from({ length: 40 }, (_, index) => index + 1))
			const outsiders = await users(60)
			const outcomes = await Promise.all([
				...enrollmentIds.map(inactive),
				...outsiders.map((userId) => attempt(userId, courseId)),
				...Array.from({ length: 5 }, () => sweepWaitlistOffers(t.db).then(() => 'swept')),
			])
			results.push(tally(outcomes))
			expect(await seatsOf(courseId)).toEqual({
				capacity: 10,
				active: 0,
				offers: 10,
				offeredPositions: Array.from({ length: 10 }, (_, index) => index + 1),
				offeredAndEnrolled: 0,
			})
		}
		if (process.env.SECURITY_REPEATS) console.log('10 frees / 60 outsiders / 5 sweeps:', JSON.stringify(results))
		for (const result of results) expect(result).toEqual({ freed: 10, 'course-full': 60, swept: 5 })
	}, 600_000)

	test(`10 open offers claimed 3 times each at once, with 50 outsiders and 5 sweeps: exactly 10 enrol, each once (${REPEATS} run${REPEATS === 1 ? '' : 's'})`, async () => {
		const results: Record<string, number>[] = []
		for (let run = 0; run < REPEATS; run++) {
			const { courseId, enrollmentIds } = await fullCourseWithQueue(10, 15)
			for (const id of enrollmentIds) await inactive(id)
			// The parallel joins decided the order: the offers went to whoever came first.
			const offered = (
				await t.db
					.selectFrom('waitlist_entries')
					.select('user_id as id')
					.where('course_id', '=', courseId)
					.where('status', '=', 'offered')
					.execute()
			).map((row) => ({ id: row.id! }))
			expect(offered).toHaveLength(10)
			const outsiders = await users(50)
			const outcomes = await Promise.all([
				...offered.flatMap((user) => [attempt(user.id, courseId), attempt(user.id, courseId), attempt(user.id, courseId)]),
				...outsiders.map((userId) => attempt(userId, courseId)),
				...Array.from({ length: 5 }, () => sweepWaitlistOffers(t.db).then(() => 'swept')),
			])
			results.push(tally(outcomes))
			expect(await seatsOf(courseId)).toEqual({ capacity: 10, active: 10, offers: 0, offeredPositions: [], offeredAndEnrolled: 0 })
			const stillWaiting = await t.db
				.selectFrom('waitlist_entries')
				.select('status')
				.where('course_id', '=', courseId)
				.where('status', '=', 'waiting')
				.execute()
			expect(stillWaiting).toHaveLength(5)
		}
		if (process.env.SECURITY_REPEATS) console.log('10 offers x3 claims / 50 outsiders:', JSON.stringify(results))
		for (const result of results) expect(result).toEqual({ enrolled: 10, 'already-enrolled': 20, 'course-full': 50, swept: 5 })
	}, 600_000)

	test(`frees and claims interleaved: 8 seats free while all 24 waiting and 24 outsiders claim at once; never more offers than free seats, never a seat both offered and sold (${REPEATS} run${REPEATS === 1 ? '' : 's'})`, async () => {
		const results: Record<string, number>[] = []
		for (let run = 0; run < REPEATS; run++) {
			const { courseId, queue, enrollmentIds } = await fullCourseWithQueue(8, 24)
			const outsiders = await users(24)
			const outcomes = await Promise.all([
				...enrollmentIds.map(inactive),
				...queue.map((user) => attempt(user.id, courseId).then((outcome) => `waiting:${outcome}`)),
				...outsiders.map((userId) => attempt(userId, courseId).then((outcome) => `outsider:${outcome}`)),
			])
			const tallied = tally(outcomes)
			results.push(tallied)
			const seats = await seatsOf(courseId)
			// Each freed seat went to the line: enrolled by a waiting person who held its offer, or still offered.
			expect(seats.active + seats.offers).toBe(8)
			expect(seats.active).toBe(tallied['waiting:enrolled'] ?? 0)
			expect(seats.offeredAndEnrolled).toBe(0)
			expect(tallied['outsider:course-full']).toBe(24)
		}
		if (process.env.SECURITY_REPEATS) console.log('8 frees / 24 waiting / 24 outsiders:', JSON.stringify(results))
	}, 600_000)
})
