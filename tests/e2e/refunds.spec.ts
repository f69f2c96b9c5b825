import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import { publishEvent } from '#app/services/events/publish.server.ts'
import type { Database } from '#db/types.ts'
import { expect, mailsTo, test } from '../support/e2e-journeys.ts'

/** A $2,500 payment made on the built-in test checkout, fulfilled into an active enrolment (or left needing a refund). */
async function paidTestCheckout(db: Kysely<Database>, user: { id: string; email: string }, { seat = true } = {}) {
	const course = await db
		.insertInto('courses')
		.values({ title: `Refund Course ${randomBytes(4).toString('hex')}`, capacity: 3, registration_fee: 250000 })
		.returning(['id', 'title'])
		.executeTakeFirstOrThrow()
	const sessionId = `cs_test_${randomBytes(16).toString('hex')}`
	await db
		.insertInto('test_checkout_sessions')
		.values({
			id: sessionId,
			amount_cents: 250000,
			description: course.title,
			customer_email: user.email,
			metadata: JSON.stringify({ userId: user.id, courseId: String(course.id) }),
			status: 'complete',
			payment_status: 'paid',
			success_url: 'http://localhost/registration-complete',
			cancel_url: 'http://localhost/register',
			expires_at: new Date(Date.now() + 3600_000),
			completed_at: new Date(),
		})
		.execute()
	const enrollment = seat
		? await db
				.insertInto('enrollments')
				.values({ user_id: user.id, course_id: course.id, status: 'active', enrollment_date: new Date() })
				.returning('id')
				.executeTakeFirstOrThrow()
		: null
	await db
		.insertInto('registration_payments')
		.values({
			checkout_session_id: sessionId,
			provider: 'test',
			user_id: user.id,
			course_id: course.id,
			course_title: course.title,
			customer_email: user.email,
			amount_cents: 250000,
			status: seat ? 'paid' : 'needs_refund',
			enrollment_id: enrollment?.id ?? null,
			payment_intent_id: sessionId,
			fulfilled_at: new Date(),
		})
		.execute()
	return course
}

/** From the "needing a refund" list, the admin reviews refunding a payment that got no seat, with a note saying why. */
async function reviewRefundOfUnseatedPayment(page: Page, payerEmail: string) {
	await page.goto('/dashboard/admin/enrollments')
	await page
		.locator('li', { hasText: payerEmail })
		.getByRole('link', { name: /^Refund / })
		.click()
	await page.getByLabel('Note to the student').fill('The course was full when your payment arrived')
	await page.getByRole('button', { name: 'Review Refund' }).click()
}

async function openRefund(page: Page, studentEmail: string) {
	await page.goto(`/dashboard/admin/enrollments?q=${encodeURIComponent(studentEmail)}`)
	await page
		.getByRole('table')
		.getByRole('link', { name: /^Refund / })
		.click()
	await expect(page.getByRole('dialog', { name: 'Refund Payment' })).toBeVisible()
}

test('an admin refunds part of a payment, keeping the student, then the rest, which ends the enrolment', async ({
	page,
	db,
	signInAs,
	createUser,
}) => {
	const admin = await signInAs({ role: 'admin', name: 'Ada Admin' })
	const student = await createUser({ name: 'Riley Refund' })
	const course = await paidTestCheckout(db, student)

	await openRefund(page, student.email)
	const dialog = page.getByRole('dialog', { name: 'Refund Payment' })
	await expect(dialog.getByText('Paid: $2,500.00 paid')).toBeVisible()
	await expect(dialog.getByLabel('Amount to refund (USD)')).toHaveValue('2500.00')

	// More than was paid: refused with the reason, and what was typed stays.
	await dialog.getByLabel('Amount to refund (USD)').fill('3000')
	await dialog.getByLabel('Note to the student').fill('Missed the first two weeks')
	await dialog.getByRole('button', { name: 'Review Refund' }).click()
	await expect(page.getByText('You can refund at most $2,500.00, what is left of this payment.')).toBeVisible()
	await expect(page.getByLabel('Note to the student')).toHaveValue('Missed the first two weeks')

	await page.getByLabel('Amount to refund (USD)').fill('500')
	await page.getByRole('radio', { name: 'Keep the student enrolled' }).check()
	await page.getByRole('button', { name: 'Review Refund' }).click()
	const confirm = page.getByRole('dialog', { name: 'Confirm Refund' })
	await expect(confirm.getByText(`Refund $500.00 to ${student.email}?`)).toBeVisible()
	await expect(confirm.getByText('The student stays enrolled.', { exact: false })).toBeVisible()
	// Back keeps everything typed.
	await confirm.getByRole('button', { name: 'Back' }).click()
	await expect(page.getByLabel('Amount to refund (USD)')).toHaveValue('500')
	await expect(page.getByLabel('Note to the student')).toHaveValue('Missed the first two weeks')
	await page.getByRole('button', { name: 'Review Refund' }).click()
	await page.getByRole('button', { name: 'Refund $500.00' }).click()

	await expect(page.getByText('Refund issued')).toBeVisible()
	await expect(page.getByText(`$500.00 refunded to ${student.email}.`)).toBeVisible()
	await expect(page.getByText('Partly refunded: $500.00 of $2,500.00')).toBeVisible()
	await expect(page.getByRole('combobox', { name: `Status of Riley Refund in ${course.title}` })).toHaveValue('active')

	await openRefund(page, student.email)
	await expect(page.getByLabel('Amount to refund (USD)')).toHaveValue('2000.00')
	await page.getByLabel('Note to the student').fill('Withdrawing from the course')
	await page.getByRole('button', { name: 'Review Refund' }).click()
	await expect(page.getByText('This refunds the payment in full.', { exact: false })).toBeVisible()
	await expect(page.getByText('The enrollment becomes inactive and its seat frees.', { exact: false })).toBeVisible()
	await page.getByRole('button', { name: 'Refund $2,000.00' }).click()

	await expect(page.getByText('The enrollment is now inactive.', { exact: false })).toBeVisible()
	await expect(page.getByText('Refunded $2,500.00')).toBeVisible()
	await expect(page.getByRole('combobox', { name: `Status of Riley Refund in ${course.title}` })).toHaveValue('inactive')
	await expect(page.getByRole('table').getByRole('link', { name: /^Refund / })).toHaveCount(0)

	const mails = await mailsTo(db, student.email, `Refund issued: ${course.title}`)
	expect(mails).toHaveLength(2)
	expect(mails[0]!.text_body).toContain('Missed the first two weeks')
	expect(mails[1]!.text_body).toContain('has ended')
	const audit = await db
		.selectFrom('audit_log')
		.select(['actor_id', 'action'])
		.where('action', '=', 'payment.refund')
		.where('actor_id', '=', admin.id)
		.execute()
	expect(audit).toHaveLength(2)
})

