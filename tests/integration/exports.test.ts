/**
 * The CSV exports (issue 43 point 2, docs/decisions/066): the payments export's lines add up for a
 * hand-built set of payments, plan instalments and refunds (each payment once, whichever table
 * records it); a course's attendance, student × session, for the course's staff only; 100,000
 * lines streamed in bounded memory and in the statements of an empty export; a client that goes away
 * frees the cursor's connection; two exports at once, a third refused.
 */

import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parse } from 'csv-parse/sync'
import type { Insertable } from 'kysely'
import { sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { ATTENDANCE_COLUMNS, paymentColumns } from '#app/models/reports/exports.ts'
import { MAX_STREAMING_EXPORTS } from '#app/routes/resources/+shared/csv-download.server.ts'
import { loader as attendanceLoader } from '#app/routes/resources/attendance-export.ts'
import { loader as paymentsLoader } from '#app/routes/resources/payments-export.ts'
import type { RegistrationPaymentsTable } from '#db/types.ts'
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
} from '#tests/support/fixtures.ts'
import { createQueryCounter } from '#tests/support/query-counter.ts'
import { callRoute, getRequest, signedInUser } from '#tests/support/requests.ts'

const t = useTestDatabase()

let admin: { id: string; cookie: string }
beforeAll(async () => {
	admin = await signedInUser(t.db, { role: 'admin' })
})

const downloadPayments = (query: string, cookie = admin.cookie) =>
	callRoute(paymentsLoader, getRequest(`/dashboard/admin/exports/payments.csv?${query}`, { cookie }))

/** The admin has no time zone of their own: days are UTC's. */
const PAYMENT_COLUMNS = paymentColumns('UTC')

const sum = (lines: string[][], column: string) => {
	const index = PAYMENT_COLUMNS.indexOf(column)
	return lines.reduce((total, line) => total + Math.round(Number(line[index]) * 100), 0)
}

