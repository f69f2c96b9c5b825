/**
 * The school's details (issue 39 point 9, docs/decisions/050): the admin's form, the setting's
 * default and saved values, the audit entry, and what a receipt and the registration-complete
 * page show of a paid checkout with a promotion code.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { sendPasswordResetEmail } from '#app/models/accounts/account-emails.server.ts'
import { createUser } from '#app/models/accounts/users.server.ts'
import { agreementForCourse } from '#app/models/enrollment/agreement.server.ts'
import { claimSeat, fulfil, openCheckout } from '#app/models/payments/payments.server.ts'
import { createPromotionCode } from '#app/models/payments/promotion-codes-admin.server.ts'
import { describeAuditEntry } from '#app/models/site/audit-log.ts'
import { getSchoolDetails, SCHOOL_DETAILS_KEY, saveSchoolDetails } from '#app/models/site/site-settings.server.ts'
import { DEFAULT_SCHOOL_DETAILS, type SchoolDetails, SchoolDetailsSchema } from '#app/models/site/site-settings.ts'
import { action as schoolAction, loader as schoolLoader } from '#app/routes/admin/school-details.tsx'
import { loader as completionLoader } from '#app/routes/register/registration-complete.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertUser } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()
const PATH = '/dashboard/admin/school-details'

const harbour: SchoolDetails = {
	name: 'Harbour School of Property',
	address: '12 Harbour Street\nSpringfield, IL 62701',
	taxId: 'EIN 12-3456789',
}

beforeEach(async () => {
	await t.db.deleteFrom('site_settings').where('key', '=', SCHOOL_DETAILS_KEY).execute()
	await t.db.deleteFrom('audit_log').where('action', '=', 'school_details.save').execute()
})

function schoolAudits() {
	return t.db.selectFrom('audit_log').select(['actor_id', 'details']).where('action', '=', 'school_details.save').orderBy('id').execute()
}

function parse(fields: Record<string, string>) {
	const form = new FormData()
	for (const [key, value] of Object.entries(fields)) form.set(key, value)
	return parseWithZod(form, { schema: SchoolDetailsSchema })
}

/** The field errors of a submission Conform refused. */
function errorsOf(fields: Record<string, string>) {
	const submission = parse(fields)
	return submission.status === 'success' ? null : submission.error
}

describe('the school details form', () => {
	test('a name is required; the address is tidied line by line; each field has a limit and refuses control characters', () => {
		expect(errorsOf({ name: '  ' })).toEqual({ name: ['School name is required'] })
		expect(errorsOf({ name: 'x'.repeat(121) })).toEqual({ name: ['School name must be at most 120 characters'] })
		expect(errorsOf({ name: 'A\u0000B' })).toEqual({ name: ['School name must not contain control characters'] })
		expect(errorsOf({ name: 'School', taxId: 'x'.repeat(41) })).toEqual({ taxId: ['Tax ID must be at most 40 characters'] })
		expect(errorsOf({ name: 'School', address: 'One\u0007' })).toEqual({ address: ['Address must not contain control characters'] })
		expect(errorsOf({ name: 'School', address: 'a\nb\nc\nd\ne\nf\ng' })).toEqual({ address: ['Address must be at most 6 lines'] })

		const tidy = parse({ name: ' Harbour ', address: '  12 Harbour Street \r\n\r\n\tSpringfield  \n', taxId: ' EIN 1 ' })
		expect(tidy.status).toBe('success')
		expect(tidy.status === 'success' && tidy.value).toEqual({ name: 'Harbour', address: '12 Harbour Street\nSpringfield', taxId: 'EIN 1' })
		// Optional fields left empty are empty, not missing.
		const nameOnly = parse({ name: 'Harbour' })
		expect(nameOnly.status === 'success' && nameOnly.value).toEqual({ name: 'Harbour', address: '', taxId: '' })
	})
})

