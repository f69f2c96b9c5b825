/**
 * Steps several end-to-end specs take the same way — a form filled in, a checkout paid, another
 * person's browser opened, a mailed link followed — so that each spec says only what it checks
 * on the way. Each step acts as a person would, through labels and roles.
 */
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { test as base, expect, type TestUser } from './e2e.ts'
import { holdRequestsTo } from './hold-requests.ts'

// After e2e.ts, which gives this process the server's environment.
const { createSession } = await import('#app/utils/session.server.ts')

type UserOptions = Partial<Omit<TestUser, 'id'>> & { confirmed?: boolean }

/**
 * The suite's test (e2e.ts) with one fixture more, for the two steps most tests begin with:
 * `signInAs` makes a user as `createUser` does and signs the browser in as them.
 */
export const test = base.extend<{ signInAs: (options?: UserOptions) => Promise<TestUser> }>({
	signInAs: async ({ createUser, signIn }, use) => {
		await use(async (options) => {
			const user = await createUser(options)
			await signIn(user)
			return user
		})
	},
})

export { expect }

/** The card the test checkout charges; `4000 0000 0000 0002` is the one it declines. */
export const GOOD_TEST_CARD = '4242 4242 4242 4242'

/** What a person types on the registration's first step, Your Information (the password twice). */
export async function fillYourInformation(page: Page, details: { name: string; email: string; password: string }) {
	await page.getByLabel('Full Name').fill(details.name)
	await page.getByLabel('Email').fill(details.email)
	await page.getByLabel('Password', { exact: true }).fill(details.password)
	await page.getByLabel('Confirm Password').fill(details.password)
}

/** From /register through Your Information and Select a Course to the agreement step. */
export async function registerToAgreement(page: Page, details: { name: string; email: string; password: string }, courseTitle: string) {
	await page.goto('/register')
	await fillYourInformation(page, details)
	await page.getByRole('button', { name: 'Continue' }).click()
	await page.getByRole('radio', { name: new RegExp(courseTitle) }).check()
	await page.getByRole('button', { name: 'Continue' }).click()
}

/** Ticks the program agreement in a purchase form (a page or a dialog) and presses its button. */
export async function agreeAndSubmit(form: Page | Locator, button: string) {
	await form.getByRole('checkbox', { name: /I have read and agree/ }).check()
	await form.getByRole('button', { name: button }).click()
}

/** The test checkout's card fields: expiry and CVC as any valid card has them. */
export async function fillTestCard(page: Page, cardholder: string, cardNumber = GOOD_TEST_CARD) {
	await page.getByLabel('Cardholder Name').fill(cardholder)
	await page.getByLabel('Card Number').fill(cardNumber)
	await page.getByLabel('Expiry (MM/YY)').fill('12/34')
	await page.getByLabel('CVC').fill('123')
}

/**
 * Pays at the test checkout with the card that goes through (typing the buyer's name into the Name
 * field first when `withName`) and waits for the completed registration. That page moves on to
 * the dashboard by itself after 2 s (a timer with JavaScript, a meta refresh without): the
 * dashboard is held until the test has read the page and calls the function returned.
 */
export async function payAtTestCheckout(page: Page, payment: { buyer: string; button: string; withName?: boolean }) {
	if (payment.withName) await page.getByLabel('Name', { exact: true }).fill(payment.buyer)
	await fillTestCard(page, payment.buyer)
	const releaseDashboard = await holdRequestsTo(page, '/dashboard')
	await page.getByRole('button', { name: payment.button }).click()
	await expect(page.getByRole('heading', { name: 'Registration Complete!' })).toBeVisible()
	return releaseDashboard
}

/** The cookie that signs a browser in as the user on the server at `url`: a real session. */
export async function sessionCookie(db: Kysely<Database>, userId: string, url: string) {
	const [pair] = (await createSession(db, userId)).setCookie.split(';')
	const separator = pair!.indexOf('=')
	return { name: pair!.slice(0, separator), value: pair!.slice(separator + 1), url, httpOnly: true, sameSite: 'Lax' as const }
}

