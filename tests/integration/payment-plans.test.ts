/**
 * Payment plans, first slice (issue 41, docs/decisions/054): the admin offers a course's plan on
 * its Payment Plan page, previews its schedule for a purchase today, and saves it; a plan whose
 * last instalment falls on or after the course's last day, or whose deposit is the whole total, is
 * refused with a field message and nothing written.
 */
import { describe, expect, test } from 'vitest'
import { addMonths, dayInZone } from '#app/models/payments/instalment-plans.ts'
import { action, loader } from '#app/routes/admin/course-payment-plan.tsx'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertLiveSession, insertPaymentPlan } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()
const ZONE = 'America/New_York'

function planPath(courseId: number) {
	return `/dashboard/admin/courses/${courseId}/payment-plan`
}

const today = () => dayInZone(new Date(), ZONE)

/** A $2,500 course that ends `months` months (and a few days) from today. */
async function courseEndingIn(months: number, values: Parameters<typeof insertCourse>[1] = {}) {
	const endDate = addMonths(today(), months)
	return insertCourse(t.db, { registration_fee: 250_000, time_zone: ZONE, start_date: today(), end_date: endDate, ...values })
}

type Reply = {
	result: { status: string; error: Record<string, string[] | null>; initialValue: Record<string, unknown> }
	preview: { schedule: { totalCents: number; payments: Array<{ dueOn: string; amountCents: number }> } } | null
}

async function post(courseId: number, fields: Record<string, string>, cookie: string) {
	return callRoute(action, formRequest(planPath(courseId), fields, { cookie }), { courseId: String(courseId) })
}

async function planRows(courseId: number) {
	return t.db.selectFrom('course_payment_plans').selectAll().where('course_id', '=', courseId).execute()
}

async function auditActions(courseId: number) {
	const rows = await t.db
		.selectFrom('audit_log')
		.select(['action', 'details'])
		.where('entity_id', '=', String(courseId))
		.orderBy('id')
		.execute()
	return rows
}

const threeEqual = { offered: 'yes', kind: 'equal', instalmentCount: '3', graceDays: '7' }