describe('the payments export', () => {
	test('one line per payment, plan instalment and refund of the range, each once, adding up', async () => {
		const course = await insertCourse(t.db, { title: 'Flip 101' })
		const ada = await insertUser(t.db, { name: 'Ada Payer', email: 'ada@example.com' })
		const sly = await insertUser(t.db, { name: '=HYPERLINK("http://evil.example","Click")', email: 'sly@example.com' })
		const paid = (values: Partial<Insertable<RegistrationPaymentsTable>> & { fulfilled_at: Date }) =>
			insertPayment(t.db, {
				user_id: ada,
				course_id: course.id,
				course_title: 'Flip 101',
				customer_email: 'ada@example.com',
				status: 'paid',
				...values,
			})

		// Paid in the range with a code: gross 2,500.00, discount 500.00.
		await paid({
			user_id: sly,
			customer_email: 'sly@example.com',
			amount_cents: 200_000,
			discount_cents: 50_000,
			promotion_code: 'SPRING',
			fulfilled_at: new Date('2026-03-02T10:00:00Z'),
		})
		// Paid in the range; refunded 1,000.00 in it, a failed refund and one after the range are not lines.
		const refunded = await paid({ amount_cents: 250_000, fulfilled_at: new Date('2026-03-05T09:00:00Z') })
		await insertPaymentRefund(t.db, {
			payment_id: refunded.id,
			amount_cents: 100_000,
			status: 'succeeded',
			provider_refund_id: 're_in_range',
			request_key: 'refund-in-range',
			created_at: new Date('2026-03-10T12:00:00Z'),
		})
		await insertPaymentRefund(t.db, {
			payment_id: refunded.id,
			amount_cents: 50_000,
			status: 'failed',
			request_key: 'refund-failed',
			created_at: new Date('2026-03-11T12:00:00Z'),
		})
		await insertPaymentRefund(t.db, {
			payment_id: refunded.id,
			amount_cents: 20_000,
			status: 'succeeded',
			provider_refund_id: 're_after_range',
			request_key: 'refund-after-range',
			created_at: new Date('2026-04-02T12:00:00Z'),
		})
		// Paid before the range, refunded in full at its first instant: only the refund is a line.
		const earlier = await paid({
			amount_cents: 150_000,
			status: 'refunded',
			refunded_cents: 150_000,
			fulfilled_at: new Date('2026-02-20T09:00:00Z'),
		})
		await insertPaymentRefund(t.db, {
			payment_id: earlier.id,
			amount_cents: 150_000,
			reason: 'duplicate',
			source: 'provider',
			status: 'succeeded',
			provider_refund_id: 're_start',
			created_at: new Date('2026-03-01T00:00:00Z'),
		})
		// No money taken, or taken at the range's end (exclusive): no lines.
		await insertPayment(t.db, {
			course_title: 'Flip 101',
			customer_email: 'x@example.com',
			status: 'pending',
			created_at: new Date('2026-03-03T00:00:00Z'),
		})
		await insertPayment(t.db, {
			course_title: 'Flip 101',
			customer_email: 'x@example.com',
			status: 'expired',
			created_at: new Date('2026-03-03T00:00:00Z'),
		})
		await paid({ amount_cents: 99_900, fulfilled_at: new Date('2026-04-01T00:00:00Z') })
		// Paid at the range's last instant.
		await paid({ amount_cents: 100_000, fulfilled_at: new Date('2026-03-31T23:59:59Z') })

		// A plan: its first payment is its checkout's payment row; the second is recorded on the plan
		// only; the third has a payment row of its own, naming it (docs/decisions/063): one line each.
		const plan = await insertPlanPurchase(t.db, { userId: ada, courseId: course.id, enrollmentId: null })
		const { checkout_session_id } = await t.db
			.selectFrom('plan_purchases')
			.select('checkout_session_id')
			.where('id', '=', plan.planId)
			.executeTakeFirstOrThrow()
		await paid({
			checkout_session_id,
			amount_cents: 86_668,
			payment_intent_id: 'pi_plan_first',
			fulfilled_at: new Date('2026-03-04T08:00:00Z'),
		})
		const [first, second, third] = plan.instalmentIds as [number, number, number]
		await t.db
			.updateTable('plan_instalments')
			.set({ payment_intent_id: 'pi_plan_first', paid_at: new Date('2026-03-04T08:00:00Z') })
			.where('id', '=', first)
			.execute()
		await t.db
			.updateTable('plan_instalments')
			.set({
				status: 'paid',
				payment_intent_id: 'pi_plan_second',
				provider_invoice_id: 'in_second',
				paid_at: new Date('2026-03-15T08:00:00Z'),
			})
			.where('id', '=', second)
			.execute()
		await t.db
			.updateTable('plan_instalments')
			.set({ status: 'paid', payment_intent_id: 'pi_plan_third', paid_at: new Date('2026-03-20T08:00:00Z') })
			.where('id', '=', third)
			.execute()
		await paid({
			checkout_session_id: null,
			plan_instalment_id: third,
			amount_cents: 86_666,
			payment_intent_id: 'pi_plan_third',
			fulfilled_at: new Date('2026-03-20T08:00:00Z'),
		})
		// Another plan: an instalment paid outside the provider in the range, one paid after it.
		const other = await insertPlanPurchase(t.db, { userId: sly, courseId: course.id, enrollmentId: null })
		await t.db
			.updateTable('plan_instalments')
			.set({ status: 'paid_outside', paid_at: new Date('2026-03-16T08:00:00Z') })
			.where('id', '=', other.instalmentIds[1]!)
			.execute()
		await t.db
			.updateTable('plan_instalments')
			.set({ status: 'paid', payment_intent_id: 'pi_late', paid_at: new Date('2026-05-01T08:00:00Z') })
			.where('id', '=', other.instalmentIds[2]!)
			.execute()

		const response = await downloadPayments('from=2026-03-01&to=2026-03-31')
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
		expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="payments-2026-03-01-to-2026-03-31.csv"')
		const [header, ...lines] = parse(await response.text()) as string[][]
		expect(header).toEqual(PAYMENT_COLUMNS)
		const column = (name: string) => lines.map((line) => line[PAYMENT_COLUMNS.indexOf(name)])
		expect(column('Date (UTC)')).toEqual([
			'2026-03-01 00:00:00',
			'2026-03-02 10:00:00',
			'2026-03-04 08:00:00',
			'2026-03-05 09:00:00',
			'2026-03-10 12:00:00',
			'2026-03-15 08:00:00',
			'2026-03-16 08:00:00',
			'2026-03-20 08:00:00',
			'2026-03-31 23:59:59',
		])
		expect(column('Type')).toEqual([
			'Refund',
			'Payment',
			'Payment',
			'Payment',
			'Refund',
			'Plan instalment',
			'Plan instalment paid outside',
			'Plan instalment',
			'Payment',
		])
		expect(column('Plan payment')).toEqual(['', '', '1 of 3', '', '', '2 of 3', '2 of 3', '3 of 3', ''])
		expect(column('Payment intent').filter((id) => id === 'pi_plan_third')).toHaveLength(1)
		expect(column('Invoice')[5]).toBe('in_second')
		expect(column('Refund id')).toContain('re_in_range')
		// A name that a spreadsheet would run stays text; a refund's negative net stays a number.
		expect(lines[1]![2]).toBe(`'=HYPERLINK("http://evil.example","Click")`)
		expect(lines[0]!.slice(5, 9)).toEqual(['0.00', '0.00', '1500.00', '-1500.00'])
		expect(lines[1]!.slice(5, 11)).toEqual(['2500.00', '500.00', '0.00', '2000.00', 'USD', 'SPRING'])

		const gross = sum(lines, 'Gross')
		const discount = sum(lines, 'Discount')
		const refund = sum(lines, 'Refund')
		expect({ gross, discount, refund, net: sum(lines, 'Net') }).toEqual({
			gross: 250_000 + 86_668 + 250_000 + 86_666 + 86_666 + 86_666 + 100_000,
			discount: 50_000,
			refund: 150_000 + 100_000,
			net: gross - discount - refund,
		})
		expect(sum(lines, 'Net')).toBe(646_666)
	})

	test('a range that is not one is refused with a message, nothing streamed', async () => {
		for (const query of ['', 'from=2026-03-05&to=2026-03-01', 'from=yesterday&to=2026-03-01', 'from=2026-02-30&to=2026-03-01']) {
			const response = await downloadPayments(query)
			expect(response.status, query).toBe(400)
			expect(response.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
			expect(await response.text()).toMatch(/^Payments export: /)
		}
		expect(await (await downloadPayments('from=2026-03-05&to=2026-03-01')).text()).toBe(
			'Payments export: The first day must be on or before the last day.',
		)
		expect(await (await downloadPayments('to=2026-02-30')).text()).toBe(
			'Payments export: Give the first day as YYYY-MM-DD. Give the last day as YYYY-MM-DD.',
		)
	})

	test('an instructor is sent away, whatever the range', async () => {
		const instructor = await signedInUser(t.db, { role: 'instructor' })
		const response = await downloadPayments('from=2026-03-01&to=2026-03-31', instructor.cookie)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard')
	})
})

describe('the attendance export', () => {
	test('student × session held, for the course staff; another course id is refused', async () => {
		const course = await insertCourse(t.db, { title: 'Cohort: "Spring" 2026' })
		const spare = await insertCourse(t.db, { title: 'Spare' })
		const teacher = await signedInUser(t.db, { role: 'instructor' })
		const stranger = await signedInUser(t.db, { role: 'instructor' })
		await insertCourseStaff(t.db, { courseId: course.id, userId: teacher.id })
		await insertCourseStaff(t.db, { courseId: spare.id, userId: stranger.id })
		const ada = await insertUser(t.db, { name: 'Ada Keen', email: 'ada-keen@example.com' })
		const bob = await insertUser(t.db, { name: '@Bob', email: 'bob@example.com' })
		const gone = await insertUser(t.db, { name: 'Gone Away', email: 'gone@example.com' })
		await insertEnrollment(t.db, { userId: ada, courseId: course.id })
		await insertEnrollment(t.db, { userId: bob, courseId: course.id, status: 'completed' })
		await insertEnrollment(t.db, { userId: gone, courseId: course.id, status: 'inactive' })
		const week1 = await insertLiveSession(t.db, {
			courseId: course.id,
			weekNumber: 1,
			startsAt: '2026-01-07T18:00:00Z',
			endsAt: '2026-01-07T19:00:00Z',
		})
		await insertLiveSession(t.db, { courseId: course.id, weekNumber: 2, startsAt: '2026-01-14T18:00:00Z', endsAt: '2026-01-14T19:00:00Z' })
		// Not held yet: no line.
		await insertLiveSession(t.db, { courseId: course.id, weekNumber: 3, startsAt: '2099-01-21T18:00:00Z', endsAt: '2099-01-21T19:00:00Z' })
		await insertAttendance(t.db, { sessionId: week1, userId: ada, status: 'late', minutes: 20, source: 'report' })
		await insertAttendance(t.db, { sessionId: week1, userId: gone, status: 'present' })

		const download = (courseId: number, cookie: string) =>
			callRoute(attendanceLoader, getRequest(`/dashboard/admin/exports/courses/${courseId}/attendance.csv`, { cookie }), {
				courseId: String(courseId),
			})
		for (const cookie of [admin.cookie, teacher.cookie]) {
			const response = await download(course.id, cookie)
			expect(response.status).toBe(200)
			expect(response.headers.get('Content-Disposition')).toMatch(
				/^attachment; filename="attendance-cohort-spring-2026-\d{4}-\d{2}-\d{2}\.csv"$/,
			)
			const [header, ...lines] = parse(await response.text()) as string[][]
			expect(header).toEqual(ATTENDANCE_COLUMNS)
			expect(lines).toEqual([
				["'@Bob", 'bob@example.com', '1', '2026-01-07 18:00:00', '2026-01-07 19:00:00', 'Not recorded', '', ''],
				["'@Bob", 'bob@example.com', '2', '2026-01-14 18:00:00', '2026-01-14 19:00:00', 'Not recorded', '', ''],
				['Ada Keen', 'ada-keen@example.com', '1', '2026-01-07 18:00:00', '2026-01-07 19:00:00', 'Late', '20', 'Meeting report'],
				['Ada Keen', 'ada-keen@example.com', '2', '2026-01-14 18:00:00', '2026-01-14 19:00:00', 'Not recorded', '', ''],
			])
		}
		// Another course's instructor, and an id that names no course: the course does not exist for them.
		expect((await download(course.id, stranger.cookie)).status).toBe(404)
		expect((await download(2_000_000_000, teacher.cookie)).status).toBe(404)
		expect((await download(2_000_000_000, admin.cookie)).status).toBe(404)
	})
})

/** The V8 collector, so that the heap is measured as what is live, not what is left to collect. */
function collector() {
	setFlagsFromString('--expose-gc')
	return runInNewContext('gc') as () => void
}

describe('streaming', () => {
	const BULK_ROWS = 100_000

	beforeAll(async () => {
		await sql`
			INSERT INTO registration_payments (checkout_session_id, provider, course_title, customer_email, amount_cents, status, fulfilled_at)
			SELECT 'cs_bulk_' || n, 'test', 'Bulk course', 'bulk-' || n || '@example.com', 100 + n % 1000, 'paid',
				timestamptz '2027-01-01T00:00:00Z' + n * interval '1 second'
			FROM generate_series(1, ${BULK_ROWS}) AS n`.execute(t.db)
	})

	test('100,000 payments go out in bounded memory', async () => {
		const gc = collector()
		gc()
		const baseline = process.memoryUsage().heapUsed
		const response = await downloadPayments('from=2027-01-01&to=2027-01-31')
		expect(response.status).toBe(200)
		const reader = response.body!.getReader()
		let bytes = 0
		let newlines = 0
		let nextSample = 0
		let peak = 0
		for (;;) {
			const { done, value } = await reader.read()
			if (done) break
			bytes += value.byteLength
			for (const byte of value) if (byte === 10) newlines += 1
			if (bytes >= nextSample) {
				gc()
				peak = Math.max(peak, process.memoryUsage().heapUsed - baseline)
				nextSample += 1_000_000
			}
		}
		expect(newlines).toBe(BULK_ROWS + 1)
		// The file is far larger than what the process held at any moment while sending it.
		expect(bytes).toBeGreaterThan(10_000_000)
		expect(peak).toBeLessThan(8_000_000)
	}, 120_000)

	test('the export issues the same statements for no payment as for 100,000', async () => {
		const counter = await createQueryCounter(t.url)
		try {
			const statements = (query: string) =>
				counter.record(async () => {
					const response = await downloadPayments(query)
					expect(response.status).toBe(200)
					await response.arrayBuffer()
				})
			const none = await statements('from=2025-01-01&to=2025-01-31')
			expect(await statements('from=2027-01-01&to=2027-01-31')).toEqual(none)
			expect(none.filter((statement) => statement.includes('registration_payments'))).toHaveLength(1)
		} finally {
			await counter.close()
		}
	}, 60_000)

	test('a client that goes away closes the cursor and frees its connection', async () => {
		const exportsRunning = async () => {
			const { rows } = await sql<{ count: number }>`
				SELECT count(*)::int AS count FROM pg_stat_activity
				WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'
					AND query LIKE '%"studentName"%'`.execute(t.db)
			return rows[0]!.count
		}
		const response = await downloadPayments('from=2027-01-01&to=2027-01-31')
		const reader = response.body!.getReader()
		try {
			// Past the header: the cursor is open, waiting for the client to take more.
			let bytes = 0
			while (bytes < 100_000) bytes += (await reader.read()).value?.byteLength ?? 0
			expect(await exportsRunning()).toBe(1)
		} finally {
			await reader.cancel()
		}
		await expect.poll(exportsRunning).toBe(0)
	})

	test('two exports stream at once; a third at the same time is asked to come back, and is served once one ends', async () => {
		const download = () => downloadPayments('from=2027-01-01&to=2027-01-31')
		const responses = await Promise.all(Array.from({ length: MAX_STREAMING_EXPORTS + 1 }, download))
		const streaming = responses.filter((response) => response.status === 200)
		try {
			expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 429])
			const refused = responses.find((response) => response.status === 429)!
			expect(refused.headers.get('Retry-After')).toBe('60')
			expect(await refused.text()).toBe('Other exports are being downloaded right now. Try again in a minute.')
			expect((await download()).status).toBe(429)

			// Cancelling a body settles once its export has given its place back.
			await streaming.shift()!.body!.cancel()
			const next = await download()
			streaming.push(next)
			expect(next.status).toBe(200)
		} finally {
			await Promise.all(streaming.map((response) => response.body!.cancel()))
		}
	})
})
