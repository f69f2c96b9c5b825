/**
 * The program agreement is the school's template (issue 39, docs/decisions/043): each course fills
 * in its own fee, sessions, length and refund terms; the admin previews before saving; every
 * version is kept; nothing a course or an admin types becomes HTML.
 */
import { describe, expect, test } from 'vitest'
import { agreementForCourse, currentAgreementVersion, renderAgreement } from '#app/models/enrollment/agreement.server.ts'
import { type AgreementCourse, DEFAULT_REFUND_TERMS } from '#app/models/enrollment/agreement.ts'
import { fulfil } from '#app/models/payments/payments.server.ts'
import { action, loader } from '#app/routes/admin/agreement.tsx'
import { action as enrollAction } from '#app/routes/register/enroll.tsx'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertLiveSession } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()
const PATH = '/dashboard/admin/agreement'

const program: AgreementCourse = {
	title: 'Spring Cohort',
	registrationFee: 250_000,
	startDate: '2027-01-12',
	endDate: '2027-03-08',
	sessionMinutes: 90,
	sessionCount: 8,
	refundTerms: null,
}

function textOf(html: string) {
	return html
		.replace(/<[^>]+>/g, '')
		.replace(/\s+/g, ' ')
		.trim()
}

async function versionCount() {
	const { n } = await t.db
		.selectFrom('agreement_versions')
		.select((eb) => eb.fn.countAll<string>().as('n'))
		.executeTakeFirstOrThrow()
	return Number(n)
}

describe('the agreement a course shows', () => {
	test('fills in the course: its fee, length, sessions of its length, and refund terms instead of "no refunds"', async () => {
		const { body } = await currentAgreementVersion(t.db)
		const text = textOf(renderAgreement(body, program, 'Real Estate Mentorship'))
		expect(text).toContain('for your place in Spring Cohort')
		expect(text).toContain('The program runs for 8 weeks, with 8 weekly live sessions of 1 hour 30 minutes each')
		expect(text).toContain('The fee for this course is $2,500.00, paid in full when the Participant enrols')
		expect(text).toContain(DEFAULT_REFUND_TERMS)
		expect(text).not.toMatch(/all sales are final|one hour per week|non-refundable/i)
		expect(text).toContain('governed by the laws of the State of Georgia')

		const own = textOf(
			renderAgreement(body, { ...program, refundTerms: 'Full refund until the second session.' }, 'Real Estate Mentorship'),
		)
		expect(own).toContain('Refunds. Full refund until the second session.')
		const free = textOf(renderAgreement(body, { ...program, registrationFee: 0 }, 'Real Estate Mentorship'))
		expect(free).toContain('This course is free: no fee is charged for it.')
		expect(free).toContain('No fee is charged, so there is nothing to refund.')
	})

	test('reads a course from the database: scheduled sessions and their minutes, else the program’s weekly hour', async () => {
		const scheduled = await insertCourse(t.db, {
			title: 'Scheduled',
			start_date: '2027-01-12',
			end_date: '2027-02-08',
			schedule_weekday: 2,
			schedule_start_time: '19:00',
			schedule_minutes: 45,
		})
		for (const week of [1, 2, 3]) await insertLiveSession(t.db, { courseId: scheduled.id, weekNumber: week })
		const unscheduled = await insertCourse(t.db, { title: 'Unscheduled', start_date: null, end_date: null })
		const scheduledText = textOf((await agreementForCourse(t.db, scheduled.id))!.html)
		expect(scheduledText).toContain('runs for 4 weeks, with 3 weekly live sessions of 45 minutes each')
		const unscheduledText = textOf((await agreementForCourse(t.db, unscheduled.id))!.html)
		expect(unscheduledText).toContain('runs for 8 weeks, with 8 weekly live sessions of 1 hour each')
		expect(await agreementForCourse(t.db, 999_999)).toBeNull()
	})

	test('keeps what a course or an admin typed as text: no HTML, no script links', () => {
		const html = renderAgreement(
			'Hello {course}.\n\n<img src=x onerror=alert(1)> [link](javascript:alert(1))',
			{
				...program,
				title: '<script>alert(1)</script> **bold** [x](javascript:alert(2))',
			},
			'Real Estate Mentorship',
		)
		expect(html).not.toMatch(/<script|<img|href="javascript|<strong>bold/)
		expect(textOf(html)).toContain('&lt;script&gt;alert(1)&lt;/script&gt; **bold**')
		expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
	})
})

describe('the admin’s editor', () => {
	test('previews without saving, then saves a new version in force, with an audit entry; the same text again saves nothing', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db, { title: 'Preview Course', registration_fee: 120_000 })
		const before = await versionCount()
		const body = 'Between {school} and you, for **{course}** at {fee}.\n\n1. **Refunds.** {refund_terms}'

		const preview = await callRoute(action, formRequest(PATH, { intent: 'preview', body, previewCourse: String(course.id) }, admin))
		expect(preview.status).toBe(200)
		const previewed = (await preview.json()) as { preview: { html: string; body: string } }
		expect(textOf(previewed.preview.html)).toContain('Between Real Estate Mentorship and you, for Preview Course at $1,200.00.')
		expect(previewed.preview.body).toBe(body)
		expect(await versionCount()).toBe(before)

		const saved = await callRoute(action, formRequest(PATH, { intent: 'save', body }, admin))
		expect(saved.headers.get('Location')).toBe(PATH)
		expect((await toastOf(saved))?.title).toBe(`Agreement version ${before + 1} saved`)
		const current = await currentAgreementVersion(t.db)
		expect(current).toMatchObject({ id: before + 1, body })
		const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'agreement.save').execute()
		expect(audit).toHaveLength(1)
		expect(audit[0]).toMatchObject({ actor_id: admin.id, entity_id: String(before + 1) })

		const again = await callRoute(action, formRequest(PATH, { intent: 'save', body }, admin))
		expect((await toastOf(again))?.title).toBe('Nothing changed')
		expect(await versionCount()).toBe(before + 1)

		const page = await callRoute(loader, getRequest(`${PATH}?version=1&course=${course.id}`, admin))
		const loaded = (await page.json()) as { current: { id: number }; shown: { id: number; isCurrent: boolean; html: string } }
		expect(loaded.current.id).toBe(before + 1)
		expect(loaded.shown).toMatchObject({ id: 1, isCurrent: false })
		expect(textOf(loaded.shown.html)).toContain('for your place in Preview Course')
	})

	test.each([
		[{ body: '' }, 'The agreement cannot be empty'],
		[{ body: 'Pay {price} by {date}.' }, 'Unknown placeholders {price}, {date}: use {school}, {course}, {fee}'],
		[{ body: `Text\u0000with a NUL` }, 'The agreement must not contain control characters'],
		[{ body: 'x'.repeat(20_001) }, 'The agreement must be at most 20,000 characters'],
	])('refuses %o with a message under the field and writes nothing', async (fields, message) => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const before = await versionCount()
		for (const intent of ['preview', 'save']) {
			const response = await callRoute(action, formRequest(PATH, { intent, ...fields }, admin))
			expect(response.status).toBe(400)
			const reply = (await response.json()) as { result: { error: Record<string, string[]> } }
			expect(reply.result.error.body?.[0]).toContain(message)
		}
		expect(await versionCount()).toBe(before)
	})

	test('two admins saving at once make two versions, one after the other', async () => {
		const [first, second] = await Promise.all([signedInUser(t.db, { role: 'admin' }), signedInUser(t.db, { role: 'admin' })])
		const before = await versionCount()
		const answers = await Promise.all(
			[first, second].map((admin, index) =>
				callRoute(action, formRequest(PATH, { intent: 'save', body: `Version by admin ${index}` }, admin)),
			),
		)
		for (const answer of answers) expect(answer.status).toBe(302)
		expect(await versionCount()).toBe(before + 2)
	})
})