// A live event revalidates the page, and React Router drops an action's answer on a revalidation: the review must stay.
test('a refund under review stays under review while seats change elsewhere @js-only', async ({ page, db, signInAs, createUser }) => {
	await signInAs({ role: 'admin' })
	const payer = await createUser({ name: 'Pat Payer' })
	await paidTestCheckout(db, payer, { seat: false })
	await reviewRefundOfUnseatedPayment(page, payer.email)
	await expect(page.getByRole('button', { name: 'Refund $2,500.00' })).toBeVisible()
	const reloads: string[] = []
	page.on('request', (request) => {
		if (request.url().includes('/dashboard/admin/enrollments') && request.url().includes('.data')) reloads.push(request.url())
	})
	const other = await db
		.insertInto('courses')
		.values({ title: `Elsewhere ${randomBytes(3).toString('hex')}` })
		.returning('id')
		.executeTakeFirstOrThrow()
	// A stream of the test's own in the page sees the event as the page's stream does. Its readiness
	// is a promise kept on the window, so it is not missed however soon the stream opens.
	const seen = page.evaluate(
		(courseId) =>
			new Promise<void>((resolve) => {
				const probe = new EventSource('/events')
				const ready = new Promise<void>((opened) => probe.addEventListener('ready', () => opened(), { once: true }))
				Object.assign(window, { probeReady: ready })
				probe.addEventListener('message', (event) => {
					if (JSON.parse(event.data).courseId === courseId) {
						probe.close()
						resolve()
					}
				})
			}),
		other.id,
	)
	await page.waitForFunction(() => 'probeReady' in window)
	await page.evaluate(() => (window as unknown as { probeReady: Promise<void> }).probeReady)
	await publishEvent(db, { type: 'enrollment.changed', courseId: other.id })
	await seen
	// An event's reload waits 250 ms for others to gather; a second on, an unheld page would have reloaded.
	await page.waitForTimeout(1000)
	expect(reloads).toEqual([])
	await expect(page.getByRole('button', { name: 'Refund $2,500.00' })).toBeVisible()
	await page.getByRole('button', { name: 'Refund $2,500.00' }).click()
	await expect(page.getByText('Refund issued')).toBeVisible()
})

test('a payment that got no seat is refunded from the "needing a refund" list', async ({ page, db, signInAs, createUser }) => {
	await signInAs({ role: 'admin' })
	const payer = await createUser({ name: 'Pat Payer' })
	await paidTestCheckout(db, payer, { seat: false })

	await reviewRefundOfUnseatedPayment(page, payer.email)
	await expect(page.getByText('There is no enrollment to end.', { exact: false })).toBeVisible()
	await page.getByRole('button', { name: 'Refund $2,500.00' }).click()
	await expect(page.getByText('Refund issued')).toBeVisible()
	await expect(page.locator('li', { hasText: payer.email })).toHaveCount(0)
})

test('parallel refund confirmations over HTTP never refund more than was paid', async ({ context, db, signInAs, createUser, baseURL }) => {
	await signInAs({ role: 'admin' })
	const student = await createUser({ name: 'Parallel Payer' })
	const course = await paidTestCheckout(db, student)
	const payment = await db
		.selectFrom('registration_payments')
		.select(['id', 'checkout_session_id'])
		.where('course_id', '=', course.id)
		.executeTakeFirstOrThrow()
	const confirm = (requestKey: string, amount: string) =>
		context.request.post(`/dashboard/admin/enrollments/payments/${payment.id}/refund`, {
			form: { intent: 'confirm', requestKey, amount, reason: 'duplicate', note: 'Charged twice', afterRefund: 'keep' },
			headers: { Origin: baseURL! },
			maxRedirects: 0,
		})
	// 15 admins' tabs at once, each $400 of $2,500: 6 fit ($2,400), 9 are refused.
	const answers = await Promise.all(Array.from({ length: 15 }, () => confirm(randomBytes(12).toString('hex'), '400')))
	const statuses = answers.map((answer) => answer.status())
	expect(statuses.filter((status) => status === 302)).toHaveLength(6)
	expect(statuses.filter((status) => status === 400)).toHaveLength(9)
	const { refunded_cents: refunded } = await db
		.selectFrom('registration_payments')
		.select('refunded_cents')
		.where('id', '=', payment.id)
		.executeTakeFirstOrThrow()
	expect(refunded).toBe(240000)
	const made = await db
		.selectFrom('test_checkout_refunds')
		.select('amount_cents')
		.where('session_id', '=', payment.checkout_session_id)
		.execute()
	expect(made.map((refund) => refund.amount_cents)).toEqual(Array(6).fill(40000))
})
