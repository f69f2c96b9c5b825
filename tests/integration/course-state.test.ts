import { afterEach, describe, expect, test } from 'vitest'
import { courseStateFor, listUnpaidRegistrations } from '#app/models/courses/course-state.server.ts'
import { joinWaitlist } from '#app/models/enrollment/waitlist.server.ts'
import { expireCheckout } from '#app/models/payments/payments.server.ts'
import { loader as courseLoader } from '#app/routes/public/course-detail.tsx'
import { loader as enrollLoader } from '#app/routes/register/enroll.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { holdAndOpenCheckout } from '#tests/support/checkouts.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertUser } from '#tests/support/fixtures.ts'
import { callRoute, getRequest, sessionCookieFor } from '#tests/support/requests.ts'

const t = useTestDatabase()
afterEach(() => setPayments(undefined))

async function startCheckout(userId: string, courseId: number) {
	const payments = new TestCheckoutPayments(() => t.db)
	return holdAndOpenCheckout(t.db, payments, {
		user: { id: userId, email: 'payer@example.com' },
		courseId,
		appUrl: 'http://localhost',
		cancelPath: '/',
	})
}

describe('courseStateFor', () => {
	test('nothing for a user with no tie to the course', async () => {
		const userId = await insertUser(t.db)
		const course = await insertCourse(t.db)
		expect(await courseStateFor(t.db, userId, course.id)).toEqual({ kind: 'none' })
	})

	test('active and completed enrolments are enrolled; pending waits for payment; inactive says so', async () => {
		const course = await insertCourse(t.db)
		const states = []
		for (const status of ['active', 'completed', 'pending', 'inactive'] as const) {
			const userId = await insertUser(t.db)
			await insertEnrollment(t.db, { userId, courseId: course.id, status })
			states.push(await courseStateFor(t.db, userId, course.id))
		}
		expect(states).toEqual([
			{ kind: 'enrolled' },
			{ kind: 'enrolled' },
			{ kind: 'payment-pending', canPay: false, heldUntil: null },
			{ kind: 'inactive' },
		])
	})

	test('an open checkout holds the seat until its end; a cancelled one still awaits payment', async () => {
		const userId = await insertUser(t.db)
		const course = await insertCourse(t.db, { registration_fee: 250000 })
		const checkout = await startCheckout(userId, course.id)
		const open = await courseStateFor(t.db, userId, course.id)
		expect(open).toMatchObject({ kind: 'payment-pending', canPay: true })
		expect(open.kind === 'payment-pending' && open.heldUntil).toEqual(expect.any(String))

		await expireCheckout(t.db, checkout.sessionId)
		expect(await courseStateFor(t.db, userId, course.id)).toEqual({ kind: 'payment-pending', canPay: true, heldUntil: null })
		expect(await listUnpaidRegistrations(t.db, userId)).toEqual([{ courseId: course.id, courseTitle: course.title }])

		// Once enrolled (say, by an admin), nothing is left to pay.
		await insertEnrollment(t.db, { userId, courseId: course.id })
		expect(await courseStateFor(t.db, userId, course.id)).toEqual({ kind: 'enrolled' })
		expect(await listUnpaidRegistrations(t.db, userId)).toEqual([])
	})

	test('a waitlist request sent with the user e-mail, in any case, for this course', async () => {
		const email = `wait-${Date.now()}@example.com`
		const userId = await insertUser(t.db, { email })
		const course = await insertCourse(t.db)
		const other = await insertCourse(t.db)
		await joinWaitlist(t.db, { name: 'Wanda', email: email.toUpperCase(), program: course.title })
		expect(await courseStateFor(t.db, userId, course.id)).toEqual({
			kind: 'waitlisted',
			since: expect.any(String),
			position: null,
			offerExpiresAt: null,
		})
		expect(await courseStateFor(t.db, userId, other.id)).toEqual({ kind: 'none' })
	})
})

describe('the course page and the purchase page', () => {
	test('an enrolled student is shown their enrolment and is not sold the seat again', async () => {
		const userId = await insertUser(t.db)
		const course = await insertCourse(t.db, { registration_fee: 250000 })
		await insertEnrollment(t.db, { userId, courseId: course.id })
		const cookie = await sessionCookieFor(userId)

		const page = await callRoute(courseLoader, getRequest(`/courses/${course.id}`, { cookie }), { id: String(course.id) })
		expect((await page.json()).state).toEqual({ kind: 'enrolled' })

		const purchase = await callRoute(enrollLoader, getRequest(`/courses/${course.id}/enroll`, { cookie }), { id: String(course.id) })
		expect(purchase.status).toBe(302)
		expect(purchase.headers.get('Location')).toBe(`/courses/${course.id}`)
	})

	test('a visitor has no state (the shared page stays the same for everyone)', async () => {
		const course = await insertCourse(t.db)
		const page = await callRoute(courseLoader, getRequest(`/courses/${course.id}`), { id: String(course.id) })
		expect((await page.json()).state).toEqual({ kind: 'none' })
	})
})
