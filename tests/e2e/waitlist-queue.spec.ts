import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { findAdminCourseCard } from '#tests/support/admin-course-grid.ts'
import { insertCourse, insertEnrollment, insertUser, insertWaitlistEntry } from '#tests/support/fixtures.ts'
import { agreeAndSubmit, expect, payAtTestCheckout, test } from '../support/e2e-journeys.ts'

async function fullCourse(db: Kysely<Database>, values: { registration_fee?: number } = {}) {
	const course = await insertCourse(db, { capacity: 1, registration_fee: 0, ...values })
	await insertEnrollment(db, { userId: await insertUser(db), courseId: course.id })
	return course
}

/** A place in the course's line, written straight to the database; with `offered`, an open offer whose link token is returned. */
async function insertPlace(
	db: Kysely<Database>,
	courseId: number,
	{ name, email = `${randomUUID().slice(0, 12)}@example.com`, offered = false }: { name: string; email?: string; offered?: boolean },
) {
	const hash = (token: string) => createHash('sha256').update(token).digest('hex')
	const token = randomBytes(24).toString('base64url')
	const now = new Date()
	const position = await db
		.selectFrom('waitlist_entries')
		.select((eb) => eb.fn.coalesce(eb.fn.max('position'), eb.lit(0)).as('last'))
		.where('course_id', '=', courseId)
		.executeTakeFirstOrThrow()
	await insertWaitlistEntry(db, {
		course_id: courseId,
		name,
		email,
		position: Number(position.last) + 1,
		token_hash: hash(randomBytes(24).toString('base64url')),
		...(offered
			? {
					status: 'offered' as const,
					offer_token_hash: hash(token),
					offered_at: now,
					offer_expires_at: new Date(now.getTime() + 48 * 3_600_000),
				}
			: {}),
	})
	return { token, email }
}

async function placeStatus(db: Kysely<Database>, courseId: number, email: string) {
	const row = await db
		.selectFrom('waitlist_entries')
		.select('status')
		.where('course_id', '=', courseId)
		.where('email', '=', email)
		.orderBy('id', 'desc')
		.executeTakeFirstOrThrow()
	return row.status
}

test('a student joins a full course’s waitlist, sees the position on My Courses, and leaves', async ({ page, db, signInAs }) => {
	const course = await fullCourse(db)
	await insertPlace(db, course.id, { name: 'Earlier Person' })
	const student = await signInAs({ name: 'Quinn Queue' })

	await page.goto(`/courses/${course.id}`)
	await page.getByRole('link', { name: 'Join Waitlist' }).click()
	await page.getByRole('dialog', { name: 'Join Our Waitlist' }).getByRole('button', { name: 'Join Waitlist' }).click()
	await expect(page.getByText('Waitlist Joined')).toBeVisible()
	await expect(page).toHaveURL(/\/dashboard$/)

	await page.goto('/dashboard/courses')
	const places = page.getByRole('region', { name: 'Your Places on Waitlists' })
	await expect(places.getByText('Position 2')).toBeVisible()
	await expect(places.getByText('You are number 2 in line.')).toBeVisible()
	const mail = await db
		.selectFrom('email_outbox')
		.select(['subject', 'text_body'])
		.where('to_address', '=', student.email)
		.executeTakeFirstOrThrow()
	expect(mail.subject).toBe(`You are on the waitlist: ${course.title}`)
	expect(mail.text_body).toContain('You are number 2 in line')

	await places.getByRole('link', { name: `Leave Waitlist of ${course.title}` }).click()
	const dialog = page.getByRole('dialog', { name: 'Leave the waitlist' })
	await dialog.getByRole('button', { name: 'Leave Waitlist' }).click()
	await expect(page.getByText('You left the waitlist')).toBeVisible()
	await expect(page.getByRole('region', { name: 'Your Places on Waitlists' })).toBeHidden()
	expect(await placeStatus(db, course.id, student.email)).toBe('left')
})

