/**
 * Every rate limit under requests that arrive together: dozens to hundreds of requests at once
 * against a production server of this spec's own (tests/support/private-server.ts), which trusts one
 * proxy hop, so `X-Forwarded-For` chooses each request's client address. The numbers are the
 * README's Security table and docs/decisions/020-login-limits.md.
 */
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import type { PrivateServer } from '#tests/support/private-server.ts'
import { expect, test } from '../support/e2e.ts'
import { type PrivateServerWithDatabase, startServerWithDatabase } from '../support/private-server-database.ts'

const { createSession } = await import('#app/utils/session.server.ts')
const { hashPassword } = await import('#app/utils/password.server.ts')
const { createUser } = await import('#app/models/accounts/users.server.ts')

const PASSWORD = 'the-right-password-1'

type Answer = { status: number; location: string | null; cookie: string; text: string }

test.describe('limits hold for requests that arrive together', () => {
	test.describe.configure({ mode: 'serial' })
	let server: PrivateServer
	let db: Kysely<Database>
	let stopServer: PrivateServerWithDatabase['stop'] | undefined
	let passwordHash: string
	let sequence = 0

	test.beforeAll(async () => {
		test.setTimeout(120_000)
		;({ server, db, stop: stopServer } = await startServerWithDatabase())
		passwordHash = await hashPassword(PASSWORD)
	})

	test.afterAll(async () => {
		await stopServer?.()
	})

	/** A student who can log in with PASSWORD (one hash made once, shared by every account here). */
	async function student({ confirmed = true } = {}) {
		sequence += 1
		const email = `limits-${sequence}@example.com`
		const user = await createUser(db, { email, name: `Student ${sequence}`, passwordHash, confirmed })
		return { id: user.id, email }
	}

	async function send(
		path: string,
		{ body, ip, cookie, method = 'POST' }: { body?: BodyInit; ip: string; cookie?: string; method?: string },
	): Promise<Answer> {
		const response = await fetch(`${server.url}${path}`, {
			method,
			body,
			redirect: 'manual',
			headers: { Origin: server.url, 'X-Forwarded-For': ip, ...(cookie ? { Cookie: cookie } : {}) },
		})
		const setCookies = response.headers.getSetCookie().map((setCookie) => setCookie.split(';')[0]!)
		return {
			status: response.status,
			location: response.headers.get('Location'),
			cookie: setCookies.join('; '),
			text: await response.text(),
		}
	}

	const post = (path: string, fields: Record<string, string>, init: { ip: string; cookie?: string }) =>
		send(path, { ...init, body: new URLSearchParams(fields) })

	const login = (email: string, password: string, ip: string, cookie?: string) => post('/login', { email, password }, { ip, cookie })

	/** How many answers had each status, e.g. { 302: 5, 429: 25 }. */
	function tally(answers: Answer[]) {
		const counts: Record<number, number> = {}
		for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1
		return counts
	}

	/** Login answers that checked a password: a sign-in (302) or 'Invalid email or password' (400). */
	const checked = (answers: Answer[]) => answers.filter((answer) => answer.status !== 429).length

	async function count(table: 'contact_submissions' | 'registration_drafts' | 'users' | 'messages', where?: [string, string]) {
		let query = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'))
		// biome-ignore lint/suspicious/noExplicitAny: one column filter over several tables
		if (where) query = query.where(where[0] as any, '=', where[1])
		return Number((await query.executeTakeFirstOrThrow()).n)
	}

	const mailsTo = async (email: string) =>
		Number(
			(
				await db
					.selectFrom('email_outbox')
					.select((eb) => eb.fn.countAll<number>().as('n'))
					.where('to_address', '=', email)
					.executeTakeFirstOrThrow()
			).n,
		)

	test('60 login attempts at once from one address, the right password 45th, check at most 5 passwords', async () => {
		const target = await student()
		const answers = await Promise.all(
			Array.from({ length: 60 }, (_, index) => login(target.email, index === 44 ? PASSWORD : `wrong-password-${index}`, '198.51.100.10')),
		)
		expect(answers.filter((answer) => answer.status >= 500)).toEqual([])
		expect(checked(answers)).toBeLessThanOrEqual(5)
		expect(tally(answers)[429]).toBeGreaterThanOrEqual(55)
		// Every refusal, even one counted while the block was starting, names the block's 15 minutes.
		for (const refused of answers.filter((answer) => answer.status === 429)) {
			expect(refused.text).toContain('Too many failed login attempts. Please wait 15 minutes before trying again.')
		}
	})

	test('300 wrong passwords at once from one address check exactly 5', async () => {
		const target = await student()
		const answers = await Promise.all(Array.from({ length: 300 }, (_, index) => login(target.email, `wrong-${index}`, '198.51.100.11')))
		expect(tally(answers)).toEqual({ 400: 5, 429: 295 })
	})

	test('a guesser spread over 300 addresses gets 20 checks on the account a day; the owner, in a browser they signed in on, still gets in', async () => {
		const owner = await student()
		const ownBrowser = await login(owner.email, PASSWORD, '192.0.2.10')
		expect(ownBrowser.status).toBe(302)
		expect(ownBrowser.cookie).toMatch(/trusted-device=/)
		const trustedDevice = ownBrowser.cookie
			.split('; ')
			.filter((pair) => pair.startsWith('trusted-device='))
			.join('; ')

		const guesses = await Promise.all(
			Array.from({ length: 300 }, (_, index) => login(owner.email, `guess-${index}`, `198.18.${Math.floor(index / 250)}.${index % 250}`)),
		)
		expect(tally(guesses)).toEqual({ 400: 20, 429: 280 })
		expect(guesses.find((answer) => answer.status === 429)!.text).toContain(
			'Too many failed login attempts for this account. Log in from a device you have used before, reset your password, or try again in',
		)
		// Even the right password, from a browser the account never signed in on, is refused today...
		expect((await login(owner.email, PASSWORD, '198.18.9.9')).status).toBe(429)
		// ...while the owner's own browser, on any network, signs in.
		const owners = await login(owner.email, PASSWORD, '203.0.113.200', trustedDevice)
		expect(owners.status).toBe(302)
		expect(owners.location).toBe('/dashboard')
	})

	test("30 classmates behind one address all sign in at once after one classmate's typos", async () => {
		const classmates = await Promise.all(Array.from({ length: 31 }, () => student()))
		const [clumsy, ...others] = classmates
		const typos = await Promise.all(Array.from({ length: 10 }, (_, index) => login(clumsy!.email, `typo-${index}`, '192.0.2.50')))
		expect(tally(typos)).toEqual({ 400: 5, 429: 5 })
		const signIns = await Promise.all(others.map((classmate) => login(classmate.email, PASSWORD, '192.0.2.50')))
		expect(tally(signIns)).toEqual({ 302: 30 })
	})

	test('one address gets 100 failed password checks a day, whatever the accounts', async () => {
		const answers = await Promise.all(
			Array.from({ length: 150 }, (_, index) => login(`nobody-${index}@example.com`, 'wrong-password-1', '192.0.2.99')),
		)
		expect(tally(answers)).toEqual({ 400: 100, 429: 50 })
		const someone = await student()
		const refused = await login(someone.email, PASSWORD, '192.0.2.99')
		expect(refused.status).toBe(429)
		expect(refused.text).toContain('Too many failed login attempts from your network. Please try again in')
		expect((await login(someone.email, PASSWORD, '192.0.2.100')).status).toBe(302)
	})

	test('contact: 30 messages at once from one address store 5', async () => {
		const answers = await Promise.all(
			Array.from({ length: 30 }, (_, index) =>
				post('/contact', { name: 'Flooder', email: `flood-${index}@example.com`, message: 'Again' }, { ip: '203.0.113.30' }),
			),
		)
		expect(tally(answers)).toEqual({ 302: 5, 429: 25 })
		expect(await count('contact_submissions', ['name', 'Flooder'])).toBe(5)
	})

	test('waitlist: 30 requests at once from one address store 5', async () => {
		const answers = await Promise.all(
			Array.from({ length: 30 }, (_, index) =>
				post('/waitlist', { name: 'Queue Jumper', email: `queue-${index}@example.com` }, { ip: '203.0.113.31' }),
			),
		)
		expect(tally(answers)).toEqual({ 302: 5, 429: 25 })
		expect(await count('contact_submissions', ['name', 'Queue Jumper'])).toBe(5)
	})

	const details = (email: string) => ({ intent: 'details', name: 'Rita Registrant', email, password: PASSWORD, confirmPassword: PASSWORD })

	test('registration step 1: 40 valid submissions at once from one address keep 30 drafts', async () => {
		const answers = await Promise.all(
			Array.from({ length: 40 }, (_, index) => post('/register', details(`burst-${index}@example.com`), { ip: '203.0.113.32' })),
		)
		expect(tally(answers)).toEqual({ 302: 30, 429: 10 })
		expect(await count('registration_drafts', ['name', 'Rita Registrant'])).toBe(30)
	})

	test('registration step 3: 15 accounts at once from one address create 10', async () => {
		const course = await db
			.insertInto('courses')
			.values({ title: 'Free limits course', capacity: 100 })
			.returning('id')
			.executeTakeFirstOrThrow()
		// Fifteen drafts made from fifteen addresses, each through steps 1 and 2.
		const drafts = await Promise.all(
			Array.from({ length: 15 }, async (_, index) => {
				const first = await post(
					'/register',
					{ ...details(`account-${index}@example.com`), name: 'Account Burst' },
					{ ip: `192.0.2.${150 + index}` },
				)
				expect(first.status).toBe(302)
				const second = await post(
					'/register/course',
					{ intent: 'course', courseId: String(course.id) },
					{ ip: `192.0.2.${150 + index}`, cookie: first.cookie },
				)
				expect(second.location).toBe('/register/agreement')
				return first.cookie
			}),
		)
		const answers = await Promise.all(
			drafts.map((cookie) => post('/register/agreement', { intent: 'agree', agreeToTerms: 'on' }, { ip: '203.0.113.33', cookie })),
		)
		expect(tally(answers)).toEqual({ 302: 10, 429: 5 })
		expect(
			Number(
				(
					await db
						.selectFrom('users')
						.select((eb) => eb.fn.countAll<number>().as('n'))
						.where('email', 'like', 'account-%@example.com')
						.executeTakeFirstOrThrow()
				).n,
			),
		).toBe(10)
	})

	test('password reset: 20 requests at once for one account send 3 mails', async () => {
		const account = await student()
		const answers = await Promise.all(
			Array.from({ length: 20 }, (_, index) => post('/forgot-password', { email: account.email }, { ip: `192.0.2.${index}` })),
		)
		expect(tally(answers)).toEqual({ 302: 3, 429: 17 })
		expect(await mailsTo(account.email)).toBe(3)
	})

	test('confirmation mail: 20 requests at once for one account send 3 mails', async () => {
		const account = await student({ confirmed: false })
		const answers = await Promise.all(
			Array.from({ length: 20 }, (_, index) => post('/resend-confirmation', { email: account.email }, { ip: `192.0.2.${index}` })),
		)
		expect(answers.filter((answer) => answer.status === 429)).toHaveLength(17)
		expect(await mailsTo(account.email)).toBe(3)
	})

	test('messages: 80 sends at once by one student store 60', async () => {
		const [sender, admin] = [
			await student(),
			await createUser(db, { email: 'limits-admin@example.com', name: 'Admin', passwordHash, role: 'admin', confirmed: true }),
		]
		const cookie = (await createSession(db, sender.id)).setCookie.split(';')[0]!
		const answers = await Promise.all(
			Array.from({ length: 80 }, (_, index) => {
				const body = new FormData()
				body.set('intent', 'send')
				body.set('receiverId', admin.id)
				body.set('content', `Message ${index}`)
				return send('/dashboard/messages', { body, ip: '203.0.113.34', cookie })
			}),
		)
		expect(answers.filter((answer) => answer.status === 429)).toHaveLength(20)
		expect(answers.filter((answer) => answer.status >= 500)).toEqual([])
		expect(await count('messages', ['sender_id', sender.id])).toBe(60)
	})

	test('live events: 50 streams opened at once from one visitor address get 20', async () => {
		const controllers: AbortController[] = []
		const statuses = await Promise.all(
			Array.from({ length: 50 }, async () => {
				const controller = new AbortController()
				controllers.push(controller)
				const response = await fetch(`${server.url}/events`, { signal: controller.signal, headers: { 'X-Forwarded-For': '203.0.113.35' } })
				return response.status
			}),
		)
		for (const controller of controllers) controller.abort()
		expect(statuses.filter((status) => status === 200)).toHaveLength(20)
		expect(statuses.filter((status) => status === 429)).toHaveLength(30)
	})
})
