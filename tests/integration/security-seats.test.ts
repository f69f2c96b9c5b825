/**
 * Money and seats at scale. SECURITY_REPEATS (set by `npm run test:stress`)
 * repeats the 200-buyer race; the normal suite runs it once.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { claimSeat, openCheckout } from '#app/models/payments.server.ts'
import { enrollWithinCapacity, SeatUnavailableError } from '#app/models/seats.server.ts'
import { createUser } from '#app/models/users.server.ts'
import { loader as completionLoader } from '#app/routes/register/registration-complete.tsx'
import { action as webhookAction } from '#app/routes/resources/stripe-webhook.ts'
import { setPayments } from '#app/services/payments/index.server.ts'
import { StripePayments } from '#app/services/payments/stripe.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { getRequest, settle } from '#tests/support/requests.ts'
import { type StripeStandIn, startStripeServer } from '#tests/support/stripe-server.ts'

const t = useTestDatabase()
const REPEATS = Number(process.env.SECURITY_REPEATS ?? 1)
let sequence = 0

async function users(count: number) {
	if (count === 0) return []
	const rows = await t.db
		.insertInto('users')
		.values(
			Array.from({ length: count }, () => ({
				email: `buyer-${++sequence}-${Date.now()}@example.com`,
				password_hash: 'unused',
				email_confirmed_at: new Date(),
			})),
		)
		.returning('id')
		.execute()
	await t.db
		.insertInto('profiles')
		.values(rows.map((row) => ({ id: row.id, name: 'Buyer', role: 'student' as const })))
		.execute()
	return rows.map((row) => row.id)
}

async function courseWithSeatsLeft(capacity: number, taken: number) {
	const course = await t.db
		.insertInto('courses')
		.values({ title: `Race ${++sequence}`, capacity })
		.returning('id')
		.executeTakeFirstOrThrow()
	for (const userId of await users(taken)) {
		await t.db
			.insertInto('enrollments')
			.values({ user_id: userId, course_id: course.id, status: 'active', enrollment_date: new Date() })
			.execute()
	}
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

function tally(outcomes: string[]) {
	const counts: Record<string, number> = {}
	for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1
	return counts
}

describe('seats under concurrency', () => {
	test(`200 distinct buyers race for the last 3 seats: exactly 3 enrol (${REPEATS} run${REPEATS === 1 ? '' : 's'})`, async () => {
		const results: Record<string, number>[] = []
		for (let run = 0; run < REPEATS; run++) {
			const courseId = await courseWithSeatsLeft(10, 7)
			const buyers = await users(200)
			const outcomes = await Promise.all(buyers.map((userId) => attempt(userId, courseId)))
			results.push(tally(outcomes))
			const enrolled = await t.db.selectFrom('enrollments').select('id').where('course_id', '=', courseId).execute()
			expect(enrolled).toHaveLength(10)
		}
		if (process.env.SECURITY_REPEATS) console.log('200 buyers / 3 seats:', JSON.stringify(results))
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
	let stripe: StripeStandIn
	let payments: StripePayments
	beforeAll(async () => {
		stripe = await startStripeServer()
		payments = new StripePayments({ secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiUrl: stripe.url })
	})
	afterAll(async () => stripe.stop())
	beforeEach(() => setPayments(payments))
	afterEach(() => setPayments(undefined))

	async function heldCheckout() {
		const email = `paying-${++sequence}@example.com`
		const user = await createUser(t.db, { email, name: 'Paying Buyer', passwordHash: 'unused', confirmed: true })
		const course = await t.db
			.insertInto('courses')
			.values({ title: `Paid ${sequence}`, capacity: 1, registration_fee: 250000 })
			.returning('id')
			.executeTakeFirstOrThrow()
		const claim = await t.db.transaction().execute((trx) => claimSeat(trx, { userId: user.id, courseId: course.id }))
		if (claim.kind !== 'held') throw new Error('expected a hold')
		const { sessionId } = await openCheckout(t.db, payments, {
			claim,
			user: { id: user.id, email },
			appUrl: 'http://localhost:3000',
			cancelPath: '/register?step=3',
		})
		return { email, courseId: course.id, sessionId }
	}

	function deliver(event: { body: string; signature: string }) {
		const request = new Request('http://localhost/webhooks/stripe', {
			method: 'POST',
			body: event.body,
			headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature },
		})
		return settle(() => webhookAction({ request, params: {}, context: {} } as never))
	}

	test('checkout.session.completed delivered 10 times at once while the completion page loads 5 times: one enrollment, one receipt', async () => {
		const { email, courseId, sessionId } = await heldCheckout()
		stripe.pay(sessionId)
		const event = stripe.webhook('checkout.session.completed', sessionId)
		const mailsBefore = await t.db.selectFrom('email_outbox').select('id').where('to_address', '=', email).execute()
		const [hooks, pages] = await Promise.all([
			Promise.all(Array.from({ length: 10 }, () => deliver(event))),
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