describe('the Payment Plan page', () => {
	test('Preview shows the schedule for a purchase today and writes nothing; Save saves the plan with a toast and an audit entry', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseEndingIn(4)
		const preview = await post(course.id, { ...threeEqual, intent: 'preview', surchargeDollars: '100' }, admin.cookie)
		expect(preview.status).toBe(200)
		const reply = (await preview.json()) as Reply
		expect(reply.preview!.schedule.totalCents).toBe(260_000)
		expect(reply.preview!.schedule.payments).toEqual([
			{ sequence: 1, isDeposit: false, label: 'Instalment 1 of 3', dueOn: today(), amountCents: 86_668 },
			{ sequence: 2, isDeposit: false, label: 'Instalment 2 of 3', dueOn: addMonths(today(), 1), amountCents: 86_666 },
			{ sequence: 3, isDeposit: false, label: 'Instalment 3 of 3', dueOn: addMonths(today(), 2), amountCents: 86_666 },
		])
		expect(reply.result.initialValue).toMatchObject({ surchargeDollars: '100', instalmentCount: '3' })
		expect(await planRows(course.id)).toEqual([])

		const saved = await post(course.id, { ...threeEqual, intent: 'save', surchargeDollars: '100' }, admin.cookie)
		expect(saved.status).toBe(302)
		expect(saved.headers.get('Location')).toBe(planPath(course.id))
		expect(await toastOf(saved)).toMatchObject({ type: 'success', title: 'Payment plan saved' })
		expect(await planRows(course.id)).toMatchObject([
			{ offered: true, kind: 'equal', deposit_cents: null, instalment_count: 3, surcharge_cents: 10_000, grace_days: 7 },
		])
		expect(await auditActions(course.id)).toMatchObject([
			{ action: 'payment_plan.save', details: { before: {}, after: { kind: 'equal', instalmentCount: 3, surchargeCents: 10_000 } } },
		])

		const page = await callRoute(loader, getRequest(planPath(course.id), { cookie: admin.cookie }), { courseId: String(course.id) })
		const data = (await page.json()) as { plan: { instalmentCount: number }; preview: Reply['preview'] }
		expect(data.plan.instalmentCount).toBe(3)
		expect(data.preview!.schedule.payments).toHaveLength(3)
	})

	test.each([
		[
			'the last instalment after the course ends',
			{ ...threeEqual, instalmentCount: '5' },
			'instalmentCount',
			/^The last instalment would be due on .+, not before the course's last day \(.+\): choose fewer instalments$/,
		],
		[
			'a deposit of the whole price',
			{ ...threeEqual, kind: 'deposit', instalmentCount: '2', depositDollars: '2500' },
			'depositDollars',
			/^The deposit must be less than the plan's total of \$2,500\.00$/,
		],
		['seven instalments', { ...threeEqual, instalmentCount: '7' }, 'instalmentCount', /^At most 6 instalments$/],
		['a deposit plan without its deposit', { ...threeEqual, kind: 'deposit' }, 'depositDollars', /^Enter the deposit that holds the seat$/],
	])('%s: a field message, the typed values back, nothing written', async (_case, fields, field, message) => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseEndingIn(4)
		for (const intent of ['preview', 'save']) {
			const response = await post(course.id, { ...fields, intent }, admin.cookie)
			expect(response.status).toBe(400)
			const { result } = (await response.json()) as Reply
			expect(result.error[field]?.[0]).toMatch(message)
			expect(result.initialValue).toMatchObject({ instalmentCount: fields.instalmentCount })
		}
		expect(await planRows(course.id)).toEqual([])
		expect(await auditActions(course.id)).toEqual([])
	})

	test('the last day is the earlier of the last live session and the end date; a course without dates gets a form message', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseEndingIn(6)
		// The last session two months from now, at 22:00 in New York (the next day in UTC): that day is the last.
		const lastSessionDay = addMonths(today(), 2)
		const startsAt = new Date(`${lastSessionDay}T22:00:00-05:00`)
		await insertLiveSession(t.db, {
			courseId: course.id,
			startsAt: startsAt.toISOString(),
			endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString(),
			timeZone: ZONE,
		})
		const refused = await post(course.id, { ...threeEqual, intent: 'save' }, admin.cookie)
		expect(refused.status).toBe(400)
		expect(((await refused.json()) as Reply).result.error.instalmentCount?.[0]).toMatch(/not before the course's last day/)
		const twoFit = await post(course.id, { ...threeEqual, instalmentCount: '2', intent: 'save' }, admin.cookie)
		expect(twoFit.status).toBe(302)

		const undated = await insertCourse(t.db, { registration_fee: 250_000 })
		const response = await post(undated.id, { ...threeEqual, intent: 'save' }, admin.cookie)
		expect(response.status).toBe(400)
		expect(((await response.json()) as Reply).result.error['']).toEqual([
			"Set the course's end date first: the last instalment must fall before the course ends.",
		])
		expect(await planRows(undated.id)).toEqual([])
	})

	test('the same form sent five times at once leaves one plan row and one audit entry', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseEndingIn(4)
		const responses = await Promise.all(Array.from({ length: 5 }, () => post(course.id, { ...threeEqual, intent: 'save' }, admin.cookie)))
		expect(responses.map((response) => response.status)).toEqual([302, 302, 302, 302, 302])
		const toasts = await Promise.all(responses.map((response) => toastOf(response)))
		expect(toasts.filter((toast) => toast?.title === 'Payment plan saved')).toHaveLength(1)
		expect(await planRows(course.id)).toHaveLength(1)
		expect((await auditActions(course.id)).map((row) => row.action)).toEqual(['payment_plan.save'])
	})

	test('switched off, the plan keeps its terms and grace days; switched on again, they come back', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseEndingIn(4)
		await insertPaymentPlan(t.db, { courseId: course.id, kind: 'deposit', deposit_cents: 50_000, instalment_count: 2, grace_days: 12 })
		const off = await post(course.id, { offered: 'no', intent: 'save' }, admin.cookie)
		expect(await toastOf(off)).toMatchObject({ type: 'success', title: 'Payment plan no longer offered' })
		expect(await planRows(course.id)).toMatchObject([{ offered: false, kind: 'deposit', deposit_cents: 50_000, grace_days: 12 }])
		const again = await post(course.id, { offered: 'no', intent: 'save' }, admin.cookie)
		expect(await toastOf(again)).toMatchObject({ type: 'info' })
		expect((await auditActions(course.id)).map((row) => row.action)).toEqual(['payment_plan.withdraw'])
		const page = await callRoute(loader, getRequest(planPath(course.id), { cookie: admin.cookie }), { courseId: String(course.id) })
		expect(await page.json()).toMatchObject({ plan: { offered: false, depositCents: 50_000, graceDays: 12 }, preview: null })
	})

	test('a saved plan the course no longer fits (its dates moved) shows what stops it on the page', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await courseEndingIn(2)
		await insertPaymentPlan(t.db, { courseId: course.id, instalment_count: 4 })
		const page = await callRoute(loader, getRequest(planPath(course.id), { cookie: admin.cookie }), { courseId: String(course.id) })
		const data = (await page.json()) as { preview: { problems: Record<string, string>; offeredUntil: string | null } }
		expect(data.preview.problems.instalmentCount).toMatch(/^The last instalment would be due on/)
		expect(data.preview.offeredUntil).toBeNull()
	})

	test('a student is sent to the dashboard and a visitor to sign in, nothing written; a course that does not exist is 404', async () => {
		const course = await courseEndingIn(4)
		const student = await signedInUser(t.db, { role: 'student' })
		const forged = await post(course.id, { ...threeEqual, intent: 'save' }, student.cookie)
		expect([forged.status, forged.headers.get('Location')]).toEqual([302, '/dashboard'])
		const anonymous = await callRoute(action, formRequest(planPath(course.id), { ...threeEqual, intent: 'save' }), {
			courseId: String(course.id),
		})
		expect(anonymous.headers.get('Location')).toMatch(/^\/login/)
		expect(await planRows(course.id)).toEqual([])

		const admin = await signedInUser(t.db, { role: 'admin' })
		const missing = await post(999_999, { ...threeEqual, intent: 'save' }, admin.cookie)
		expect(missing.status).toBe(404)
	})
})
