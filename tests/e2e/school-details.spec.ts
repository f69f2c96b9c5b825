import { randomUUID } from 'node:crypto'
import { insertCourse } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'
import { agreeAndSubmit, payAtTestCheckout } from '../support/e2e-journeys.ts'

/**
 * The school's details are one setting for the whole site, and both projects run this at once: the
 * name stays the one every other spec expects in its mails, the address is the same in both runs, and
 * each run's tax id is its own (so each save changes something and is toasted as saved).
 */
const ADDRESS = ['12 Harbour Street', 'Springfield, IL 62701']

test('an admin sets the school details on a phone; a receipt and the completed registration show them and the code paid with', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const taxId = `EIN-${randomUUID().slice(0, 8).toUpperCase()}`
	await page.setViewportSize({ width: 390, height: 844 })
	await signIn(await createUser({ role: 'admin' }))
	await page.goto('/dashboard/admin/school-details')
	await expect(page.getByRole('heading', { level: 1, name: 'School Details' })).toBeVisible()
	const name = page.getByLabel('School name')
	const address = page.getByLabel('Postal address (optional)')
	const tax = page.getByLabel('Tax ID (optional)')

	// Bad input: the messages, and nothing typed is lost.
	await name.fill('')
	await address.fill(ADDRESS.join('\n'))
	await tax.fill('X'.repeat(41))
	await page.getByRole('button', { name: 'Save School Details' }).click()
	await expect(page.getByText('School name is required')).toBeVisible()
	await expect(page.getByText('Tax ID must be at most 40 characters')).toBeVisible()
	await expect(address).toHaveValue(ADDRESS.join('\n'))
	await expect(name).toHaveAttribute('aria-invalid', 'true')

	await name.fill('Real Estate Mentorship')
	await tax.fill(taxId)
	await page.getByRole('button', { name: 'Save School Details' }).click()
	await expect(page.getByText('School details saved')).toBeVisible()
	await expect(tax).toHaveValue(taxId)
	await expect(address).toHaveValue(ADDRESS.join('\n'))
	expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)

	// A student pays for a course with a 20% code.
	const course = await insertCourse(db, { registration_fee: 250000, description: 'A course with a receipt.' })
	const code = `HARBOUR${randomUUID().slice(0, 6).toUpperCase()}`
	await db.insertInto('promotion_codes').values({ code, percent_off: 20, course_id: course.id }).execute()
	const student = await createUser({ name: 'Rita Receipt' })
	await page.context().clearCookies()
	await signIn(student)
	await page.goto(`/courses/${course.id}/enroll`)
	await page.getByLabel('Promotion code (optional)').fill(code)
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByText(`Code ${code} applied: 20% off.`)).toBeVisible()
	await agreeAndSubmit(page, 'Proceed to Payment')
	await expect(page).toHaveURL(/\/test-checkout\/cs_test_[0-9a-f]+$/)
	const releaseDashboard = await payAtTestCheckout(page, { buyer: 'Rita Receipt', withName: true, button: 'Pay $2,000.00' })
	const paid = page.getByRole('definition')
	await expect(page.getByRole('term').filter({ hasText: `Promotion code ${code}` })).toBeVisible()
	await expect(paid.filter({ hasText: '−$500.00' })).toBeVisible()
	await expect(paid.filter({ hasText: '$2,500.00' })).toBeVisible()
	await expect(page.getByRole('term').filter({ hasText: 'Amount paid' })).toBeVisible()
	await expect(paid.filter({ hasText: '$2,000.00' })).toBeVisible()
	expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
	releaseDashboard()

	// The receipt names the school as saved (this run's tax id, or the other project's if it saved since) and the discount.
	const receipt = await db
		.selectFrom('email_outbox')
		.select('text_body')
		.where('to_address', '=', student.email)
		.where('subject', '=', `Enrollment confirmed: ${course.title}`)
		.executeTakeFirstOrThrow()
	expect(receipt.text_body).toMatch(new RegExp(`Price +\\$2,500\\.00\nPromotion code ${code} +−\\$500\\.00\nAmount paid +\\$2,000\\.00`))
	expect(receipt.text_body).toMatch(
		new RegExp(`Issued by +Real Estate Mentorship\nAddress +${ADDRESS[0]}\n +${ADDRESS[1]}\nTax ID +EIN-[0-9A-F]{8}`),
	)
})

test('the admin menu leads to School Details, which shows the saved details', async ({ page, createUser, signIn }) => {
	await signIn(await createUser({ role: 'admin' }))
	await page.goto('/dashboard/admin/courses')
	await page.getByRole('link', { name: 'School Details' }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'School Details' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'School Details' })).toHaveAttribute('aria-current', 'page')
	await expect(page.getByLabel('School name')).not.toHaveValue('')
})