describe('the school details setting', () => {
	test('reads as the name the site has always used, and nothing else, until an admin saves', async () => {
		expect(await getSchoolDetails(t.db)).toEqual({ name: 'Real Estate Mentorship', address: '', taxId: '' })
		expect(DEFAULT_SCHOOL_DETAILS.name).toBe('Real Estate Mentorship')
	})

	test('saves, reads back, records what changed in words; the same details again save nothing', async () => {
		const adminId = await insertUser(t.db, { role: 'admin' })
		expect(await saveSchoolDetails(t.db, { adminId, details: harbour })).toEqual({ details: harbour, saved: true })
		expect(await getSchoolDetails(t.db)).toEqual(harbour)
		expect(await saveSchoolDetails(t.db, { adminId, details: harbour })).toMatchObject({ saved: false })

		await saveSchoolDetails(t.db, { adminId, details: { ...harbour, taxId: '' } })
		const audits = await schoolAudits()
		expect(audits).toHaveLength(2)
		expect(audits.every((audit) => audit.actor_id === adminId)).toBe(true)
		expect(describeAuditEntry({ action: 'school_details.save', details: audits[0]!.details })).toEqual({
			summary: 'School details saved',
			lines: [
				// In the order jsonb keeps the keys.
				'Name: Real Estate Mentorship → Harbour School of Property',
				'Tax ID: none → EIN 12-3456789',
				'Address: none → 12 Harbour Street\nSpringfield, IL 62701',
			],
		})
		expect(describeAuditEntry({ action: 'school_details.save', details: audits[1]!.details }).lines).toEqual([
			'Tax ID: EIN 12-3456789 → none',
		])
	})

	test("the saved name is the one every mail and the agreement's {school} say", async () => {
		const adminId = await insertUser(t.db, { role: 'admin' })
		await saveSchoolDetails(t.db, { adminId, details: harbour })
		const user = await createUser(t.db, { email: 'named-mail@example.com', name: 'Nell', passwordHash: 'unused', confirmed: true })
		await sendPasswordResetEmail(t.db, { id: user.id, email: user.email, name: 'Nell' })
		const mail = await t.db.selectFrom('email_outbox').select('text_body').where('to_address', '=', user.email).executeTakeFirstOrThrow()
		expect(mail.text_body).toMatch(/^Harbour School of Property http/)
		expect(mail.text_body).toContain('reset the password of your Harbour School of Property account')
		expect(mail.text_body).not.toContain('Real Estate Mentorship')

		const course = await insertCourse(t.db, { title: 'Agreement course' })
		expect((await agreementForCourse(t.db, course.id))!.html).toContain('and Harbour School of Property (the &quot;Company&quot;)')
	})

	test('a stored value that is no longer valid reads as the default', async () => {
		await t.db
			.insertInto('site_settings')
			.values({ key: SCHOOL_DETAILS_KEY, value: JSON.stringify({ name: '' }) })
			.execute()
		expect(await getSchoolDetails(t.db)).toEqual(DEFAULT_SCHOOL_DETAILS)
	})

	test('saves made at once are made one after another: each entry replaces what the one before it saved', async () => {
		const adminId = await insertUser(t.db, { role: 'admin' })
		const names = ['First School', 'Second School', 'Third School', 'Fourth School']
		await Promise.all(names.map((name) => saveSchoolDetails(t.db, { adminId, details: { ...harbour, name } })))
		const audits = (await schoolAudits()).map((audit) => audit.details as { before: SchoolDetails; after: SchoolDetails })
		expect(audits).toHaveLength(4)
		expect(audits[0]!.before.name).toBe('Real Estate Mentorship')
		for (let index = 1; index < audits.length; index++) expect(audits[index]!.before).toEqual(audits[index - 1]!.after)
		expect((await getSchoolDetails(t.db)).name).toBe(audits.at(-1)!.after.name)
	})
})

