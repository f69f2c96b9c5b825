/**
 * Message attachments beyond tests/integration/attachments.test.ts (size limit,
 * SVG with script, HTML in disguise): a wrong magic number, a `../` name, and
 * a file store that is down.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { createUser } from '#app/models/users.server.ts'
import { action } from '#app/routes/dashboard/messages.tsx'
import { loader as attachmentLoader } from '#app/routes/resources/attachment-file.ts'
import { getStorage, setStorage } from '#app/services/storage/index.server.ts'
import type { FileStorage } from '#app/services/storage/storage.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { callRoute, getRequest, sessionCookieFor } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
let sequence = 0

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')

async function pair() {
	sequence += 1
	const student = await createUser(t.db, { email: `up-student-${sequence}@example.com`, name: 'Up Student', password: 'password-123', role: 'student', confirmed: true })
	const admin = await createUser(t.db, { email: `up-admin-${sequence}@example.com`, name: 'Up Admin', password: 'password-123', role: 'admin', confirmed: true })
	return { student: { id: student.id, cookie: await sessionCookieFor(student.id) }, admin }
}

function send(cookie: string, receiverId: string, file: { name: string; bytes: Uint8Array; type: string }) {
	const body = new FormData()
	body.set('intent', 'send')
	body.set('receiverId', receiverId)
	body.set('content', 'with a file')
	body.set('attachment', new File([Buffer.from(file.bytes)], file.name, { type: file.type }))
	return callRoute(action, new Request('http://localhost/dashboard/messages', { method: 'POST', body, headers: { Cookie: cookie, 'x-client-ip': '203.0.113.60' } }))
}

function storedFiles() {
	const root = path.join(files.dir, 'messages')
	if (!fs.existsSync(root)) return []
	return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
}

beforeEach(async () => {
	await t.db.deleteFrom('messages').execute()
	await t.db.deleteFrom('rate_limit_buckets').execute()
})

describe('attachments that lie', () => {
	test('a PDF named photo.png (wrong magic number) is typed from its bytes, never served as an image', async () => {
		const { student, admin } = await pair()
		const response = await send(student.cookie, admin.id, { name: 'photo.png', bytes: PDF, type: 'image/png' })
		expect([302, 303, 415]).toContain(response.status)
		const row = await t.db.selectFrom('message_attachments').selectAll().executeTakeFirst()
		if (!row) return
		expect(row.type).not.toBe('image/png')
		const served = await callRoute(attachmentLoader, getRequest(`/files/attachments/${row.id}`, { cookie: student.cookie }), { attachmentId: String(row.id) })
		expect(served.headers.get('Content-Type')).not.toMatch(/^image\//)
		expect(served.headers.get('Content-Disposition')).toMatch(/^attachment/)
		expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
	})

	test('a ../ name never leaves the user folder, and the download name is the server-cleaned one', async () => {
		const { student, admin } = await pair()
		const response = await send(student.cookie, admin.id, { name: '../../../etc/passwd.txt', bytes: Buffer.from('plain text'), type: 'text/plain' })
		expect(response.status).toBeLessThan(400)
		const row = await t.db.selectFrom('message_attachments').selectAll().executeTakeFirstOrThrow()
		expect(row.storage_key).not.toContain('..')
		expect(row.storage_key.startsWith(`messages/${student.id}/`) || row.storage_key.includes(student.id)).toBe(true)
		for (const entry of storedFiles()) expect(path.resolve(entry.parentPath, entry.name).startsWith(files.dir)).toBe(true)
		const served = await callRoute(attachmentLoader, getRequest(`/files/attachments/${row.id}`, { cookie: student.cookie }), { attachmentId: String(row.id) })
		const disposition = served.headers.get('Content-Disposition') ?? ''
		expect(disposition).toMatch(/^attachment/)
		expect(disposition).not.toContain('..')
		expect(disposition).not.toContain('/')
		expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
	})
})

describe('a file store that is down', () => {
	test('the upload fails with a message and leaves no message, no attachment row and no file', async () => {
		const { student, admin } = await pair()
		const filesBefore = storedFiles().length
		const working = getStorage()
		const broken = new Proxy(working, {
			get(target, property, receiver) {
				if (property === 'put') return () => Promise.reject(new Error('connect ECONNREFUSED storage'))
				return Reflect.get(target, property, receiver)
			},
		}) as FileStorage
		setStorage(broken)
		try {
			const response = await send(student.cookie, admin.id, { name: 'notes.txt', bytes: Buffer.from('some notes'), type: 'text/plain' })
			expect(response.status).toBeGreaterThanOrEqual(400)
			const text = await response.text()
			expect(text.length).toBeGreaterThan(0)
			expect(text).not.toContain('ECONNREFUSED')
		} finally {
			setStorage(working)
		}
		expect(await t.db.selectFrom('messages').select('id').execute()).toEqual([])
		expect(await t.db.selectFrom('message_attachments').select('id').execute()).toEqual([])
		expect(storedFiles()).toHaveLength(filesBefore)
	})
})