test('an admin reorders the queue, offers a seat by hand and removes someone', async ({ page, db, signInAs }) => {
	const course = await fullCourse(db)
	const ann = await insertPlace(db, course.id, { name: 'Ann Able' })
	const ben = await insertPlace(db, course.id, { name: 'Ben Baker' })
	await insertPlace(db, course.id, { name: 'Cara Cole' })
	await signInAs({ role: 'admin' })

	await page.goto('/dashboard/admin/courses')
	const card = await findAdminCourseCard(page, course.title)
	await card.getByRole('link', { name: `Waitlist of ${course.title}` }).click()
	await expect(page.getByRole('heading', { name: `Waitlist: ${course.title}` })).toBeVisible()
	const names = page.getByRole('table').locator('tbody tr td:nth-child(2)')
	await expect(names).toHaveText(['Ann Able', 'Ben Baker', 'Cara Cole'])

	await page.getByRole('button', { name: 'Move Up Cara Cole' }).click()
	await expect(page.getByText('Moved up')).toBeVisible()
	await expect(names).toHaveText(['Ann Able', 'Cara Cole', 'Ben Baker'])

	await page.getByRole('link', { name: 'Offer Seat to Ben Baker' }).click()
	const offer = page.getByRole('dialog', { name: 'Offer a Seat' })
	await expect(offer).toContainText('No seat is free, so the capacity goes from 1 to 2.')
	await offer.getByRole('button', { name: 'Offer Seat' }).click()
	await expect(page.getByText('Seat offered')).toBeVisible()
	await expect(page.getByRole('row', { name: /Ben Baker/ })).toContainText('Offered')
	expect(await placeStatus(db, course.id, ben.email)).toBe('offered')

	await page.getByRole('link', { name: 'Remove Ann Able' }).click()
	const remove = page.getByRole('dialog', { name: 'Remove from Waitlist' })
	await remove.getByRole('button', { name: 'Remove' }).click()
	await expect(page.getByText('Removed from the waitlist')).toBeVisible()
	await expect(names).toHaveText(['Cara Cole', 'Ben Baker'])
	expect(await placeStatus(db, course.id, ann.email)).toBe('removed')
})

test('a visitor claims a free seat from the offer link: the account is made and the seat is theirs', async ({ page, db }) => {
	const course = await insertCourse(db, { capacity: 1, registration_fee: 0 })
	const { token, email } = await insertPlace(db, course.id, { name: 'Olive Offer', offered: true })

	await page.goto(`/waitlist/places/${token}`)
	await expect(page.getByRole('heading', { name: 'A seat is held for you' })).toBeVisible()
	await page.getByRole('button', { name: 'Claim Your Seat' }).click()
	await expect(page.getByText('You must agree to the terms before claiming your seat')).toBeVisible()
	await page.getByLabel('Password', { exact: true }).fill('olive-offer-password')
	await agreeAndSubmit(page, 'Claim Your Seat')
	await expect(page.getByText('Enrollment Successful')).toBeVisible()
	await expect(page).toHaveURL(/\/dashboard$/)
	expect(await placeStatus(db, course.id, email)).toBe('enrolled')
})

test('a signed-in student claims a paid seat from the offer link and pays through the test checkout', async ({ page, db, signInAs }) => {
	const course = await insertCourse(db, { capacity: 1, registration_fee: 250000 })
	const student = await signInAs({ name: 'Paul Paid' })
	const { token } = await insertPlace(db, course.id, { name: 'Paul Paid', email: student.email, offered: true })

	await page.goto(`/waitlist/places/${token}`)
	await agreeAndSubmit(page, 'Claim and Pay')
	await expect(page).toHaveURL(/\/test-checkout\/cs_test_[0-9a-f]+$/)
	const releaseDashboard = await payAtTestCheckout(page, { buyer: 'Paul Paid', withName: true, button: 'Pay $2,500.00' })
	releaseDashboard()
	expect(await placeStatus(db, course.id, student.email)).toBe('enrolled')
	const enrolment = await db.selectFrom('enrollments').select('status').where('user_id', '=', student.id).executeTakeFirstOrThrow()
	expect(enrolment.status).toBe('active')
})