describe('an enrolment records the version its student accepted', () => {
	async function enroll(courseId: number, buyer: { cookie: string }, agreementVersion?: number) {
		const fields: Record<string, string> = { intent: 'agree', agreeToTerms: 'on' }
		if (agreementVersion !== undefined) fields.agreementVersion = String(agreementVersion)
		return callRoute(enrollAction, formRequest(`/courses/${courseId}/enroll`, fields, buyer), { id: String(courseId) })
	}

	async function enrolmentOf(userId: string, courseId: number) {
		return t.db
			.selectFrom('enrollments')
			.select('agreement_version_id')
			.where('user_id', '=', userId)
			.where('course_id', '=', courseId)
			.executeTakeFirst()
	}

	test('a free course records the version the form showed; a paid one carries it from the seat hold to the enrolment', async () => {
		const { id: versionId } = await currentAgreementVersion(t.db)
		const free = await insertCourse(t.db, { registration_fee: 0 })
		const student = await signedInUser(t.db)
		expect((await enroll(free.id, student, versionId)).status).toBe(302)
		expect(await enrolmentOf(student.id, free.id)).toEqual({ agreement_version_id: versionId })

		const paid = await insertCourse(t.db, { registration_fee: 90_000 })
		const buyer = await signedInUser(t.db)
		const answer = await enroll(paid.id, buyer, versionId)
		expect(answer.status).toBe(303)
		const sessionId = answer.headers.get('Location')!.split('/').at(-1)!
		const hold = await t.db.selectFrom('seat_holds').select('agreement_version_id').where('user_id', '=', buyer.id).executeTakeFirst()
		expect(hold).toEqual({ agreement_version_id: versionId })
		const payments = new TestCheckoutPayments(() => t.db)
		expect(await payments.markPaid(sessionId)).toBe(true)
		expect(await fulfil(t.db, payments, sessionId)).toMatchObject({ status: 'enrolled' })
		expect(await enrolmentOf(buyer.id, paid.id)).toEqual({ agreement_version_id: versionId })
	})

	test('a form showing an older version is refused with a message and enrols no one; without a version, the one in force is recorded', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const shown = await currentAgreementVersion(t.db)
		await callRoute(action, formRequest(PATH, { intent: 'save', body: `${shown.body}\n\nA new clause.` }, admin))
		const inForce = await currentAgreementVersion(t.db)
		expect(inForce.id).toBeGreaterThan(shown.id)
		const course = await insertCourse(t.db, { registration_fee: 0 })
		const student = await signedInUser(t.db)
		const refused = await enroll(course.id, student, shown.id)
		expect(refused.status).toBe(409)
		const reply = (await refused.json()) as { result: { error: Record<string, string[]> } }
		expect(reply.result.error['']).toEqual([
			'The agreement changed while you were reading it. Please read the new version and agree again.',
		])
		expect(await enrolmentOf(student.id, course.id)).toBeUndefined()

		expect((await enroll(course.id, student)).status).toBe(302)
		expect(await enrolmentOf(student.id, course.id)).toEqual({ agreement_version_id: inForce.id })
	})
})
