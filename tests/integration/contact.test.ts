import { randomUUID } from 'node:crypto'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import { createContactSubmission } from '#app/models/messaging/contact-submissions.server.ts'
import { action } from '#app/routes/public/contact.tsx'
import { setDatabaseHandle } from '#app/utils/db.server.ts'
import { HONEYPOT_REFUSAL } from '#app/utils/honeypot.ts'
import type { Database } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'

const t = useTestDatabase()

beforeEach(async () => {
	await t.db.deleteFrom('contact_submissions').execute()
	await t.db.deleteFrom('rate_limits').execute()
})

function post(fields: Record<string, string>) {
	const body = new FormData()
	for (const [name, value] of Object.entries(fields)) body.set(name, value)
	return action({
		request: new Request('http://localhost/contact', { method: 'POST', body }),
		params: {},
		context: {},
	} as Parameters<typeof action>[0])
}

function storedSubmissions() {
	return t.db.selectFrom('contact_submissions').selectAll().execute()
}

/** What the action answered with when it did not redirect. */
function replyOf(result: Awaited<ReturnType<typeof post>>) {
	if (result instanceof Response) throw new Error(`expected data, got a ${result.status} response`)
	return { status: result.init?.status, ...result.data }
}

const valid = {
	name: 'Jordan Lee',
	email: 'jordan@example.com',
	phone: '+1 404 555 0100',
	message: 'When does the next cohort start?',
}

describe('contact form action', () => {
	test('stores a submission and redirects to the sent state with a toast', async () => {
		const response = await post({ ...valid, name: '  Jordan Lee  ', website: '' })
		expect(response).toBeInstanceOf(Response)
		const redirect = response as Response
		expect(redirect.status).toBe(302)
		expect(redirect.headers.get('Location')).toBe('/contact?sent=1')
		expect(redirect.headers.get('Set-Cookie')).toMatch(/toast=/)

		const rows = await storedSubmissions()
		expect(rows).toHaveLength(1)
		expect(rows[0]).toMatchObject({
			kind: 'contact',
			name: 'Jordan Lee',
			email: 'jordan@example.com',
			phone: '+1 404 555 0100',
			message: 'When does the next cohort start?',
			program: null,
			read: false,
		})
	})

	test('stores no phone when it is left empty', async () => {
		await post({ ...valid, phone: '' })
		const rows = await storedSubmissions()
		expect(rows[0]?.phone).toBeNull()
	})

	test('answers 400 with a message per missing field and stores nothing', async () => {
		const reply = replyOf(await post({ name: '', email: '', phone: '', message: '   ' }))
		expect(reply.status).toBe(400)
		expect(reply.deliveryFailed).toBe(false)
		expect(reply.result.error).toEqual({
			name: ['Name is required'],
			email: ['Email is required'],
			message: ['Message is required'],
		})
		expect(await storedSubmissions()).toHaveLength(0)
	})

	test('answers 400 for an invalid e-mail address and keeps what was typed', async () => {
		const reply = replyOf(await post({ ...valid, email: 'not-an-email' }))
		expect(reply.status).toBe(400)
		expect(reply.result.error).toEqual({ email: ['Please enter a valid email address'] })
		expect(reply.result.initialValue).toMatchObject({ name: 'Jordan Lee', message: valid.message })
		expect(await storedSubmissions()).toHaveLength(0)
	})

	test('refuses text longer than the table allows', async () => {
		const reply = replyOf(
			await post({
				name: 'n'.repeat(201),
				email: `${'e'.repeat(250)}@example.com`,
				phone: '1'.repeat(51),
				message: 'm'.repeat(10_001),
			}),
		)
		expect(reply.status).toBe(400)
		expect(reply.result.error).toEqual({
			name: ['Name must be at most 200 characters'],
			email: ['Email must be at most 254 characters'],
			phone: ['Phone number must be at most 50 characters'],
			message: ['Message must be at most 10,000 characters'],
		})
		expect(await storedSubmissions()).toHaveLength(0)
	})

	test('a filled honeypot is refused with a visible message, keeps what was typed and stores nothing', async () => {
		const reply = replyOf(await post({ ...valid, website: 'https://spam.example' }))
		expect(reply.status).toBe(400)
		expect(reply.result.error).toEqual({ '': [HONEYPOT_REFUSAL] })
		expect(reply.result.initialValue).toMatchObject({ name: valid.name, message: valid.message })
		expect(await storedSubmissions()).toHaveLength(0)
	})

	test('a database failure asks the visitor to e-mail instead', async () => {
		const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
		const unreachable = new Kysely<Database>({
			dialect: new PostgresDialect({
				pool: new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:1/${randomUUID()}`, connectionTimeoutMillis: 2000 }),
			}),
		})
		setDatabaseHandle({ ...t.handle, db: unreachable })
		try {
			const reply = replyOf(await post(valid))
			expect(reply.status).toBe(503)
			expect(reply.deliveryFailed).toBe(true)
			expect(reply.result.initialValue).toMatchObject({ message: valid.message })
			expect(errors).toHaveBeenCalled()
		} finally {
			setDatabaseHandle(t.handle)
			await unreachable.destroy()
		}
		expect(await storedSubmissions()).toHaveLength(0)
	})
})

describe('createContactSubmission', () => {
	test('trims the fields and stores an empty phone as null', async () => {
		const row = await createContactSubmission(t.db, {
			name: ' Ada ',
			email: ' ada@example.com ',
			phone: '  ',
			message: ' Hello ',
		})
		const stored = await t.db.selectFrom('contact_submissions').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow()
		expect(stored).toMatchObject({ name: 'Ada', email: 'ada@example.com', phone: null, message: 'Hello', kind: 'contact' })
	})
})