test('the offer page takes a promotion code: a refused one is explained, Apply prices a good one, and the checkout charges it', async ({
	page,
	db,
	signInAs,
}) => {
	const course = await insertCourse(db, { capacity: 1, registration_fee: 250000 })
	const code = `WAIT${randomUUID().slice(0, 8).toUpperCase()}`
	await db.insertInto('promotion_codes').values({ code, percent_off: 20, course_id: course.id }).execute()
	const student = await signInAs({ name: 'Coral Coded' })
	const { token } = await insertPlace(db, course.id, { name: 'Coral Coded', email: student.email, offered: true })

	await page.goto(`/waitlist/places/${token}`)
	const field = page.getByLabel('Promotion code (optional)')
	const agreement = page.getByRole('checkbox', { name: /I have read and agree/ })
	await field.fill('NO-SUCH-CODE')
	await agreement.check()
	await page.getByRole('button', { name: 'Claim and Pay' }).click()
	await expect(page.getByText('This promotion code does not exist.')).toBeVisible()
	await expect(field).toHaveValue('NO-SUCH-CODE')
	expect(await placeStatus(db, course.id, student.email)).toBe('offered')

	await field.fill(code.toLowerCase())
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByText(`Code ${code} applied: 20% off.`)).toBeVisible()
	await expect(page.getByText('$2,000.00')).toBeVisible()
	await agreement.check()
	await page.getByRole('button', { name: 'Claim and Pay' }).click()
	await expect(page).toHaveURL(/\/test-checkout\/cs_test_[0-9a-f]+$/)
	await expect(page.getByText(`Promotion code ${code}`)).toBeVisible()
	await expect(page.getByRole('button', { name: 'Pay $2,000.00' })).toBeVisible()
	const reserved = await db.selectFrom('promotion_code_redemptions').select('status').where('user_id', '=', student.id).execute()
	expect(reserved).toEqual([{ status: 'reserved' }])
})

test('a visitor joins a full course’s line from Our Programs and gets the place by e-mail', async ({ page, db }) => {
	const course = await fullCourse(db)
	await insertPlace(db, course.id, { name: 'Already Waiting' })
	const email = `programs-${randomUUID().slice(0, 12)}@example.com`

	await page.goto('/courses')
	await page.getByRole('link', { name: `Join Waitlist for ${course.title}` }).click()
	const dialog = page.getByRole('dialog', { name: 'Join Our Waitlist' })
	await expect(dialog.getByText(`Sign up to be notified when our ${course.title} becomes available`)).toBeVisible()
	await dialog.getByLabel('Full Name').fill('Vera Visitor')
	await dialog.getByLabel('Email').fill(email)
	await dialog.getByRole('button', { name: 'Join Waitlist' }).click()
	await expect(page.getByText('Waitlist Joined')).toBeVisible()
	await expect(page).toHaveURL(/\/courses$/)

	const place = await db
		.selectFrom('waitlist_entries')
		.select(['status', 'position'])
		.where('course_id', '=', course.id)
		.where('email', '=', email)
		.executeTakeFirstOrThrow()
	expect(place).toEqual({ status: 'waiting', position: 2 })
	const mail = await db.selectFrom('email_outbox').select('text_body').where('to_address', '=', email).executeTakeFirstOrThrow()
	expect(mail.text_body).toContain('You are number 2 in line')
	const link = mail.text_body.match(/\/waitlist\/places\/[\w-]+/)![0]
	await page.goto(link)
	await expect(page.getByText('You are number 2 in line.')).toBeVisible()
	await page.getByRole('link', { name: 'Leave Waitlist' }).click()
	await page.getByRole('dialog', { name: 'Leave the waitlist' }).getByRole('button', { name: 'Leave Waitlist' }).click()
	await expect(page.getByText('You left the waitlist')).toBeVisible()
	expect(await placeStatus(db, course.id, email)).toBe('left')
})
