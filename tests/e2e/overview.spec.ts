import { randomUUID } from 'node:crypto'
import type { Page, TestInfo } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import {
	insertAttendance,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertLiveSession,
	insertPayment,
	insertPaymentRefund,
	insertPlanPurchase,
} from '#tests/support/fixtures.ts'
import { expect, type TestUser, test } from '../support/e2e.ts'
import { readAsTextBrowser } from '../support/text-browser.ts'

/*
 * Issue 43 point 1 (docs/decisions/065): the overview, with JavaScript on and off. Each test and
 * project sets its figures in a year of its own, early in the century, which no other test writes
 * to: the admin's whole-school totals for that year are the test's.
 */

const ADMIN_TABLES = [
	'Enrolments by month',
	'Revenue by month',
	'Seats and waitlist by course',
	'Attendance by session',
	'Completion by course',
]
const YEAR_OF_TEST = { admin: 2001, phone: 2003, instructor: 2005, text: 2007 }

const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
const captions = (page: Page) => page.locator('main table caption').allTextContents()

function yearOf(test: keyof typeof YEAR_OF_TEST, info: TestInfo) {
	return YEAR_OF_TEST[test] + (info.project.name === 'js-disabled' ? 1 : 0)
}

const rangeOf = (year: number) => `/dashboard/admin/overview?from=${year}-01-01&to=${year}-04-30`

/**
 * A cohort of early `year`, taught by an instructor: two enrolments, a payment in full, one with a
 * discount refunded in part a month later, a plan whose first payment is the checkout's and whose
 * other two fall due in March and April, and a session one of the two students attended.
 */
async function createCohort(db: Kysely<Database>, createUser: (options?: { role?: TestUser['role'] }) => Promise<TestUser>, year: number) {
	const title = `Overview Cohort ${randomUUID().slice(0, 6)}`
	const course = await insertCourse(db, { title, capacity: 8, start_date: `${year}-01-07`, end_date: `${year}-03-29` })
	const instructor = await createUser({ role: 'instructor' })
	await insertCourseStaff(db, { courseId: course.id, userId: instructor.id })
	const enrol = async (day: string) => {
		const student = await createUser()
		const enrolment = await insertEnrollment(db, { userId: student.id, courseId: course.id, enrolledAt: new Date(`${day}T15:00:00Z`) })
		return { studentId: student.id, enrolmentId: enrolment.id }
	}
	const paid = async (amountCents: number, day: string, discountCents = 0) =>
		insertPayment(db, {
			course_id: course.id,
			course_title: title,
			customer_email: 'payer@example.com',
			status: 'paid',
			amount_cents: amountCents,
			discount_cents: discountCents,
			fulfilled_at: new Date(`${day}T15:00:00Z`),
			created_at: `${day}T15:00:00Z`,
		})
	const first = await enrol(`${year}-01-10`)
	const second = await enrol(`${year}-02-12`)
	await paid(250_000, `${year}-01-10`)
	const discounted = await paid(200_000, `${year}-02-12`, 50_000)
	await insertPaymentRefund(db, {
		payment_id: discounted.id,
		amount_cents: 50_000,
		status: 'succeeded',
		request_key: randomUUID(),
		provider_refund_id: `re_${randomUUID()}`,
		created_at: `${year}-03-01T15:00:00Z`,
		updated_at: `${year}-03-01T15:00:00Z`,
	})
	const plan = await insertPlanPurchase(db, {
		userId: second.studentId,
		courseId: course.id,
		enrollmentId: second.enrolmentId,
		firstDueOn: `${year}-02-12`,
	})
	await db
		.updateTable('plan_instalments')
		.set({ paid_at: new Date(`${year}-02-12T15:00:00Z`) })
		.where('id', '=', plan.instalmentIds[0]!)
		.execute()
	const session = await insertLiveSession(db, {
		courseId: course.id,
		startsAt: `${year}-02-04T23:00:00Z`,
		endsAt: `${year}-02-05T00:00:00Z`,
	})
	await insertAttendance(db, { sessionId: session, userId: first.studentId })
	return { title, instructor }
}

