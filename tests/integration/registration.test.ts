import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import { action as agreementAction, loader as agreementLoader } from '#app/routes/register/agreement.tsx'
import { action as courseAction, loader as courseLoader } from '#app/routes/register/course.tsx'
import { action as detailsAction, loader as detailsLoader } from '#app/routes/register/details.tsx'
import { action as enrollAction } from '#app/routes/register/enroll.tsx'
import { loader as completionLoader } from '#app/routes/register/registration-complete.tsx'
import { action as checkoutAction, loader as checkoutLoader } from '#app/routes/register/test-checkout.tsx'
import { setPayments } from '#app/services/payments/index.server.ts'
import { TestCheckoutPayments } from '#app/services/payments/test-checkout.server.ts'
import { HONEYPOT_REFUSAL } from '#app/utils/honeypot.ts'
import { consumeRateLimit, RATE_LIMITS } from '#app/utils/rate-limit.server.ts'
import { getSessionUser } from '#app/utils/session.server.ts'
import { useTestDatabase, withTablesUnavailable } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertSession } from '#tests/support/fixtures.ts'
import { cookiesFrom, formRequest, getRequest, sessionCookieFor, settle, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()
const PASSWORD = 'a-Secret-Passphrase-42'

beforeEach(() => setPayments(new TestCheckoutPayments(() => t.db)))
afterEach(() => setPayments(undefined))

let sequence = 0
function uniqueEmail() {
	sequence += 1
	return `Registrant-${sequence}@Example.com`
}
/** Each test registers from an address of its own, so the registration rate limit stays out of the way. */
function address() {
	return `198.51.100.${sequence % 250}`
}

async function course(values: { capacity?: number; registration_fee?: number } = {}) {
	sequence += 1
	return insertCourse(t.db, { title: `Registration course ${sequence}`, capacity: 5, registration_fee: 0, ...values })
}

async function takeSeats(courseId: number, count: number) {
	for (let index = 0; index < count; index++) {
		const email = `taken-${courseId}-${index}-${sequence}@example.com`
		const user = await createUser(t.db, { email, name: 'Taken', passwordHash: 'x' })
		await insertEnrollment(t.db, { userId: user.id, courseId })
	}
}

/** Each step of the wizard is a route of its own: a form goes to the step its intent names. */
const STEPS = {
	details: { path: '/register', action: detailsAction, loader: detailsLoader },
	'start-over': { path: '/register', action: detailsAction, loader: detailsLoader },
	course: { path: '/register/course', action: courseAction, loader: courseLoader },
	agree: { path: '/register/agreement', action: agreementAction, loader: agreementLoader },
}

function post(fields: Record<string, string | string[]>, cookie?: string, ip = address()) {
	const step = STEPS[fields.intent as keyof typeof STEPS]
	return settle(() => step.action({ request: formRequest(step.path, fields, { cookie, ip }), params: {}, context: {} } as never))
}

function load(path: string, cookie?: string) {
	const pathname = new URL(path, 'http://localhost').pathname
	const step = Object.values(STEPS).find((candidate) => candidate.path === pathname)!
	return settle(() => step.loader({ request: getRequest(path, { cookie }), params: {}, context: {} } as never))
}

function completion(sessionId: string, cookie?: string) {
	const request = getRequest(`/registration-complete?session_id=${sessionId}`, { cookie })
	return settle(() => completionLoader({ request, params: {}, context: {} } as never))
}

function checkoutPage(sessionId: string) {
	const request = getRequest(`/test-checkout/${sessionId}`)
	return settle(() => checkoutLoader({ request, params: { sessionId }, context: {} } as never))
}

function checkoutPost(sessionId: string, fields: Record<string, string>) {
	const request = formRequest(`/test-checkout/${sessionId}`, fields)
	return settle(() => checkoutAction({ request, params: { sessionId }, context: {} } as never))
}

function selectIds(rows: Array<{ id: number }>) {
	return rows.map((row) => row.id)
}

function details(email = uniqueEmail(), overrides: Record<string, string> = {}) {
	return { intent: 'details', name: 'Rita Registrant', email, password: PASSWORD, confirmPassword: PASSWORD, ...overrides }
}

/** Steps 1 and 2 done: returns the draft cookie. */
async function throughStepTwo(courseId: number, email = uniqueEmail()) {
	const first = await post(details(email))
	expect(first.status).toBe(302)
	const cookie = cookiesFrom(first)
	const second = await post({ intent: 'course', courseId: String(courseId) }, cookie)
	expect(second.headers.get('Location')).toBe('/register/agreement')
	return cookie
}

async function errorsOf(response: Response) {
	const body = (await response.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }
	return body.result
}

test('the steps were once ?step=2 and ?step=3 of /register: such a link lands on its step', async () => {
	expect((await load('/register?step=2')).headers.get('Location')).toBe('/register/course')
	expect((await load('/register?step=2&full=7&dialog=waitlist')).headers.get('Location')).toBe('/register/course?full=7&dialog=waitlist')
	expect((await load('/register?step=3')).headers.get('Location')).toBe('/register/agreement')
})

describe('step 1: your information', () => {
	test('shows the spec messages, the mismatch on the confirmation field, and never returns a password', async () => {
		const empty = await post({ intent: 'details' })
		expect(empty.status).toBe(400)
		expect((await errorsOf(empty)).error).toEqual({
			name: ['Name must be at least 2 characters'],
			email: ['Please enter a valid email address'],
			password: ['Password must be at least 8 characters'],
			confirmPassword: ['Passwords do not match'],
		})

		const invalid = await post(details('not-an-email', { name: 'R', password: 'short', confirmPassword: 'short' }))
		expect((await errorsOf(invalid)).error).toEqual({
			name: ['Name must be at least 2 characters'],
			email: ['Please enter a valid email address'],
			password: ['Password must be at least 8 characters'],
		})

		const mismatch = await post(details(uniqueEmail(), { confirmPassword: `${PASSWORD}-typo` }))
		const text = await mismatch.clone().text()
		expect((await errorsOf(mismatch)).error).toEqual({ confirmPassword: ['Passwords do not match'] })
		expect(text).not.toContain(PASSWORD)
		expect(await t.db.selectFrom('registration_drafts').select('id').execute()).toEqual([])
	})

	test('an e-mail that is already registered is refused on the email field', async () => {
		const email = uniqueEmail()
		await createUser(t.db, { email, name: 'Existing', passwordHash: 'x' })
		const response = await post(details(email.toUpperCase()))
		expect(response.status).toBe(400)
		const result = await errorsOf(response)
		expect(result.error).toEqual({ email: ['An account with this email already exists. Please log in instead.'] })
		expect(JSON.stringify(result)).not.toContain(PASSWORD)
	})

	test('the draft keeps only an argon2id hash; Back shows the details again but never the password', async () => {
		const email = uniqueEmail()
		const response = await post(details(email))
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/register/course')
		const setCookie = response.headers.get('Set-Cookie') ?? ''
		expect(setCookie).toMatch(/HttpOnly/i)
		expect(setCookie).toMatch(/SameSite=Lax/i)
		expect(setCookie).not.toContain(PASSWORD)

		const draft = await t.db
			.selectFrom('registration_drafts')
			.selectAll()
			.where('email', '=', email.toLowerCase())
			.executeTakeFirstOrThrow()
		expect(draft.password_hash).toMatch(/^\$argon2id\$/)
		expect(draft.password_hash).not.toContain(PASSWORD)

		const back = await load('/register', cookiesFrom(response))
		const body = JSON.stringify(await back.json())
		expect(JSON.parse(body)).toEqual({
			details: { name: 'Rita Registrant', email: email.toLowerCase(), accountCreated: false },
		})
		expect(body).not.toContain('argon2')

		// Sending step 1 again edits the same draft.
		const edited = await post(details(email, { name: 'Rita Edited' }), cookiesFrom(response))
		expect(cookiesFrom(edited)).toBe(cookiesFrom(response))
		const renamed = await t.db.selectFrom('registration_drafts').select('name').where('id', '=', draft.id).executeTakeFirstOrThrow()
		expect(renamed).toEqual({ name: 'Rita Edited' })
	})

	test('a filled honeypot is refused with a visible message, keeps the name and e-mail, and nothing is stored', async () => {
		const email = uniqueEmail()
		const response = await post({ ...details(email), website: 'https://spam.example' })
		expect(response.status).toBe(400)
		expect(cookiesFrom(response)).toBe('')
		const result = await errorsOf(response)
		expect(result.error).toEqual({ '': [HONEYPOT_REFUSAL] })
		expect(result.initialValue).toMatchObject({ email })
		expect(JSON.stringify(result)).not.toContain(PASSWORD)
		expect(await t.db.selectFrom('registration_drafts').select('id').where('email', '=', email.toLowerCase()).execute()).toEqual([])
	})

	test('back at step 1, blank password fields keep the password the draft holds; a new one replaces it', async () => {
		const email = uniqueEmail().toLowerCase()
		const first = await post(details(email))
		expect(first.headers.get('Location')).toBe('/register/course')
		const cookie = cookiesFrom(first)
		const storedHash = async () =>
			(await t.db.selectFrom('registration_drafts').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow())
				.password_hash

		const hash = await storedHash()
		const kept = await post({ intent: 'details', name: 'Kept Password', email, password: '', confirmPassword: '' }, cookie)
		expect(kept.headers.get('Location')).toBe('/register/course')
		expect(await storedHash()).toBe(hash)
		expect(await t.db.selectFrom('registration_drafts').select('name').where('email', '=', email).executeTakeFirstOrThrow()).toEqual({
			name: 'Kept Password',
		})

		const mismatch = await post(
			{ intent: 'details', name: 'Kept Password', email, password: 'a-new-password', confirmPassword: '' },
			cookie,
		)
		expect((await errorsOf(mismatch)).error).toEqual({ confirmPassword: ['Passwords do not match'] })

		const replaced = await post(details(email, { password: 'a-new-password', confirmPassword: 'a-new-password' }), cookie)
		expect(replaced.headers.get('Location')).toBe('/register/course')
		expect(await storedHash()).not.toBe(hash)

		// Without a draft there is no password to keep.
		const noDraft = await post({ intent: 'details', name: 'No Draft', email: uniqueEmail(), password: '', confirmPassword: '' })
		expect((await errorsOf(noDraft)).error).toMatchObject({ password: ['Password must be at least 8 characters'] })
	})

	test('later steps without a draft go back to step 1', async () => {
		expect((await load('/register/course')).headers.get('Location')).toBe('/register')
		expect((await load('/register/agreement')).headers.get('Location')).toBe('/register')
	})
})

describe('step 2: select a course', () => {
	test('lists available and full courses; a course that filled up gives the spec error, the Course Full toast and the waitlist', async () => {
		const open = await course({ capacity: 3 })
		const full = await course({ capacity: 1 })
		await takeSeats(full.id, 1)
		const cookie = cookiesFrom(await post(details()))

		const page = (await (await load('/register/course', cookie)).json()) as {
			available: Array<{ id: number }>
			full: Array<{ id: number }>
		}
		expect(selectIds(page.available)).toContain(open.id)
		expect(selectIds(page.full)).toContain(full.id)
		expect(selectIds(page.available)).not.toContain(full.id)

		const none = await post({ intent: 'course' }, cookie)
		expect((await errorsOf(none)).error).toEqual({ courseId: ['Please select a course'] })

		const refused = await post({ intent: 'course', courseId: String(full.id) }, cookie)
		expect(refused.headers.get('Location')).toBe(`/register/course?full=${full.id}&dialog=waitlist`)
		expect(await toastOf(refused)).toMatchObject({
			type: 'error',
			title: 'Course Full',
			description: 'This course is now full. Please join our waitlist to be notified when spots become available.',
		})
		const withDialog = (await (await load(refused.headers.get('Location')!, cookie)).json()) as Record<string, unknown>
		expect(withDialog).toMatchObject({ fullCourse: { id: full.id, title: full.title }, waitlist: { course: { id: full.id } } })
	})

	test('when every course is full, no course is offered', async () => {
		await t.db.updateTable('courses').set({ capacity: 1 }).execute()
		const courses = await t.db.selectFrom('courses').select('id').execute()
		for (const { id } of courses) {
			const taken = await t.db.selectFrom('enrollments').select('id').where('course_id', '=', id).execute()
			if (taken.length === 0) await takeSeats(id, 1)
		}
		const cookie = cookiesFrom(await post(details()))
		const page = (await (await load('/register/course', cookie)).json()) as { available: unknown[]; full: unknown[] }
		expect(page.available).toEqual([])
		expect(page.full.length).toBeGreaterThan(0)
		await t.db.deleteFrom('courses').execute()
	})
})

describe('step 3 and the free path', () => {
	test('the agreement must be accepted; nothing is created until it is', async () => {
		const free = await course()
		const email = uniqueEmail()
		const cookie = await throughStepTwo(free.id, email)
		const refused = await post({ intent: 'agree' }, cookie)
		expect(refused.status).toBe(400)
		expect((await errorsOf(refused)).error).toEqual({ agreeToTerms: ['You must agree to the terms before proceeding to payment'] })
		expect(await t.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).execute()).toEqual([])
	})

	test('Register Now creates the unconfirmed account, the enrollment, the confirmation mail and the receipt, and signs the browser in', async () => {
		const free = await course()
		const email = uniqueEmail()
		const cookie = await throughStepTwo(free.id, email)
		const step3 = (await (await load('/register/agreement', cookie)).json()) as { course: { id: number; registrationFee: number } }
		expect(step3.course).toMatchObject({ id: free.id, registrationFee: 0 })

		const response = await post({ intent: 'agree', agreeToTerms: 'on' }, cookie)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard')
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Registration Successful' })

		const user = await t.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow()
		expect(user.email_confirmed_at).toBeNull()
		expect(user.password_hash).toMatch(/^\$argon2id\$/)
		const enrollment = await t.db.selectFrom('enrollments').select('status').where('user_id', '=', user.id).executeTakeFirstOrThrow()
		expect(enrollment.status).toBe('active')
		const mail = await t.db
			.selectFrom('email_outbox')
			.select(['subject', 'text_body', 'html_body'])
			.where('to_address', '=', user.email)
			.orderBy('id')
			.execute()
		expect(mail.map((row) => row.subject)).toEqual(['Confirm your email address', `Enrollment confirmed: ${free.title}`])
		expect(mail[1]!.text_body).toMatch(/Amount paid +Free/)
		for (const row of mail) expect(`${row.text_body}${row.html_body}`).not.toContain(PASSWORD)
		expect(await t.db.selectFrom('registration_drafts').select('id').where('email', '=', user.email).execute()).toEqual([])

		const signedIn = await getSessionUser(new Request('http://localhost/', { headers: { Cookie: cookiesFrom(response) } }))
		expect(signedIn).toMatchObject({ id: user.id, emailConfirmed: false })
	})

	test('a course that filled up before step 3 sends the person to the waitlist and leaves no account behind', async () => {
		const free = await course({ capacity: 1 })
		const email = uniqueEmail()
		const cookie = await throughStepTwo(free.id, email)
		await takeSeats(free.id, 1)
		const response = await post({ intent: 'agree', agreeToTerms: 'on' }, cookie)
		expect(response.headers.get('Location')).toBe(`/register/course?full=${free.id}&dialog=waitlist`)
		expect(await toastOf(response)).toMatchObject({ title: 'Course Full' })
		expect(await t.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).execute()).toEqual([])
	})

	test('step 1 is rate limited per client address before a password is hashed or a draft stored', async () => {
		const ip = '192.0.2.78'
		const invalid = await post(details(uniqueEmail(), { confirmPassword: 'something-else' }), undefined, ip)
		expect(invalid.status).toBe(400)
		// Only valid details count: a typo costs nothing.
		expect(await t.db.selectFrom('rate_limits').select('points').where('key', '=', `registrationDetails:${ip}`).execute()).toEqual([])

		for (let hit = 0; hit < RATE_LIMITS.registrationDetails.points; hit++) await consumeRateLimit('registrationDetails', ip)
		const email = uniqueEmail()
		const response = await post(details(email), undefined, ip)
		expect(response.status).toBe(429)
		expect(response.headers.get('Retry-After')).toBeTruthy()
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error['']).toEqual(['Too many registrations from your network. Please wait an hour and try again.'])
		expect(await t.db.selectFrom('registration_drafts').select('id').where('email', '=', email.toLowerCase()).execute()).toEqual([])

		const elsewhere = await post(details(email), undefined, '192.0.2.79')
		expect(elsewhere.status).toBe(302)
	})

	test('registrations are rate limited per client address', async () => {
		const free = await course()
		const cookie = await throughStepTwo(free.id)
		const ip = '192.0.2.77'
		for (let hit = 0; hit < RATE_LIMITS.registration.points; hit++) await consumeRateLimit('registration', ip)
		const response = await post({ intent: 'agree', agreeToTerms: 'on' }, cookie, ip)
		expect(response.status).toBe(429)
		expect(response.headers.get('Retry-After')).toBeTruthy()
	})
})

