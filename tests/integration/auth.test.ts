import { RouterContextProvider } from 'react-router'
import { beforeEach, describe, expect, test } from 'vitest'
import { issueToken } from '#app/models/accounts/auth-tokens.server.ts'
import { createUser } from '#app/models/accounts/users.server.ts'
import { action as confirmAction, loader as confirmLoader } from '#app/routes/auth/confirm-email.tsx'
import { action as forgotAction } from '#app/routes/auth/forgot-password.tsx'
import { action as loginAction, loader as loginLoader } from '#app/routes/auth/login.tsx'
import { action as logoutAction } from '#app/routes/auth/logout.ts'
import { action as resetAction, loader as resetLoader } from '#app/routes/auth/reset-password.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard/index.tsx'
import { action as settingsAction } from '#app/routes/dashboard/settings.tsx'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getSessionUser } from '#app/utils/session.server.ts'
import { getActionToast, getToast } from '#app/utils/toast.server.ts'
import { useTestDatabase, withTablesUnavailable } from '#tests/support/db.ts'
import { callRoute, cookiesFrom, formRequest, getRequest, sessionCookieFor, settle } from '#tests/support/requests.ts'

const t = useTestDatabase()
let sequence = 0
const PASSWORD = 'correct-horse-battery'

async function user(options: { confirmed?: boolean; role?: 'student' | 'admin' } = {}) {
	sequence += 1
	const email = `auth-${sequence}@example.com`
	const created = await createUser(t.db, {
		email,
		name: 'Auth Tester',
		password: PASSWORD,
		confirmed: options.confirmed ?? true,
		role: options.role,
	})
	return { id: created.id, email }
}

function login(email: string, password: string, extra: Record<string, string> = {}, ip = '198.51.100.7') {
	return callRoute(loginAction, formRequest('/login', { email, password, ...extra }, { ip }))
}

async function outboxFor(email: string) {
	return t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', email).orderBy('id', 'desc').execute()
}

/** The token of the mail's link (the mail also links the site itself). */
function tokenFrom(text: string) {
	return new URL(/https?:\/\/\S+\?token=\S+/.exec(text)![0]).searchParams.get('token')!
}

/** Calls an action with a request context of its own, returned with the answer. */
async function callWithContext(action: (args: never) => unknown, request: Request) {
	const context = new RouterContextProvider()
	const response = await settle(() => action({ request, params: {}, context, unstable_pattern: '' } as never))
	return { response, context }
}

beforeEach(async () => {
	await t.db.deleteFrom('rate_limits').execute()
})

