import { randomUUID } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { insertCourse } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'
import { agreeAndSubmit, payAtTestCheckout, registerToAgreement } from '../support/e2e-journeys.ts'

function unique(prefix: string) {
	return `${prefix}${randomUUID().slice(0, 8).toUpperCase()}`
}

async function insertCode(db: Kysely<Database>, values: { code: string; percent_off: number; course_id?: number; max_uses?: number }) {
	return db.insertInto('promotion_codes').values(values).returning('id').executeTakeFirstOrThrow()
}

async function toPaymentStep(page: Page, courseTitle: string, email: string) {
	await registerToAgreement(page, { name: 'Petra Promo', email, password: 'promo-code-password' }, courseTitle)
	await expect(page.getByRole('heading', { name: 'Real Estate Mentorship Program Agreement' })).toBeVisible()
}

/** A paid course with a 20% code for it, and a 20% code for another course; the codes start with the prefixes given. */
async function insertCourseWithCodes(db: Kysely<Database>, description: string, goodPrefix: string, elsewherePrefix: string) {
	const course = await insertCourse(db, { registration_fee: 250000, description })
	const other = await insertCourse(db, { registration_fee: 250000 })
	const good = unique(goodPrefix)
	const elsewhere = unique(elsewherePrefix)
	await insertCode(db, { code: good, percent_off: 20, course_id: course.id })
	await insertCode(db, { code: elsewhere, percent_off: 20, course_id: other.id })
	return { course, good, elsewhere }
}

/** A code that does not exist is refused by Apply, kept in the field and marked invalid. */
async function applyUnknownCode(page: Page, field: Locator) {
	await field.fill('NO-SUCH-CODE')
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByText('This promotion code does not exist.')).toBeVisible()
	await expect(field).toHaveValue('NO-SUCH-CODE')
	await expect(field).toHaveAttribute('aria-invalid', 'true')
}

/** Proceeding with a code for another course: refused on the same step, the code and the ticked box kept. */
async function proceedWithCodeForOtherCourse(page: Page, field: Locator, agreement: Locator, elsewhere: string) {
	await field.fill(elsewhere)
	await agreement.check()
	await page.getByRole('button', { name: 'Proceed to Payment' }).click()
	await expect(page.getByText('This promotion code is not valid for this course.')).toBeVisible()
	await expect(field).toHaveValue(elsewhere)
	await expect(agreement).toBeChecked()
}

/** The good code, typed in lower case, takes 20% off $2,500.00; then on to the checkout. */
async function applyGoodCodeAndProceed(page: Page, field: Locator, agreement: Locator, good: string) {
	await field.fill(good.toLowerCase())
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByText(`Code ${good} applied: 20% off.`)).toBeVisible()
	await expect(page.getByText('$2,000.00')).toBeVisible()
	await expect(agreement).toBeChecked()
	await page.getByRole('button', { name: 'Proceed to Payment' }).click()
}

/** The test checkout opened, naming the code. */
async function expectTestCheckout(page: Page, code: string) {
	await expect(page).toHaveURL(/\/test-checkout\/cs_test_[0-9a-f]+$/)
	await expect(page.getByText(`Promotion code ${code}`)).toBeVisible()
}

/** Pays the discounted $2,000.00 at the test checkout and lands on the completed registration. */
async function payTestCheckout(page: Page, name: string) {
	const releaseDashboard = await payAtTestCheckout(page, { buyer: name, withName: true, button: 'Pay $2,000.00' })
	await expect(page).toHaveURL(/\/registration-complete\?session_id=cs_test_/)
	releaseDashboard()
}

/** A code that makes the course free: Apply shows the price as free. */
async function applyFreeCode(page: Page, code: string) {
	await page.getByLabel('Promotion code (optional)').fill(code)
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByText('$0.00 (free)')).toBeVisible()
}

/** Registers for the free course at once and lands on the dashboard, enrolled. */
async function registerFree(page: Page, courseTitle: string) {
	await agreeAndSubmit(page, 'Register Now')
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText(`You are enrolled in ${courseTitle}.`)).toBeVisible()
}

test('an admin creates a promotion code, sees it listed and deactivates it after confirming', async ({ page, db, createUser, signIn }) => {
	const admin = await createUser({ role: 'admin' })
	const course = await insertCourse(db, { registration_fee: 250000 })
	await signIn(admin)
	const code = unique('SPRING')

	await page.goto('/dashboard/admin/promotion-codes')
	await expect(page.getByRole('heading', { level: 1, name: 'Promotion Codes' })).toBeVisible()
	await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase())
	await page.getByLabel('Discount', { exact: true }).fill('150')
	await page.getByLabel('Course (optional)').selectOption(String(course.id))
	await page.getByLabel('Maximum uses (optional)').fill('3')
	await page.getByLabel('Valid through (optional)').fill('2020-12-31')
	await page.getByRole('button', { name: 'Create Code' }).click()
	await expect(page.getByText('Enter a whole percentage from 1 to 100')).toBeVisible()
	await expect(page.getByText('The end date cannot be in the past.')).toBeVisible()
	// Nothing typed is lost.
	await expect(page.getByLabel('Code', { exact: true })).toHaveValue(code.toLowerCase())
	await expect(page.getByLabel('Maximum uses (optional)')).toHaveValue('3')

	await page.getByLabel('Discount', { exact: true }).fill('20')
	await page.getByLabel('Valid through (optional)').fill('')
	await page.getByRole('button', { name: 'Create Code' }).click()
	await expect(page.getByText(`Promotion code ${code} created`)).toBeVisible()
	const row = page.getByRole('row').filter({ hasText: code })
	await expect(row).toContainText('20% off')
	await expect(row).toContainText(course.title)
	await expect(row).toContainText('0 of 3')
	await expect(row).toContainText('Active')

	await row.getByRole('link', { name: `Deactivate ${code}` }).click()
	const dialog = page.getByRole('dialog', { name: 'Deactivate Promotion Code' })
	await expect(dialog).toContainText(code)
	await dialog.getByRole('button', { name: 'Deactivate' }).click()
	await expect(page.getByText('Promotion code deactivated')).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: code })).toContainText('Deactivated')
	await expect(
		page
			.getByRole('row')
			.filter({ hasText: code })
			.getByRole('link', { name: /Deactivate/ }),
	).toHaveCount(0)
})

