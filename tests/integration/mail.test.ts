import { setTimeout as sleep } from 'node:timers/promises'
import { type Kysely, sql } from 'kysely'
import { simpleParser } from 'mailparser'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { sendConfirmationEmail } from '#app/models/accounts/account-emails.server.ts'
import { createUser } from '#app/models/accounts/users.server.ts'
import { loader as mailboxLoader } from '#app/routes/resources/mailbox.tsx'
import { loader as mailboxHtmlLoader } from '#app/routes/resources/mailbox-html.ts'
import { enqueueMail, isMailboxAvailable } from '#app/services/mail/index.server.ts'
import type { MailTransport, OutgoingMail } from '#app/services/mail/mail.ts'
import { MailboxTransport } from '#app/services/mail/mailbox.server.ts'
import { deliverPendingMail, MAX_ATTEMPTS, retryDelaySeconds } from '#app/services/mail/outbox.server.ts'
import { SmtpTransport } from '#app/services/mail/smtp.server.ts'
import { parseEnv, resetEnvCache } from '#app/utils/env.server.ts'
import type { Database } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { callRoute, getRequest, sessionCookieFor } from '#tests/support/requests.ts'
import { useSmtpServer } from '#tests/support/smtp-stand-in.ts'

const t = useTestDatabase()
const FROM = 'Real Estate Mentorship <no-reply@example.com>'
const smtp = useSmtpServer()

beforeEach(async () => {
	await t.db.deleteFrom('email_outbox').execute()
	smtp.messages.length = 0
})