describe('the paid path through the test checkout', () => {
	async function toCheckout(fee = 250000) {
		const paid = await course({ capacity: 2, registration_fee: fee })
		const email = uniqueEmail()
		const cookie = await throughStepTwo(paid.id, email)
		const response = await post({ intent: 'agree', agreeToTerms: 'on' }, cookie)
		expect(response.status).toBe(303)
		const location = response.headers.get('Location')!
		expect(location).toMatch(/^\/test-checkout\/cs_test_[0-9a-f]{32}$/)
		return { courseId: paid.id, email: email.toLowerCase(), cookie, sessionId: location.split('/').pop()! }
	}

	function pay(sessionId: string, fields: Record<string, string>) {
		return checkoutPost(sessionId, { intent: 'pay', ...fields })
	}

	const card = {
		name: 'Rita Registrant',
		email: 'rita@example.com',
		cardHolder: 'Rita Registrant',
		cardNumber: '4242 4242 4242 4242',
		expiry: '12/34',
		cvc: '123',
	}

	test('Proceed to Payment creates the account and a held seat, and opens a checkout priced from the database', async () => {
		const { courseId, email, sessionId } = await toCheckout(199_900)
		const user = await t.db.selectFrom('users').select(['id', 'email_confirmed_at']).where('email', '=', email).executeTakeFirstOrThrow()
		expect(user.email_confirmed_at).toBeNull()
		const hold = await t.db.selectFrom('seat_holds').selectAll().where('checkout_session_id', '=', sessionId).executeTakeFirstOrThrow()
		expect(hold).toMatchObject({ user_id: user.id, course_id: courseId })
		const minutes = (hold.expires_at.getTime() - Date.now()) / 60_000
		expect(minutes).toBeGreaterThan(30)
		expect(minutes).toBeLessThanOrEqual(31)
		const paymentRow = await t.db
			.selectFrom('registration_payments')
			.selectAll()
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow()
		expect(paymentRow).toMatchObject({ status: 'pending', amount_cents: 199_900, customer_email: email, provider: 'test' })

		const page = await (await checkoutPage(sessionId)).json()
		expect(page).toMatchObject({
			session: { amountCents: 199_900, customerEmail: email, expired: false, cancelPath: '/register/agreement' },
		})
	})

	test('the card form shows the spec messages', async () => {
		const { sessionId } = await toCheckout()
		const response = await pay(sessionId, { name: 'R', email: 'nope', cardHolder: 'R', cardNumber: '4242', expiry: '1234', cvc: '12' })
		expect(response.status).toBe(400)
		expect((await errorsOf(response)).error).toEqual({
			name: ['Name must be at least 2 characters.'],
			email: ['Please enter a valid email.'],
			cardHolder: ['Cardholder name must be at least 2 characters.'],
			cardNumber: ['Please enter a valid card number.'],
			expiry: ['Please use format MM/YY'],
			cvc: ['Please enter a valid CVC.'],
		})
	})

	test('the documented test card is declined: nothing is enrolled and the seat stays held', async () => {
		const { courseId, sessionId } = await toCheckout()
		const started = Date.now()
		const response = await pay(sessionId, { ...card, cardNumber: '4000 0000 0000 0002' })
		expect(Date.now() - started).toBeGreaterThanOrEqual(1400)
		expect(response.status).toBe(402)
		const result = await errorsOf(response)
		expect(result.error).toEqual({ '': ['Payment failed. Please try again.'] })
		expect(JSON.stringify(result)).not.toContain('4000 0000 0000 0002')
		expect(await t.db.selectFrom('enrollments').select('id').where('course_id', '=', courseId).execute()).toEqual([])
		expect(await t.db.selectFrom('seat_holds').select('id').where('checkout_session_id', '=', sessionId).execute()).toHaveLength(1)
	})

	test('a successful payment enrols and the completion page signs in the browser that registered', async () => {
		const { courseId, email, cookie, sessionId } = await toCheckout()
		const paid = await pay(sessionId, card)
		expect(paid.status).toBe(302)
		expect(paid.headers.get('Location')).toBe(`/registration-complete?session_id=${sessionId}`)
		expect(await toastOf(paid)).toMatchObject({ type: 'success', title: 'Payment processed successfully!' })

		const user = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
		expect(await t.db.selectFrom('enrollments').select('user_id').where('course_id', '=', courseId).execute()).toEqual([
			{ user_id: user.id },
		])

		// A browser without the registration draft is told to log in.
		const elsewhere = await completion(sessionId)
		expect(await elsewhere.json()).toMatchObject({ state: 'success', signedIn: false })

		// The browser is signed in and sent to the page again, so that every part of it (the header too) sees the session.
		const complete = await completion(sessionId, cookie)
		expect(complete.status).toBe(302)
		expect(complete.headers.get('Location')).toBe(`/registration-complete?session_id=${sessionId}`)
		const signedIn = await getSessionUser(new Request('http://localhost/', { headers: { Cookie: cookiesFrom(complete) } }))
		expect(signedIn?.id).toBe(user.id)
		expect(await (await completion(sessionId, cookiesFrom(complete))).json()).toMatchObject({ state: 'success', signedIn: true })
		expect(await t.db.selectFrom('registration_drafts').select('id').where('email', '=', email).execute()).toEqual([])

		// The page of a finished checkout goes straight to the completion page.
		const again = await checkoutPage(sessionId)
		expect(again.headers.get('Location')).toBe(`/registration-complete?session_id=${sessionId}`)
	})

	test('after the account exists its details are settled, and a new attempt answers with the checkout still open (docs/decisions/040)', async () => {
		const { cookie, email, sessionId } = await toCheckout()
		const back = (await (await load('/register', cookie)).json()) as { details: { accountCreated: boolean } }
		expect(back.details.accountCreated).toBe(true)
		expect((await post(details('other@example.com'), cookie)).headers.get('Location')).toBe('/register/course')

		const retry = await post({ intent: 'agree', agreeToTerms: 'on' }, cookie)
		expect(retry.status).toBe(303)
		expect(retry.headers.get('Location')).toBe(`/test-checkout/${sessionId}`)
		const payments = await t.db.selectFrom('registration_payments').select(['checkout_session_id', 'status']).execute()
		expect(payments.filter((payment) => payment.checkout_session_id === sessionId)).toEqual([
			{ checkout_session_id: sessionId, status: 'pending' },
		])
		expect(
			(await t.db.selectFrom('test_checkout_sessions').select('status').where('id', '=', sessionId).executeTakeFirstOrThrow()).status,
		).toBe('open')
		expect(await t.db.selectFrom('test_checkout_sessions').select('id').where('customer_email', '=', email).execute()).toHaveLength(1)
	})

	test('Cancel on the test checkout releases the seat and returns to the agreement', async () => {
		const { courseId, sessionId } = await toCheckout()
		const response = await checkoutPost(sessionId, { intent: 'cancel' })
		expect(response.headers.get('Location')).toBe('/register/agreement')
		expect(await t.db.selectFrom('seat_holds').select('id').where('course_id', '=', courseId).execute()).toEqual([])
	})

	test('the agreement a cancelled checkout returns to says the account exists and is not enrolled', async () => {
		const { cookie, email, sessionId } = await toCheckout()
		await checkoutPost(sessionId, { intent: 'cancel' })
		const page = (await (await load('/register/agreement', cookie)).json()) as { account: unknown }
		expect(page.account).toEqual({ email, checkoutOpenUntil: null })
	})

	test('a cancelled checkout can be started over with the same e-mail, in another browser, taking over the unfinished account', async () => {
		const { courseId, email, cookie: firstBrowser, sessionId } = await toCheckout()
		await checkoutPost(sessionId, { intent: 'cancel' })
		const account = await t.db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', email).executeTakeFirstOrThrow()
		await insertSession(t.db, { userId: account.id, id: 'old-session', expiresAt: new Date(Date.now() + 60_000) })
		const mailsBefore = await t.db.selectFrom('email_outbox').select('id').where('to_address', '=', email).execute()

		const restart = await post(details(email, { name: 'Rita Again' }))
		expect(restart.headers.get('Location')).toBe('/register/course')
		const cookie = cookiesFrom(restart)
		await post({ intent: 'course', courseId: String(courseId) }, cookie)
		const checkout = await post({ intent: 'agree', agreeToTerms: 'on' }, cookie)
		expect(checkout.status).toBe(303)

		const after = await t.db
			.selectFrom('users')
			.innerJoin('profiles', 'profiles.id', 'users.id')
			.select(['users.id', 'users.password_hash', 'profiles.name'])
			.where('users.email', '=', email)
			.execute()
		expect(after).toHaveLength(1)
		expect(after[0]).toMatchObject({ id: account.id, name: 'Rita Again' })
		expect(after[0]!.password_hash).not.toBe(account.password_hash)
		expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', account.id).execute()).toEqual([])
		expect(await t.db.selectFrom('email_outbox').select('id').where('to_address', '=', email).execute()).toHaveLength(
			mailsBefore.length + 1,
		)
		// The first browser's draft no longer leads to this account.
		expect((await load('/register/agreement', firstBrowser)).headers.get('Location')).toBe('/register')
	})

	test('an open checkout of the unfinished account is expired when another start takes it over', async () => {
		const { courseId, email, sessionId } = await toCheckout()
		const restart = await post(details(email))
		const cookie = cookiesFrom(restart)
		await post({ intent: 'course', courseId: String(courseId) }, cookie)
		expect((await post({ intent: 'agree', agreeToTerms: 'on' }, cookie)).status).toBe(303)
		const first = await t.db
			.selectFrom('registration_payments')
			.select('status')
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow()
		expect(first.status).toBe('expired')
	})

	test('an account that is confirmed, enrolled or paid is never started over', async () => {
		for (const change of ['confirmed', 'enrolled', 'paid'] as const) {
			const { courseId, email, sessionId } = await toCheckout()
			await checkoutPost(sessionId, { intent: 'cancel' })
			const user = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
			if (change === 'confirmed')
				await t.db.updateTable('users').set({ email_confirmed_at: new Date() }).where('id', '=', user.id).execute()
			if (change === 'enrolled') await insertEnrollment(t.db, { userId: user.id, courseId })
			// Paid when the seat was gone: the money waits for its refund, the account stays its payer's.
			if (change === 'paid')
				await t.db.updateTable('registration_payments').set({ status: 'needs_refund' }).where('user_id', '=', user.id).execute()
			const refused = await post(details(email))
			expect(refused.status).toBe(400)
			expect((await errorsOf(refused)).error).toEqual({ email: ['An account with this email already exists. Please log in instead.'] })
		}
	})

	test('Start Over drops the draft and its cookie, so step 1 is blank again', async () => {
		const { cookie, email } = await toCheckout()
		const response = await post({ intent: 'start-over' }, cookie)
		expect(response.headers.get('Location')).toBe('/register')
		expect(response.headers.get('Set-Cookie')).toMatch(/Max-Age=0/)
		expect(await t.db.selectFrom('registration_drafts').select('id').where('email', '=', email).execute()).toEqual([])
		expect(await (await load('/register', cookie)).json()).toEqual({ details: null })
	})

	test('the completion page without a usable session id shows the spec error', async () => {
		for (const path of ['/registration-complete', '/registration-complete?session_id=../../etc']) {
			const page = await settle(() => completionLoader({ request: getRequest(path), params: {}, context: {} } as never))
			expect(await page.json()).toEqual({
				state: 'error',
				message: 'Missing information required to complete registration.',
				pageToast: null,
			})
		}
		const unknown = await completion(`cs_test_${'0'.repeat(32)}`)
		expect(await unknown.json()).toEqual({
			state: 'error',
			message: 'Failed to verify your registration payment.',
			pageToast: { id: expect.any(String), type: 'error', title: 'Payment Verification Error', description: 'Failed to verify payment' },
		})
	})

	test('a verification that breaks shows the spec error and toast', async () => {
		const { sessionId } = await toCheckout()
		// The payment provider's store cannot be read, as in an outage.
		const page = await withTablesUnavailable(t.db, ['test_checkout_sessions'], async () => (await completion(sessionId)).json())
		expect(page).toEqual({
			state: 'error',
			message: 'An unexpected error occurred during registration.',
			pageToast: {
				id: expect.any(String),
				type: 'error',
				title: 'Verification Error',
				description: 'Failed to complete verification. Please try again.',
			},
		})
	})
})