test('the payment step explains a refused code, applies a good one, and the test checkout charges the discounted price', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const { course, good, elsewhere } = await insertCourseWithCodes(db, 'A course with a code.', 'TWENTY', 'ELSEWHERE')
	const email = `promo-${randomUUID().slice(0, 12)}@example.com`
	await toPaymentStep(page, course.title, email)

	const field = page.getByLabel('Promotion code (optional)')
	const agreement = page.getByRole('checkbox', { name: /I have read and agree/ })
	await applyUnknownCode(page, field)

	await proceedWithCodeForOtherCourse(page, field, agreement, elsewhere)
	expect(await db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([])

	await applyGoodCodeAndProceed(page, field, agreement, good)

	await expectTestCheckout(page, good)
	await payTestCheckout(page, 'Petra Promo')

	const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
	const payment = await db
		.selectFrom('registration_payments')
		.select(['status', 'amount_cents', 'discount_cents', 'promotion_code'])
		.where('user_id', '=', user.id)
		.executeTakeFirstOrThrow()
	expect(payment).toEqual({ status: 'paid', amount_cents: 200000, discount_cents: 50000, promotion_code: good })

	// The admin sees what was paid and with which code.
	const admin = await createUser({ role: 'admin' })
	await page.context().clearCookies()
	await signIn(admin)
	await page.goto(`/dashboard/admin/enrollments?q=${encodeURIComponent(email)}`)
	const row = page.getByRole('row').filter({ hasText: email })
	await expect(row).toContainText('$2,000.00')
	await expect(row).toContainText(`Code ${good} (−$500.00)`)
})

test('a code that makes the course free enrols at once, without a checkout', async ({ page, db }) => {
	const course = await insertCourse(db, { registration_fee: 250000, description: 'Free with the code.' })
	const code = unique('FREE')
	await insertCode(db, { code, percent_off: 100, max_uses: 1 })
	const email = `free-${randomUUID().slice(0, 12)}@example.com`
	await toPaymentStep(page, course.title, email)

	await applyFreeCode(page, code)
	await registerFree(page, course.title)
	const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
	expect(await db.selectFrom('enrollments').select('status').where('user_id', '=', user.id).execute()).toEqual([{ status: 'active' }])
	expect(await db.selectFrom('test_checkout_sessions').select('id').where('customer_email', '=', email).execute()).toEqual([])
})

test("a signed-in student is told why a code is refused in the course page's purchase form, applies a good one and pays the discounted price", async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const { course, good, elsewhere } = await insertCourseWithCodes(db, 'Bought from its page with a code.', 'PAGE', 'OTHER')
	const student = await createUser({ name: 'Sina Signed-In' })
	await signIn(student)

	await page.goto(`/courses/${course.id}`)
	await page.getByRole('link', { name: 'Secure Your Spot Now' }).click()
	await expect(page.getByRole('dialog', { name: 'Secure Your Spot' })).toBeVisible()
	// With JavaScript the dialog stays and answers in place; without, /courses/:id/enroll shows the same form.
	const field = page.getByLabel('Promotion code (optional)')
	const agreement = page.getByRole('checkbox', { name: /I have read and agree/ })
	await applyUnknownCode(page, field)

	await proceedWithCodeForOtherCourse(page, field, agreement, elsewhere)
	expect(await db.selectFrom('seat_holds').select('id').where('user_id', '=', student.id).execute()).toEqual([])

	await applyGoodCodeAndProceed(page, field, agreement, good)

	await expectTestCheckout(page, good)
	await expect(page.getByLabel('Email')).toHaveValue(student.email)
	await payTestCheckout(page, 'Sina Signed-In')
	expect(
		await db
			.selectFrom('registration_payments')
			.select(['status', 'amount_cents', 'discount_cents', 'promotion_code'])
			.where('user_id', '=', student.id)
			.execute(),
	).toEqual([{ status: 'paid', amount_cents: 200000, discount_cents: 50000, promotion_code: good }])
})

test('a signed-in student whose code makes the course free registers from the purchase page without a checkout', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const course = await insertCourse(db, { registration_fee: 250000, description: 'Free for a signed-in student with the code.' })
	const code = unique('GIFT')
	await insertCode(db, { code, percent_off: 100, course_id: course.id, max_uses: 1 })
	const student = await createUser({ name: 'Gia Gifted' })
	await signIn(student)

	// On a phone: the field, its Apply button and the price fit the screen.
	await page.setViewportSize({ width: 390, height: 844 })
	await page.goto(`/courses/${course.id}/enroll`)
	await expect(page.getByRole('heading', { name: 'Secure Your Spot' })).toBeVisible()
	await applyFreeCode(page, code)
	expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
	await registerFree(page, course.title)
	expect(await db.selectFrom('enrollments').select('status').where('user_id', '=', student.id).execute()).toEqual([{ status: 'active' }])
	expect(await db.selectFrom('test_checkout_sessions').select('id').where('customer_email', '=', student.email).execute()).toEqual([])
})