test('an admin reads the figures in order: charts with a title and a description, each followed by its table', async ({
	page,
	db,
	createUser,
	signIn,
}, info) => {
	const year = yearOf('admin', info)
	const cohort = await createCohort(db, createUser, year)
	await signIn(await createUser({ role: 'admin' }))
	await page.goto('/dashboard')
	await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Overview', exact: true }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible()
	// Six months by default.
	await expect(page.getByRole('table', { name: 'Enrolments by month' }).locator('tbody tr')).toHaveCount(6)

	await page.getByLabel('From', { exact: true }).fill(`${year}-01-01`)
	await page.getByLabel('To', { exact: true }).fill(`${year}-04-30`)
	await page.getByRole('button', { name: 'Show figures' }).click()
	await expect(page).toHaveURL(new RegExp(`from=${year}-01-01&to=${year}-04-30&group=month`))
	await expect(page.getByRole('table', { name: 'Revenue by month' }).locator('tbody tr')).toHaveCount(4)
	expect(await captions(page)).toEqual(ADMIN_TABLES)

	const revenue = page.getByRole('table', { name: 'Revenue by month' })
	await expect(revenue.getByRole('columnheader')).toHaveText([
		'Month',
		'Paid',
		'Discounts',
		'Refunded',
		'Net',
		'Plan instalments collected',
		'Plan instalments outstanding',
	])
	const amounts = (period: string) => revenue.getByRole('row', { name: new RegExp(`^${period}`) }).getByRole('cell')
	await expect(amounts(`Jan ${year}`)).toHaveText(['$2,500.00', '$0.00', '$0.00', '$2,500.00', '$0.00', '$0.00'])
	await expect(amounts(`Feb ${year}`)).toHaveText(['$2,000.00', '$500.00', '$0.00', '$2,000.00', '$866.68', '$0.00'])
	await expect(amounts(`Mar ${year}`)).toHaveText(['$0.00', '$0.00', '$500.00', '-$500.00', '$0.00', '$866.66'])
	await expect(amounts('Total')).toHaveText(['$4,500.00', '$500.00', '$500.00', '$4,000.00', '$866.68', '$1,733.32'])

	// Every chart is an image with a title and a description, and a table follows it.
	const charts = page.locator('main svg[role="img"]')
	await expect(charts).toHaveCount(3)
	await expect(page.getByRole('img', { name: /^Paid, refunded and net by month/ })).toBeVisible()
	await expect(charts.first().locator('title')).toHaveText('Enrolments by month')
	await expect(charts.first().locator('desc')).toContainText('2 enrolments in all')
	const tableAfterEachChart = await charts.evaluateAll((svgs) =>
		svgs.map((svg) => {
			const tables = [...document.querySelectorAll('main table')]
			const next = tables.find((table) => svg.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING)
			return next?.querySelector('caption')?.textContent
		}),
	)
	expect(tableAfterEachChart).toEqual(['Enrolments by month', 'Revenue by month', 'Seats and waitlist by course'])

	const seats = page.getByRole('table', { name: 'Seats and waitlist by course' })
	await expect(
		seats
			.getByRole('row', { name: new RegExp(`^${cohort.title}`) })
			.getByRole('cell')
			.nth(1),
	).toHaveText('2')
	const attendance = page.getByRole('table', { name: 'Attendance by session' })
	await expect(attendance.getByRole('row', { name: new RegExp(`Week 1, Feb 4, ${year}`) })).toContainText(cohort.title)

	// By week, then a range that is not one.
	await page.getByLabel('Group by').selectOption('week')
	await page.getByRole('button', { name: 'Show figures' }).click()
	await expect(page.getByRole('table', { name: 'Enrolments by week' })).toBeVisible()
	await page.getByLabel('From', { exact: true }).fill(`${year}-05-01`)
	await page.getByRole('button', { name: 'Show figures' }).click()
	await expect(page.getByText('The start date must be on or before the end date')).toBeVisible()
	await expect(page.getByLabel('From', { exact: true })).toHaveAttribute('aria-invalid', 'true')
})

test('at 390 px the page does not scroll sideways: a chart and a wide table scroll inside their box', async ({
	page,
	db,
	createUser,
	signIn,
}, info) => {
	const year = yearOf('phone', info)
	await createCohort(db, createUser, year)
	await page.setViewportSize({ width: 390, height: 844 })
	await signIn(await createUser({ role: 'admin' }))
	await page.goto(rangeOf(year))
	await expect(page.getByRole('table', { name: 'Revenue by month' })).toBeAttached()
	expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0)
	const chart = page.getByRole('region', { name: 'Paid, refunded and net by month (chart)' })
	expect(await chart.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true)
})

test('an instructor sees the course they teach, without the money', async ({ page, db, createUser, signIn }, info) => {
	const year = yearOf('instructor', info)
	const cohort = await createCohort(db, createUser, year)
	await signIn(cohort.instructor)
	await page.goto(rangeOf(year))
	expect(await captions(page)).toEqual(ADMIN_TABLES.filter((caption) => caption !== 'Revenue by month'))
	await expect(page.getByRole('heading', { name: 'Revenue' })).toHaveCount(0)
	await expect(page.locator('main')).not.toContainText('$')
	const seats = page.getByRole('table', { name: 'Seats and waitlist by course' })
	await expect(seats.locator('tbody tr')).toHaveCount(1)
	await expect(seats.locator('tbody tr')).toContainText(cohort.title)
})

// The markup is the same with scripts off: one reading proves it.
test('a text browser reads the headings and tables in order @server-markup', async ({ context, db, createUser, signIn }, info) => {
	const year = yearOf('text', info)
	await createCohort(db, createUser, year)
	await signIn(await createUser({ role: 'admin' }))
	const response = await context.request.get(rangeOf(year))
	expect(response.status()).toBe(200)
	const reading = readAsTextBrowser(await response.text())
	expect(reading.runTogether).toEqual([])
	expect(reading.unlabelled).toEqual([])
	const order = ['Enrolments', 'Enrolments by month', 'Revenue', 'Revenue by month', 'Seats and waitlists', 'Seats and waitlist by course']
	const positions = order.map((words) => reading.text.indexOf(words))
	expect(positions.every((position) => position >= 0)).toBe(true)
	expect(positions).toEqual([...positions].sort((a, b) => a - b))
	expect(reading.text).toMatch(/Attendance by session[\s\S]*Completion by course/)
	expect(reading.text).toMatch(/Total\s+\$4,500\.00\s+\$500\.00\s+\$500\.00\s+\$4,000\.00/)
})