describe('tampered course ids', () => {
	/** What exists for the person and the courses: accounts, enrolments, seat holds, payments. */
	async function footprint(email: string, courseIds: number[]) {
		const count = async (table: 'enrollments' | 'seat_holds' | 'registration_payments') =>
			(await t.db.selectFrom(table).select('course_id').where('course_id', 'in', courseIds).execute()).length
		return {
			accounts: (await t.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).execute()).length,
			enrollments: await count('enrollments'),
			seatHolds: await count('seat_holds'),
			payments: await count('registration_payments'),
		}
	}

	async function draftCourseOf(email: string) {
		const draft = await t.db
			.selectFrom('registration_drafts')
			.select('course_id')
			.where('email', '=', email.toLowerCase())
			.executeTakeFirstOrThrow()
		return draft.course_id
	}

	test('step 2 refuses a course that does not exist and ids that are not ones with 400 and the field message; step 3 then creates nothing', async () => {
		const gone = await course()
		await t.db.deleteFrom('courses').where('id', '=', gone.id).execute()
		const email = uniqueEmail()
		const cookie = cookiesFrom(await post(details(email)))
		const forged: Array<string | string[]> = [
			String(gone.id),
			'2147483647',
			'2147483648',
			'99999999999999999999',
			'-99999999999999999999',
			'abc',
			'1 OR 1=1',
			'-1',
			'0',
			'1.5',
			'NaN',
			'Infinity',
			'<script>alert(1)</script>',
			'',
			['1', '2'],
		]
		for (const courseId of forged) {
			const response = await post({ intent: 'course', courseId }, cookie)
			expect(response.status, JSON.stringify(courseId)).toBe(400)
			const { error } = await errorsOf(response)
			expect(Object.keys(error)).toEqual(['courseId'])
			// Once, even for an id past the safe-integer range, which breaks both the integer and the maximum rule.
			expect(error.courseId).toEqual(['Please select a course'])
		}
		expect(await draftCourseOf(email)).toBeNull()
		const agreed = await post({ intent: 'agree', agreeToTerms: 'on' }, cookie)
		expect(agreed.headers.get('Location')).toBe('/register/course')
		expect(await footprint(email, [gone.id])).toEqual({ accounts: 0, enrollments: 0, seatHolds: 0, payments: 0 })
	})

	test('step 2 sends a full course to the waitlist with the Course Full message and keeps no course; step 3 then creates nothing', async () => {
		const full = await course({ capacity: 1, registration_fee: 50_000 })
		await takeSeats(full.id, 1)
		const email = uniqueEmail()
		const cookie = cookiesFrom(await post(details(email)))
		const refused = await post({ intent: 'course', courseId: String(full.id) }, cookie)
		expect(refused.headers.get('Location')).toBe(`/register/course?full=${full.id}&dialog=waitlist`)
		expect(await toastOf(refused)).toMatchObject({ type: 'error', title: 'Course Full' })
		expect(await draftCourseOf(email)).toBeNull()
		expect((await post({ intent: 'agree', agreeToTerms: 'on' }, cookie)).headers.get('Location')).toBe('/register/course')
		expect(await footprint(email, [full.id])).toEqual({ accounts: 0, enrollments: 1, seatHolds: 0, payments: 0 })
	})

	test('a later step 2 with a course that does not exist or is full is refused and keeps the course chosen before', async () => {
		const chosen = await course()
		const full = await course({ capacity: 1 })
		await takeSeats(full.id, 1)
		const email = uniqueEmail()
		const cookie = await throughStepTwo(chosen.id, email)
		expect((await post({ intent: 'course', courseId: '2147483647' }, cookie)).status).toBe(400)
		expect((await post({ intent: 'course', courseId: 'abc' }, cookie)).status).toBe(400)
		expect((await post({ intent: 'course', courseId: String(full.id) }, cookie)).headers.get('Location')).toBe(
			`/register/course?full=${full.id}&dialog=waitlist`,
		)
		expect(await draftCourseOf(email)).toBe(chosen.id)
		expect((await post({ intent: 'agree', agreeToTerms: 'on' }, cookie)).headers.get('Location')).toBe('/dashboard')
		expect(await footprint(email, [chosen.id])).toEqual({ accounts: 1, enrollments: 1, seatHolds: 0, payments: 0 })
		expect(await footprint(email, [full.id])).toMatchObject({ enrollments: 1, seatHolds: 0, payments: 0 })
	})

	test('a course id slipped into the step 3 post is ignored: a free choice cannot become a paid or a full course', async () => {
		const free = await course()
		const paid = await course({ registration_fee: 250_000 })
		const full = await course({ capacity: 1 })
		await takeSeats(full.id, 1)
		for (const forged of [paid, full]) {
			const email = uniqueEmail()
			const cookie = await throughStepTwo(free.id, email)
			const response = await post({ intent: 'agree', agreeToTerms: 'on', courseId: String(forged.id) }, cookie)
			expect(response.headers.get('Location')).toBe('/dashboard')
			const user = await t.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow()
			const enrolled = await t.db.selectFrom('enrollments').select('course_id').where('user_id', '=', user.id).execute()
			expect(enrolled).toEqual([{ course_id: free.id }])
		}
		expect(await footprint('nobody@example.com', [paid.id])).toEqual({ accounts: 0, enrollments: 0, seatHolds: 0, payments: 0 })
		expect(await footprint('nobody@example.com', [full.id])).toMatchObject({ enrollments: 1, seatHolds: 0, payments: 0 })
	})

	test('a course id slipped into the step 3 post is ignored: a paid choice still goes to the checkout at its own price', async () => {
		const paid = await course({ registration_fee: 250_000 })
		const free = await course()
		const email = uniqueEmail()
		const cookie = await throughStepTwo(paid.id, email)
		const response = await post({ intent: 'agree', agreeToTerms: 'on', courseId: String(free.id) }, cookie)
		expect(response.status).toBe(303)
		const sessionId = response.headers.get('Location')!.split('/').pop()!
		const payment = await t.db
			.selectFrom('registration_payments')
			.select(['course_id', 'amount_cents'])
			.where('checkout_session_id', '=', sessionId)
			.executeTakeFirstOrThrow()
		expect(payment).toEqual({ course_id: paid.id, amount_cents: 250_000 })
		expect(await footprint(email, [paid.id])).toEqual({ accounts: 1, enrollments: 0, seatHolds: 1, payments: 1 })
		expect(await footprint(email, [free.id])).toEqual({ accounts: 1, enrollments: 0, seatHolds: 0, payments: 0 })
	})

	test('/courses/:id/enroll answers an id that is no course with 404 and a full course with the waitlist; a course id in the body is ignored', async () => {
		const free = await course()
		const paid = await course({ registration_fee: 250_000 })
		const full = await course({ capacity: 1 })
		await takeSeats(full.id, 1)
		const gone = await course()
		await t.db.deleteFrom('courses').where('id', '=', gone.id).execute()
		const email = uniqueEmail().toLowerCase()
		const student = await createUser(t.db, { email, name: 'Enrolling Student', passwordHash: 'x', confirmed: true })
		const cookie = await sessionCookieFor(student.id)
		const enroll = (id: string, fields: Record<string, string> = {}) =>
			settle(() =>
				enrollAction({
					request: formRequest(`/courses/${id}/enroll`, { intent: 'agree', agreeToTerms: 'on', ...fields }, { cookie }),
					params: { id },
					context: {},
				} as never),
			)

		for (const id of [String(gone.id), '2147483648', 'abc', '0', '-1', '1.5', '1 OR 1=1']) {
			expect((await enroll(id)).status, id).toBe(404)
		}
		const refused = await enroll(String(full.id))
		expect(refused.headers.get('Location')).toBe(`/courses/${full.id}?dialog=waitlist`)
		expect(await toastOf(refused)).toMatchObject({ type: 'error', title: 'Course Full' })
		expect(await t.db.selectFrom('enrollments').select('id').where('user_id', '=', student.id).execute()).toEqual([])
		expect(await t.db.selectFrom('seat_holds').select('id').where('user_id', '=', student.id).execute()).toEqual([])

		const enrolled = await enroll(String(free.id), { courseId: String(paid.id) })
		expect(enrolled.headers.get('Location')).toBe('/dashboard')
		expect(await t.db.selectFrom('enrollments').select('course_id').where('user_id', '=', student.id).execute()).toEqual([
			{ course_id: free.id },
		])
		expect(await footprint(email, [paid.id, gone.id])).toEqual({ accounts: 1, enrollments: 0, seatHolds: 0, payments: 0 })
	})
})