describe('login', () => {
	test('a confirmed account logs in: a new session, a Login Successful toast, and a redirect to /dashboard', async () => {
		const account = await user()
		const response = await login(account.email, PASSWORD)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard')
		const cookie = cookiesFrom(response)
		const sessionUser = await getSessionUser(getRequest('/', { cookie }))
		expect(sessionUser?.id).toBe(account.id)
	})

	test('every login gets a new session id', async () => {
		const account = await user()
		const first = await getSessionUser(getRequest('/', { cookie: cookiesFrom(await login(account.email, PASSWORD)) }))
		const second = await getSessionUser(getRequest('/', { cookie: cookiesFrom(await login(account.email, PASSWORD)) }))
		expect(first?.sessionId).toBeTruthy()
		expect(first?.sessionId).not.toBe(second?.sessionId)
	})

	test('an unconfirmed account is refused with the confirmation notice', async () => {
		const account = await user({ confirmed: false })
		const response = await login(account.email, PASSWORD)
		expect(response.status).toBe(400)
		const body = await response.json()
		expect(body.result.error[''][0]).toBe(
			'Your email address has not been confirmed yet. Please check your inbox and click the confirmation link before logging in.',
		)
		expect(body.unconfirmedEmail).toBe(account.email)
		expect(JSON.stringify(body)).not.toContain(PASSWORD)
	})

	test('a wrong password is refused, and the password is never sent back', async () => {
		const account = await user()
		const response = await login(account.email, 'wrong-password-1')
		expect(response.status).toBe(400)
		const text = await response.text()
		expect(text).toContain('Invalid email or password')
		expect(text).not.toContain('wrong-password-1')
	})

	test('an empty password gets "Password is required"', async () => {
		const response = await login('someone@example.com', '')
		expect(response.status).toBe(400)
		expect((await response.json()).result.error.password).toEqual(['Password is required'])
	})

	test('five failures for an account from one address refuse it there for 15 minutes, even with the right password; elsewhere it signs in', async () => {
		const [account, classmate] = await Promise.all([user(), user()])
		for (let attempt = 0; attempt < 5; attempt += 1) {
			expect((await login(account.email, `wrong-${attempt}-password`, {}, '192.0.2.1')).status).toBe(400)
		}
		const refused = await login(account.email, PASSWORD, {}, '192.0.2.1')
		expect(refused.status).toBe(429)
		expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(14 * 60)
		expect(await refused.text()).toContain('Too many failed login attempts. Please wait 15 minutes before trying again.')
		// The same network, another account; the same account, another network.
		expect((await login(classmate.email, PASSWORD, {}, '192.0.2.1')).status).toBe(302)
		expect((await login(account.email, PASSWORD, {}, '192.0.2.2')).status).toBe(302)
	})

	test('a successful login ends the run of failures', async () => {
		const account = await user()
		for (let attempt = 0; attempt < 4; attempt += 1) expect((await login(account.email, 'wrong-password-1')).status).toBe(400)
		expect((await login(account.email, PASSWORD)).status).toBe(302)
		for (let attempt = 0; attempt < 4; attempt += 1) expect((await login(account.email, 'wrong-password-1')).status).toBe(400)
		expect((await login(account.email, PASSWORD)).status).toBe(302)
	})

	test('failures from many addresses refuse an account only in browsers it never signed in on, until a password reset', async () => {
		const account = await user()
		const ownBrowser = cookiesFrom(await login(account.email, PASSWORD, {}, '198.51.100.50'))
		expect(ownBrowser).toMatch(/trusted-device=/)
		for (let attempt = 0; attempt < 20; attempt += 1) {
			expect((await login(account.email, 'wrong-password-1', {}, `203.0.113.${attempt}`)).status).toBe(400)
		}
		const stranger = await login(account.email, PASSWORD, {}, '203.0.113.100')
		expect(stranger.status).toBe(429)
		expect(await stranger.text()).toContain('Too many failed login attempts for this account. Log in from a device you have used before')
		// The owner's browser, on whatever network, still gets in.
		const owner = await callRoute(
			loginAction,
			formRequest('/login', { email: account.email, password: PASSWORD }, { ip: '192.0.2.77', cookie: ownBrowser }),
		)
		expect(owner.status).toBe(302)
		// A password reset proves the mailbox: a new browser gets in again.
		const token = await issueToken(t.db, account.id, 'reset_password')
		const fields = { token, password: 'a-new-password-1', confirmPassword: 'a-new-password-1' }
		expect((await callRoute(resetAction, formRequest('/reset-password', fields))).status).toBe(302)
		expect((await login(account.email, 'a-new-password-1', {}, '203.0.113.101')).status).toBe(302)
	})

	test('a 64-character password works', async () => {
		sequence += 1
		const email = `long-${sequence}@example.com`
		const long = 'p'.repeat(64)
		await createUser(t.db, { email, name: 'Long Password', password: long, confirmed: true })
		expect((await login(email, long)).status).toBe(302)
	})

	test('redirectTo accepts same-site paths only', async () => {
		const account = await user()
		const inside = await login(account.email, PASSWORD, { redirectTo: '/dashboard/settings' })
		expect(inside.headers.get('Location')).toBe('/dashboard/settings')
		for (const target of ['https://evil.example', '//evil.example', '/\\evil.example']) {
			const outside = await login(account.email, PASSWORD, { redirectTo: target })
			expect(outside.headers.get('Location')).toBe('/dashboard')
		}
	})

	test('a signed-in visitor is sent on from /login', async () => {
		const account = await user()
		const cookie = await sessionCookieFor(account.id)
		const response = await callRoute(loginLoader, getRequest('/login?redirectTo=/dashboard/settings', { cookie }))
		expect(response.headers.get('Location')).toBe('/dashboard/settings')
		const evil = await callRoute(loginLoader, getRequest('/login?redirectTo=https://evil.example', { cookie }))
		expect(evil.headers.get('Location')).toBe('/dashboard')
	})
})