/** Another person at another browser (its own context and cookies), signed in as the user. */
export async function openAs(browser: Browser, db: Kysely<Database>, user: TestUser, baseURL: string, javaScriptEnabled: boolean) {
	const context: BrowserContext = await browser.newContext({ baseURL, javaScriptEnabled })
	await context.addCookies([await sessionCookie(db, user.id, baseURL)])
	return { context, page: await context.newPage() }
}

/** The mails queued to `address` under `subject`, oldest first. */
export async function mailsTo(db: Kysely<Database>, address: string, subject: string) {
	return db
		.selectFrom('email_outbox')
		.select(['subject', 'text_body'])
		.where('to_address', '=', address)
		.where('subject', '=', subject)
		.orderBy('id')
		.execute()
}

/** The user's enrolments in the course, as `{ status }` rows: a test that expects one says so with `[{ status }]`. */
export async function enrollmentStatuses(db: Kysely<Database>, userId: string, courseId: number) {
	return db.selectFrom('enrollments').select('status').where('user_id', '=', userId).where('course_id', '=', courseId).execute()
}

/** On a course's materials page, the upload form: one PDF as a week's material, under its topic; the toast says it went. */
export async function uploadWeekPdf(page: Page, material: { weekNumber: number; topic: string; fileName: string; pdf: Uint8Array }) {
	await page.getByLabel('Week Number').fill(String(material.weekNumber))
	await page.getByLabel('Topic').fill(material.topic)
	await page
		.getByLabel('Class Materials')
		.setInputFiles([{ name: material.fileName, mimeType: 'application/pdf', buffer: Buffer.from(material.pdf) }])
	await page.getByRole('button', { name: 'Upload Materials' }).click()
	await expect(page.getByText('Materials uploaded successfully')).toBeVisible()
}

/** From a course's materials page to a week's roster, where one student is marked by hand ('Present', 'Excused' …) and saved. */
export async function markAttendanceByHand(page: Page, mark: { weekNumber: number; student: string; status: string }) {
	await page.getByRole('link', { name: `Attendance of week ${mark.weekNumber}` }).click()
	await expect(page.getByRole('heading', { level: 1, name: `Attendance: Week ${mark.weekNumber}` })).toBeVisible()
	await page.getByRole('group', { name: mark.student }).getByLabel(mark.status).check()
	await page.getByRole('button', { name: 'Save Attendance' }).click()
	await expect(page.getByText('Attendance saved: 1 student marked')).toBeVisible()
}

/** In the admin's Invite User form (page or dialog): an instructor for one course; the toast says it went. */
export async function inviteInstructor(page: Page, invitee: { name: string; email: string; courseTitle: string }) {
	await page.getByLabel('Name').fill(invitee.name)
	await page.getByLabel('Email').fill(invitee.email)
	await page.getByRole('radio', { name: 'Instructor' }).check()
	await page.getByRole('checkbox', { name: invitee.courseTitle }).check()
	await page.getByRole('button', { name: 'Send Invitation' }).click()
	await expect(page.getByText(`Invitation sent to ${invitee.email}`)).toBeVisible()
}

/** The set-your-password link of the invitation mailed to `email`, read from the plain-text part in the dev mailbox. */
export async function invitationLink(page: Page, email: string) {
	await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`)
	const link = page
		.getByRole('listitem')
		.filter({ hasText: 'You are invited: set your password' })
		.getByRole('region', { name: 'Plain-text part' })
		.getByRole('link', { name: /\/accept-invite\?token=/ })
	await expect(link).toBeVisible()
	return new URL((await link.getAttribute('href'))!)
}

/** The invited person, signed out, follows the link and sets a password, which signs them in. */
export async function acceptInvitation(page: Page, link: URL, password: string) {
	await page.context().clearCookies()
	await page.goto(`${link.pathname}${link.search}`)
	await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible()
	await page.getByLabel('Password', { exact: true }).fill(password)
	await page.getByLabel('Confirm Password').fill(password)
	await page.getByRole('button', { name: 'Set Password and Sign In' }).click()
	await expect(page.getByText('Your password is set and your account is ready.')).toBeVisible()
}