function outboxRow(db: Kysely<Database>, id: number) {
	return db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

const welcome: OutgoingMail = {
	to: 'student@example.com',
	subject: 'Confirm your email',
	text: 'Welcome! Confirm your address: http://localhost:3000/confirm?token=abc123',
}

/** A transport that records what it was asked to send, optionally slowly or failing. */
function recordingTransport({ delayMs = 0, error }: { delayMs?: number; error?: string } = {}) {
	const sent: string[] = []
	const transport: MailTransport = {
		kind: 'smtp',
		async send(mail) {
			await sleep(delayMs)
			if (error) throw new Error(error)
			sent.push(mail.subject)
		},
		async check() {},
	}
	return { transport, sent }
}

describe('delivery over SMTP', () => {
	test('a queued mail reaches the SMTP server and its row is marked sent', async () => {
		const id = await enqueueMail(t.db, { ...welcome, html: '<p>Welcome!</p>' })
		expect(await outboxRow(t.db, id)).toMatchObject({ status: 'pending', attempts: 0, sent_at: null })

		const transport = new SmtpTransport(smtp.url)
		await transport.check()
		expect(await deliverPendingMail(t.db, transport, FROM)).toEqual({ sent: 1, retried: 0, failed: 0 })

		expect(await outboxRow(t.db, id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null, sent_at: expect.any(Date) })
		expect(smtp.messages).toHaveLength(1)
		const [message] = smtp.messages
		expect(message).toMatchObject({ from: 'no-reply@example.com', to: ['student@example.com'], subject: 'Confirm your email' })
		expect(message!.raw).toContain('http://localhost:3000/confirm?token=abc123')
		expect(message!.raw).toContain('<p>Welcome!</p>')

		expect(await deliverPendingMail(t.db, transport, FROM)).toEqual({ sent: 0, retried: 0, failed: 0 })
		expect(smtp.messages).toHaveLength(1)
	})

	test('a mail goes out as multipart/alternative (text and HTML) with its extra headers and attachment', async () => {
		const calendar = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n'
		await enqueueMail(t.db, {
			to: 'student@example.com',
			subject: 'Week 2 moved',
			text: 'Week 2 is on Thursday. Unsubscribe: https://school.example/unsubscribe?token=t1',
			html: '<p>Week 2 is on <strong>Thursday</strong>.</p>',
			headers: {
				'List-Unsubscribe': '<https://school.example/unsubscribe?token=t1>',
				'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
			},
			attachments: [{ filename: 'course.ics', contentType: 'text/calendar; charset=utf-8', content: calendar }],
		})
		expect(await deliverPendingMail(t.db, new SmtpTransport(smtp.url), FROM)).toEqual({ sent: 1, retried: 0, failed: 0 })

		const [message] = smtp.messages
		expect(message!.raw).toMatch(/Content-Type: multipart\/mixed/)
		expect(message!.raw).toMatch(/Content-Type: multipart\/alternative/)
		const parsed = await simpleParser(message!.raw)
		expect(parsed.subject).toBe('Week 2 moved')
		expect(parsed.text?.trim()).toBe('Week 2 is on Thursday. Unsubscribe: https://school.example/unsubscribe?token=t1')
		expect(parsed.html).toBe('<p>Week 2 is on <strong>Thursday</strong>.</p>')
		expect(message!.raw).toMatch(/^List-Unsubscribe: <https:\/\/school\.example\/unsubscribe\?token=t1>\r$/m)
		expect(message!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m)
		expect(parsed.attachments).toHaveLength(1)
		expect(parsed.attachments[0]).toMatchObject({ filename: 'course.ics', contentType: 'text/calendar' })
		expect(parsed.attachments[0]!.content.toString('utf8')).toBe(calendar)
	})

	test('a templated mail (the confirmation) arrives with both parts, the same link in each', async () => {
		const user = await createUser(t.db, { email: 'ada-smtp@example.com', name: 'Ada', passwordHash: 'x' })
		await t.db.transaction().execute((trx) => sendConfirmationEmail(trx, { id: user.id, email: user.email, name: 'Ada' }))
		await deliverPendingMail(t.db, new SmtpTransport(smtp.url), FROM)

		const parsed = await simpleParser(smtp.messages[0]!.raw)
		expect(smtp.messages[0]!.raw).toMatch(/Content-Type: multipart\/alternative/)
		const textLink = /(http\S+\/confirm-email\?token=\S+)/.exec(parsed.text ?? '')?.[1]
		expect(textLink).toBeTruthy()
		expect(parsed.html).toContain(`href="${textLink}"`)
		expect(parsed.html).toContain('Real Estate Mentorship')
		expect(parsed.text).toContain('Hi Ada,')
	})

	test('while the SMTP server is down the mail stays pending, and goes out once it is back', async () => {
		const transport = new SmtpTransport(smtp.url)
		await smtp.stop()
		try {
			await expect(transport.check()).rejects.toThrow()
			const id = await enqueueMail(t.db, welcome)
			const before = Date.now()

			expect(await deliverPendingMail(t.db, transport, FROM)).toEqual({ sent: 0, retried: 1, failed: 0 })
			const row = await outboxRow(t.db, id)
			expect(row).toMatchObject({ status: 'pending', attempts: 1, sent_at: null })
			expect(row.last_error).toBeTruthy()
			expect(row.next_attempt_at.getTime()).toBeGreaterThan(before + (retryDelaySeconds(1) - 5) * 1000)

			// Not due yet: nothing is tried again.
			expect(await deliverPendingMail(t.db, transport, FROM)).toEqual({ sent: 0, retried: 0, failed: 0 })
			expect((await outboxRow(t.db, id)).attempts).toBe(1)
		} finally {
			await smtp.start()
		}

		// Time passes: the retry is due.
		await t.db.updateTable('email_outbox').set({ next_attempt_at: sql<Date>`now()` }).execute()
		expect(await deliverPendingMail(t.db, transport, FROM)).toEqual({ sent: 1, retried: 0, failed: 0 })
		const [row] = await t.db.selectFrom('email_outbox').selectAll().execute()
		expect(row).toMatchObject({ status: 'sent', attempts: 2, last_error: null })
		expect(smtp.messages.map((message) => message.subject)).toEqual(['Confirm your email'])
	})
})

describe('the outbox', () => {
	test('backs off exponentially', () => {
		expect([1, 2, 3, 4, 7].map(retryDelaySeconds)).toEqual([60, 120, 240, 480, 3840])
	})

	test(`marks a mail failed after ${MAX_ATTEMPTS} attempts`, async () => {
		const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
		const id = await enqueueMail(t.db, welcome)
		await t.db
			.updateTable('email_outbox')
			.set({ attempts: MAX_ATTEMPTS - 1 })
			.where('id', '=', id)
			.execute()
		const { transport } = recordingTransport({ error: 'mailbox unavailable' })

		expect(await deliverPendingMail(t.db, transport, FROM)).toEqual({ sent: 0, retried: 0, failed: 1 })
		expect(await outboxRow(t.db, id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_error: 'mailbox unavailable' })
		expect(consoleError).toHaveBeenCalledOnce()

		await t.db.updateTable('email_outbox').set({ next_attempt_at: sql<Date>`now()` }).execute()
		expect(await deliverPendingMail(t.db, transport, FROM)).toEqual({ sent: 0, retried: 0, failed: 0 })
	})

	test('sends due mails oldest first, at most a batch per run', async () => {
		for (const subject of ['one', 'two', 'three']) await enqueueMail(t.db, { ...welcome, subject })
		const { transport, sent } = recordingTransport()
		expect(await deliverPendingMail(t.db, transport, FROM, { batchSize: 2 })).toEqual({ sent: 2, retried: 0, failed: 0 })
		expect(sent).toEqual(['one', 'two'])
		expect(await deliverPendingMail(t.db, transport, FROM, { batchSize: 2 })).toEqual({ sent: 1, retried: 0, failed: 0 })
		expect(sent).toEqual(['one', 'two', 'three'])
	})

	test('concurrent workers never send the same mail twice', async () => {
		const subjects = Array.from({ length: 12 }, (_, index) => `mail ${index}`)
		for (const subject of subjects) await enqueueMail(t.db, { ...welcome, subject })
		const { transport, sent } = recordingTransport({ delayMs: 15 })

		const results = await Promise.all([1, 2, 3].map(() => deliverPendingMail(t.db, transport, FROM)))

		expect(results.reduce((total, counts) => total + counts.sent, 0)).toBe(subjects.length)
		expect(results.filter((counts) => counts.sent > 0).length).toBeGreaterThan(1)
		expect([...sent].sort()).toEqual([...subjects].sort())
		const statuses = await t.db.selectFrom('email_outbox').select('status').distinct().execute()
		expect(statuses).toEqual([{ status: 'sent' }])
	})

	test('the mailbox transport marks mails sent without sending anything', async () => {
		const id = await enqueueMail(t.db, welcome)
		const transport = new MailboxTransport()
		await transport.check()
		expect(await deliverPendingMail(t.db, transport, FROM)).toEqual({ sent: 1, retried: 0, failed: 0 })
		expect(await outboxRow(t.db, id)).toMatchObject({ status: 'sent', sent_at: expect.any(Date) })
		expect(smtp.messages).toEqual([])
	})
})

describe('the /dev/mailbox page', () => {
	const savedEnv = { ...process.env }

	afterEach(() => {
		process.env = { ...savedEnv }
		resetEnvCache()
	})

	function setEnv(values: Record<string, string | undefined>) {
		for (const [name, value] of Object.entries(values)) {
			if (value === undefined) delete process.env[name]
			else process.env[name] = value
		}
		resetEnvCache()
	}

	async function loadMailbox(query = '', cookie?: string) {
		const request = new Request(`http://localhost/dev/mailbox${query}`, { headers: cookie ? { Cookie: cookie } : {} })
		return mailboxLoader({ request, params: {}, context: {} } as Parameters<typeof mailboxLoader>[0])
	}

	test('lists the outbox newest first, optionally for one recipient', async () => {
		setEnv({ SMTP_URL: undefined })
		await enqueueMail(t.db, { ...welcome, to: 'ada@example.com', subject: 'First' })
		await enqueueMail(t.db, { ...welcome, to: 'bob@example.com', subject: 'Second' })
		await enqueueMail(t.db, { ...welcome, to: 'Ada@Example.com', subject: 'Third' })

		const all = await loadMailbox()
		expect(all.data.to).toBeNull()
		expect(all.data.mails.map((mail) => mail.subject)).toEqual(['Third', 'Second', 'First'])
		expect(all.data.mails[0]).toMatchObject({ to_address: 'Ada@Example.com', status: 'pending', text_body: welcome.text })

		const ada = await loadMailbox('?to=ada%40example.com')
		expect(ada.data.to).toBe('ada@example.com')
		expect(ada.data.mails.map((mail) => mail.subject)).toEqual(['Third', 'First'])
	})

	test("serves a mail's HTML part sandboxed, and lists its headers and attachments", async () => {
		setEnv({ SMTP_URL: undefined })
		const id = await enqueueMail(t.db, {
			...welcome,
			html: '<p>Hello <script>alert(1)</script></p>',
			headers: { 'List-Unsubscribe': '<https://school.example/u>' },
			attachments: [{ filename: 'course.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
		})
		const plain = await enqueueMail(t.db, { ...welcome, subject: 'Text only' })

		const response = await callRoute(mailboxHtmlLoader, getRequest(`/dev/mailbox/${id}/html`), { mailId: String(id) })
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
		expect(response.headers.get('Content-Security-Policy')).toMatch(/^sandbox; default-src 'none';/)
		expect(await response.text()).toBe('<p>Hello <script>alert(1)</script></p>')
		for (const mailId of [String(plain), 'abc', '99999999999']) {
			expect((await callRoute(mailboxHtmlLoader, getRequest(`/dev/mailbox/${mailId}/html`), { mailId })).status).toBe(404)
		}

		const { data } = await loadMailbox()
		const listed = data.mails.find((mail) => mail.id === id)!
		expect(listed).toMatchObject({
			hasHtml: true,
			headers: { 'List-Unsubscribe': '<https://school.example/u>' },
			attachments: [{ filename: 'course.ics', contentType: 'text/calendar' }],
		})
		expect(data.mails.find((mail) => mail.id === plain)).toMatchObject({ hasHtml: false, attachments: [] })
	})

	test('is a 404 when mail goes out over SMTP', async () => {
		setEnv({ SMTP_URL: smtp.url })
		await expect(loadMailbox()).rejects.toMatchObject({ init: { status: 404 } })
		const id = await enqueueMail(t.db, { ...welcome, html: '<p>Welcome!</p>' })
		expect((await callRoute(mailboxHtmlLoader, getRequest(`/dev/mailbox/${id}/html`), { mailId: String(id) })).status).toBe(404)
	})

	test('is a 404 in production unless the operator opted in to the embedded defaults', async () => {
		const production = {
			NODE_ENV: 'production',
			APP_URL: 'https://courses.example',
			DATABASE_URL: 'postgres://db.example/app',
			SESSION_SECRET: 'secret',
			S3_BUCKET: 'files',
			S3_ACCESS_KEY_ID: 'key',
			S3_SECRET_ACCESS_KEY: 'secret',
			STRIPE_SECRET_KEY: 'sk_test_x',
			STRIPE_WEBHOOK_SECRET: 'whsec_x',
			SMTP_URL: smtp.url,
			ALLOW_EMBEDDED_DEFAULTS: undefined,
		}
		setEnv(production)
		await expect(loadMailbox()).rejects.toMatchObject({ init: { status: 404 } })

		// Without opt-in production cannot even start without SMTP_URL, but the rule stands on its own.
		const env = parseEnv({ ...production, NODE_ENV: 'test', SMTP_URL: undefined })
		expect(isMailboxAvailable({ ...env, NODE_ENV: 'production', ALLOW_EMBEDDED_DEFAULTS: false })).toBe(false)
		expect(isMailboxAvailable({ ...env, NODE_ENV: 'production', ALLOW_EMBEDDED_DEFAULTS: true })).toBe(true)
		expect(isMailboxAvailable({ ...env, NODE_ENV: 'development', ALLOW_EMBEDDED_DEFAULTS: false })).toBe(true)

		setEnv({ ...production, SMTP_URL: undefined, ALLOW_EMBEDDED_DEFAULTS: 'true' })
		// The mails carry password-reset links: in production only an admin reads them.
		await expect(loadMailbox()).rejects.toMatchObject({ status: 302 })
		const student = await createUser(t.db, { email: 'mailbox-student@example.com', name: 'Student', passwordHash: 'x' })
		await expect(loadMailbox('', await sessionCookieFor(student.id))).rejects.toMatchObject({ status: 302 })
		const admin = await createUser(t.db, { email: 'mailbox-admin@example.com', name: 'Admin', passwordHash: 'x', role: 'admin' })
		expect((await loadMailbox('', await sessionCookieFor(admin.id))).data.mails).toEqual([])
	})
})