describe('logout', () => {
	test('deletes the session row: the old cookie no longer works', async () => {
		const account = await user()
		const cookie = await sessionCookieFor(account.id)
		expect(await getSessionUser(getRequest('/', { cookie }))).not.toBeNull()
		const response = await callRoute(logoutAction, formRequest('/logout', {}, { cookie }))
		expect(response.headers.get('Location')).toBe('/')
		expect(await getSessionUser(getRequest('/', { cookie }))).toBeNull()
	})
	test('when the session cannot be ended, the visitor stays signed in and is told so where they were', async () => {
		const account = await user()
		const cookie = await sessionCookieFor(account.id)
		const [fromDashboard, fromHeader] = await withTablesUnavailable(t.db, ['sessions'], async () => [
			await callRoute(logoutAction, formRequest('/logout', { from: 'dashboard' }, { cookie })),
			await callRoute(logoutAction, formRequest('/logout', { redirectTo: '/courses?x=1' }, { cookie })),
		])
		expect(fromDashboard.headers.get('Location')).toBe('/dashboard')
		expect(fromHeader.headers.get('Location')).toBe('/courses?x=1')
		const toastOf = async (response: Response) => (await getToast(getRequest('/', { cookie: cookiesFrom(response) }))).toast
		expect(await toastOf(fromDashboard)).toMatchObject({ type: 'error', title: 'Failed to log out. Please try again.' })
		expect(await toastOf(fromHeader)).toMatchObject({ type: 'error', title: 'Failed to log out completely. Please try again.' })
		expect(cookiesFrom(fromHeader)).not.toMatch(/session=/)
		expect(await getSessionUser(getRequest('/', { cookie }))).not.toBeNull()
	})
})

describe('session lifetime', () => {
	test('a session ends after 7 idle days or 30 days in all', async () => {
		const account = await user()
		const idle = await sessionCookieFor(account.id)
		const old = await sessionCookieFor(account.id)
		const [idleSession, oldSession] = await Promise.all([
			getSessionUser(getRequest('/', { cookie: idle })),
			getSessionUser(getRequest('/', { cookie: old })),
		])
		await t.db
			.updateTable('sessions')
			.set({ last_seen_at: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) })
			.where('id', '=', idleSession!.sessionId)
			.execute()
		await t.db
			.updateTable('sessions')
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where('id', '=', oldSession!.sessionId)
			.execute()
		expect(await getSessionUser(getRequest('/', { cookie: idle }))).toBeNull()
		expect(await getSessionUser(getRequest('/', { cookie: old }))).toBeNull()
		const left = await t.db.selectFrom('sessions').select('id').where('user_id', '=', account.id).execute()
		expect(left).toEqual([])
	})

	test('a forged or tampered cookie is ignored', async () => {
		expect(await getSessionUser(getRequest('/', { cookie: 'session=forged-value' }))).toBeNull()

		const account = await user()
		const cookie = await sessionCookieFor(account.id)
		// Verified once, the real header is remembered; look-alikes still go through the signature check.
		expect((await getSessionUser(getRequest('/', { cookie })))?.id).toBe(account.id)
		const [value, signature] = decodeURIComponent(cookie.slice('session='.length)).split('.') as [string, string]
		const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1)
		for (const tampered of [`${flip(value, 3)}.${signature}`, `${value}.${flip(signature, 3)}`, value]) {
			expect(await getSessionUser(getRequest('/', { cookie: `session=${encodeURIComponent(tampered)}` }))).toBeNull()
		}
		expect((await getSessionUser(getRequest('/', { cookie })))?.id).toBe(account.id)
	})
})