describe('the School Details page', () => {
	test('bad input is answered with the messages and what was typed, and nothing is written', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const response = await callRoute(
			schoolAction,
			formRequest(PATH, { name: '', address: '12 Harbour Street', taxId: 'x'.repeat(41) }, { cookie: admin.cookie }),
		)
		expect(response.status).toBe(400)
		const { result } = (await response.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
		expect(result.error).toEqual({ name: ['School name is required'], taxId: ['Tax ID must be at most 40 characters'] })
		expect(result.initialValue).toMatchObject({ address: '12 Harbour Street' })
		expect(await t.db.selectFrom('site_settings').select('key').where('key', '=', SCHOOL_DETAILS_KEY).execute()).toEqual([])
		expect(await schoolAudits()).toEqual([])
	})

	test('an admin saves the details with a toast and the page shows them; nobody else can', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const saved = await callRoute(schoolAction, formRequest(PATH, harbour, { cookie: admin.cookie }))
		expect(saved.headers.get('Location')).toBe(PATH)
		expect(await toastOf(saved)).toMatchObject({ type: 'success', title: 'School details saved' })
		const page = await callRoute(schoolLoader, getRequest(PATH, { cookie: admin.cookie }))
		expect(await page.json()).toEqual({ details: harbour })

		const student = await signedInUser(t.db)
		const refused = await callRoute(schoolAction, formRequest(PATH, { ...harbour, name: 'Mallory' }, { cookie: student.cookie }))
		expect(refused.headers.get('Location')).toBe('/dashboard')
		expect((await getSchoolDetails(t.db)).name).toBe(harbour.name)
	})
})

describe('a paid checkout with a promotion code', () => {
	let payments: TestCheckoutPayments
	beforeEach(() => {
		payments = new TestCheckoutPayments(() => t.db)
		setPayments(payments)
	})
	afterEach(() => setPayments(undefined))

	test('its receipt names the school as saved and the discount; the registration-complete page shows the discount', async () => {
		const adminId = await insertUser(t.db, { role: 'admin' })
		await saveSchoolDetails(t.db, { adminId, details: harbour })
		const course = await insertCourse(t.db, { title: 'Receipt course', capacity: 5, registration_fee: 250_000 })
		await createPromotionCode(t.db, adminId, {
			code: 'HARBOUR20',
			percentOff: 20,
			amountOffCents: null,
			courseId: course.id,
			expiresAt: null,
			maxUses: null,
		})
		const buyer = await createUser(t.db, {
			email: 'receipt-buyer@example.com',
			name: 'Rita Receipt',
			passwordHash: 'unused',
			confirmed: true,
		})
		const claim = await t.db
			.transaction()
			.execute((trx) => claimSeat(trx, { userId: buyer.id, courseId: course.id, promotionCode: 'harbour20' }))
		if (claim.kind === 'enrolled') throw new Error('expected a checkout')
		const { sessionId } = await openCheckout(t.db, payments, {
			claim,
			user: { id: buyer.id, email: buyer.email },
			appUrl: 'http://localhost:3000',
			cancelPath: '/register/agreement',
		})
		expect(await payments.markPaid(sessionId)).toBe(true)
		expect(await fulfil(t.db, payments, sessionId)).toMatchObject({ status: 'enrolled' })

		const receipt = await t.db
			.selectFrom('email_outbox')
			.select(['text_body', 'html_body'])
			.where('to_address', '=', buyer.email)
			.where('subject', '=', 'Enrollment confirmed: Receipt course')
			.executeTakeFirstOrThrow()
		expect(receipt.text_body).toMatch(/Price +\$2,500\.00\nPromotion code HARBOUR20 +−\$500\.00\nAmount paid +\$2,000\.00/)
		expect(receipt.text_body).toMatch(
			/Issued by +Harbour School of Property\nAddress +12 Harbour Street\n +Springfield, IL 62701\nTax ID +EIN 12-3456789/,
		)

		const page = await callRoute(completionLoader, getRequest(`/registration-complete?session_id=${sessionId}`))
		expect(await page.json()).toMatchObject({
			state: 'success',
			amounts: { paid: '$2,000.00', discount: { code: 'HARBOUR20', price: '$2,500.00', amountOff: '$500.00' } },
		})
	})
})