describe('guards', () => {
	test('a signed-out visitor is sent to /login with the page remembered', async () => {
		const response = await callRoute(dashboardLoader, getRequest('/dashboard'))
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard')
	})

	test('a student asking for an admin page is sent to /dashboard', async () => {
		const student = await user()
		const cookie = await sessionCookieFor(student.id)
		const response = await settle(() => requireAdmin(getRequest('/dashboard/admin/courses', { cookie })))
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard')
	})

	test('an announcement posted without a live session says whether the session ran out', async () => {
		const admin = await user({ role: 'admin' })
		const cookie = await sessionCookieFor(admin.id)
		await t.db.deleteFrom('sessions').where('user_id', '=', admin.id).execute()
		const post = (path: string, init: { cookie?: string } = {}) =>
			settle(() => requireAdmin(formRequest(path, { intent: 'announce', subject: 'Kickoff', message: 'Monday' }, init)))
		const toastOf = async (response: Response) => (await getToast(getRequest('/', { cookie: cookiesFrom(response) }))).toast?.title

		const expired = await post('/dashboard/admin/messages/broadcast.data', { cookie })
		expect(expired.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard%2Fadmin%2Fmessages%2Fbroadcast')
		expect(await toastOf(expired)).toBe('Your session has expired. Please log in again.')
		expect(await toastOf(await post('/dashboard/admin/messages/broadcast'))).toBe('You must be logged in to send announcements')
		expect(await toastOf(await post('/dashboard/admin/messages/direct', { cookie }))).toBe('You must be logged in to access this page')
	})
})

describe('e-mail confirmation', () => {
	test('opening the link changes nothing; the button confirms once', async () => {
		const account = await user({ confirmed: false })
		const token = await issueToken(t.db, account.id, 'confirm_email')
		const page = await callRoute(confirmLoader, getRequest(`/confirm-email?token=${token}`))
		expect((await page.json()).token).toBe(token)
		let row = await t.db.selectFrom('users').select('email_confirmed_at').where('id', '=', account.id).executeTakeFirstOrThrow()
		expect(row.email_confirmed_at).toBeNull()

		const confirmed = await callRoute(confirmAction, formRequest('/confirm-email', { token }))
		expect(confirmed.headers.get('Location')).toBe('/login?notice=email-confirmed')
		row = await t.db.selectFrom('users').select('email_confirmed_at').where('id', '=', account.id).executeTakeFirstOrThrow()
		expect(row.email_confirmed_at).not.toBeNull()
		expect((await callRoute(confirmAction, formRequest('/confirm-email', { token }))).status).toBe(400)
		expect((await login(account.email, PASSWORD)).status).toBe(302)
	})
})

describe('password reset', () => {
	test('answers the same for unknown addresses and mails known ones', async () => {
		const account = await user()
		const known = await callRoute(forgotAction, formRequest('/forgot-password', { email: account.email }))
		const unknown = await callRoute(forgotAction, formRequest('/forgot-password', { email: 'nobody-here@example.com' }))
		expect(known.status).toBe(302)
		expect(unknown.status).toBe(302)
		expect(known.headers.get('Location')).toBe(unknown.headers.get('Location'))
		expect(await outboxFor(account.email)).toHaveLength(1)
		expect(await outboxFor('nobody-here@example.com')).toHaveLength(0)
	})

	test('when the e-mail cannot be queued, the form says so and nothing is kept', async () => {
		const account = await user()
		const { response, context } = await withTablesUnavailable(t.db, ['email_outbox'], () =>
			callWithContext(forgotAction, formRequest('/forgot-password', { email: account.email })),
		)
		expect(response.status).toBe(503)
		expect(await response.text()).toContain('Failed to send reset email. Please try again.')
		expect(getActionToast(context)?.toast).toMatchObject({ type: 'error', title: 'Failed to send reset email' })
		expect(await t.db.selectFrom('auth_tokens').select('id').where('user_id', '=', account.id).execute()).toEqual([])
		expect(await outboxFor(account.email)).toEqual([])
	})

	test('a fourth request within the hour is refused with 429', async () => {
		const account = await user()
		for (let attempt = 0; attempt < 3; attempt += 1) {
			expect((await callRoute(forgotAction, formRequest('/forgot-password', { email: account.email }))).status).toBe(302)
		}
		const limited = await callRoute(forgotAction, formRequest('/forgot-password', { email: account.email }))
		expect(limited.status).toBe(429)
		expect(await limited.text()).toContain('Too many password reset requests. Please wait a few minutes before trying again.')
	})

	test('the mailed link resets the password once, ends every session, and the old password stops working', async () => {
		const account = await user()
		const otherBrowser = await sessionCookieFor(account.id)
		await callRoute(forgotAction, formRequest('/forgot-password', { email: account.email }))
		const [mail] = await outboxFor(account.email)
		const token = tokenFrom(mail!.text_body)
		expect((await (await callRoute(resetLoader, getRequest(`/reset-password?token=${token}`))).json()).status).toBe('valid')

		const mismatch = await callRoute(
			resetAction,
			formRequest('/reset-password', { token, password: 'new-password-1', confirmPassword: 'other' }),
		)
		expect((await mismatch.json()).result.error.confirmPassword).toEqual(["Passwords don't match"])
		const short = await callRoute(resetAction, formRequest('/reset-password', { token, password: 'short', confirmPassword: 'short' }))
		expect((await short.json()).result.error.password).toEqual(['Password must be at least 8 characters'])

		const done = await callRoute(
			resetAction,
			formRequest('/reset-password', { token, password: 'new-password-1', confirmPassword: 'new-password-1' }),
		)
		expect(done.headers.get('Location')).toBe('/login?notice=password-updated')
		expect(await getSessionUser(getRequest('/', { cookie: otherBrowser }))).toBeNull()
		expect((await login(account.email, PASSWORD)).status).toBe(400)
		expect((await login(account.email, 'new-password-1')).status).toBe(302)

		const again = await callRoute(
			resetAction,
			formRequest('/reset-password', { token, password: 'another-pass-2', confirmPassword: 'another-pass-2' }),
		)
		expect(again.status).toBe(400)
		expect(await again.text()).toContain('Invalid session. Please request a new password reset.')
	})

	test('a database fault is reported, and a reset that failed leaves the link usable', async () => {
		const account = await user()
		const token = await issueToken(t.db, account.id, 'reset_password')
		const page = await withTablesUnavailable(t.db, ['auth_tokens'], async () =>
			(await callRoute(resetLoader, getRequest(`/reset-password?token=${token}`))).json(),
		)
		expect(page).toMatchObject({ status: 'invalid', error: 'Failed to validate reset session. Please request a new password reset.' })

		const fields = { token, password: 'new-password-1', confirmPassword: 'new-password-1' }
		const failed = await withTablesUnavailable(t.db, ['sessions'], () => callRoute(resetAction, formRequest('/reset-password', fields)))
		expect(failed.status).toBe(503)
		expect(await failed.text()).toContain('An unexpected error occurred. Please try again.')
		expect((await login(account.email, PASSWORD)).status).toBe(302)

		const retried = await callRoute(resetAction, formRequest('/reset-password', fields))
		expect(retried.headers.get('Location')).toBe('/login?notice=password-updated')
		expect((await login(account.email, 'new-password-1')).status).toBe(302)
	})

	test('an expired or missing token shows the matching message', async () => {
		const account = await user()
		const token = await issueToken(t.db, account.id, 'reset_password')
		await t.db
			.updateTable('auth_tokens')
			.set({ expires_at: new Date(Date.now() - 1000) })
			.where('user_id', '=', account.id)
			.execute()
		const expired = await (await callRoute(resetLoader, getRequest(`/reset-password?token=${token}`))).json()
		expect(expired.error).toBe('Your session has expired. Please request a new password reset.')
		const missing = await (await callRoute(resetLoader, getRequest('/reset-password'))).json()
		expect(missing.error).toBe('Missing authentication information. Please request a new password reset.')
		const invalid = await (await callRoute(resetLoader, getRequest('/reset-password?token=nonsense'))).json()
		expect(invalid.error).toBe('Invalid session. Please request a new password reset.')
	})
})

describe('settings', () => {
	test('updates the display name', async () => {
		const account = await user()
		const cookie = await sessionCookieFor(account.id)
		const response = await callRoute(
			settingsAction,
			formRequest('/dashboard/settings', { intent: 'update-profile', name: 'New Name' }, { cookie }),
		)
		expect(response.status).toBe(302)
		const profile = await t.db.selectFrom('profiles').select('name').where('id', '=', account.id).executeTakeFirstOrThrow()
		expect(profile.name).toBe('New Name')
	})

	test('a refused change answers with the spec toast', async () => {
		const account = await user()
		const cookie = await sessionCookieFor(account.id)
		const toastFor = async (fields: Record<string, string>) => {
			const { response, context } = await callWithContext(settingsAction, formRequest('/dashboard/settings', fields, { cookie }))
			expect(response.status).toBe(400)
			return getActionToast(context)?.toast.title
		}
		expect(await toastFor({ intent: 'update-profile', name: '' })).toBe('Update Failed')
		const password = { currentPassword: 'not-it-at-all', newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' }
		expect(await toastFor({ intent: 'change-password', ...password })).toBe('Password Change Failed')
	})

	test('changing the password checks the current one and the confirmation, then ends the other sessions only', async () => {
		const account = await user()
		const here = await sessionCookieFor(account.id)
		const elsewhere = await sessionCookieFor(account.id)
		const change = (fields: Record<string, string>) =>
			callRoute(settingsAction, formRequest('/dashboard/settings', { intent: 'change-password', ...fields }, { cookie: here }))

		const wrong = await change({ currentPassword: 'not-it-at-all', newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' })
		expect((await wrong.json()).result.error.currentPassword).toEqual(['Current password is incorrect'])
		const mismatch = await change({ currentPassword: PASSWORD, newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pasS' })
		expect((await mismatch.json()).result.error.confirmPassword).toEqual(['New password and confirmation do not match.'])
		const short = await change({ currentPassword: PASSWORD, newPassword: 'short', confirmPassword: 'short' })
		expect((await short.json()).result.error.newPassword).toEqual(['Password must be at least 8 characters long.'])

		const done = await change({ currentPassword: PASSWORD, newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' })
		expect(done.status).toBe(302)
		expect(await getSessionUser(getRequest('/', { cookie: here }))).not.toBeNull()
		expect(await getSessionUser(getRequest('/', { cookie: elsewhere }))).toBeNull()
		expect((await login(account.email, 'brand-new-pass')).status).toBe(302)
	})
})

describe('client-side requests', () => {
	test('a data request is sent to /login remembering the page, not the data URL', async () => {
		const response = await callRoute(dashboardLoader, getRequest('/dashboard/settings.data?_routes=routes%2Fdashboard%2Fsettings'))
		expect(response.headers.get('Location')).toBe('/login?redirectTo=%2Fdashboard%2Fsettings')
	})
})
