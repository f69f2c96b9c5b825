/**
 * Message attachments beyond tests/integration/attachments.test.ts (size limit,
 * SVG with script, HTML in disguise): a wrong magic number, a `../` name,
 * control characters in a name, and a file store that is down. Then the
 * partial uploads a killed process leaves on local disk.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { action } from '#app/routes/dashboard/messages.tsx'
import { loader as attachmentLoader } from '#app/routes/resources/attachment-file.ts'
import { getStorage, removeAbandonedUploads, setStorage } from '#app/services/storage/index.server.ts'
import type { FileStorage } from '#app/services/storage/storage.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { callRoute, getRequest, signedInUser } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')

async function pair() {
	const [student, admin] = await Promise.all([signedInUser(t.db), signedInUser(t.db, { role: 'admin' })])
	return { student, admin }
}

/** A small text file by the name given. */
const plainText = (name: string) => ({ name, bytes: Buffer.from('plain text'), type: 'text/plain' })

function download(attachmentId: number, cookie: string) {
	return callRoute(attachmentLoader, getRequest(`/files/attachments/${attachmentId}`, { cookie }), { attachmentId: String(attachmentId) })
}

function send(cookie: string, receiverId: string, file: { name: string; bytes: Uint8Array; type: string }) {
	const body = new FormData()
	body.set('intent', 'send')
	body.set('receiverId', receiverId)
	body.set('content', 'with a file')
	body.set('attachment', new File([Buffer.from(file.bytes)], file.name, { type: file.type }))
	return callRoute(
		action,
		new Request('http://localhost/dashboard/messages', {
			method: 'POST',
			body,
			headers: { Cookie: cookie, 'x-client-ip': '203.0.113.60' },
		}),
	)
}

function storedFiles() {
	const root = path.join(files.dir, 'messages')
	if (!fs.existsSync(root)) return []
	return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
}

beforeEach(async () => {
	await t.db.deleteFrom('messages').execute()
	await t.db.deleteFrom('rate_limits').execute()
})

describe('attachments that lie', () => {
	test('a PDF named photo.png (wrong magic number) is typed from its bytes, never served as an image', async () => {
		const { student, admin } = await pair()
		const response = await send(student.cookie, admin.id, { name: 'photo.png', bytes: PDF, type: 'image/png' })
		expect([302, 303, 415]).toContain(response.status)
		const row = await t.db.selectFrom('message_attachments').selectAll().executeTakeFirst()
		if (!row) return
		expect(row.type).not.toBe('image/png')
		const served = await download(row.id, student.cookie)
		expect(served.headers.get('Content-Type')).not.toMatch(/^image\//)
		expect(served.headers.get('Content-Disposition')).toMatch(/^attachment/)
		expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
	})

	test('control characters and NUL in a name are dropped: the attachment is kept under a clean name, not refused with 5xx', async () => {
		const { student, admin } = await pair()
		const response = await send(student.cookie, admin.id, plainText('notes\u0000\u0007\u001b[31m.txt'))
		expect(response.status).toBe(302)
		const row = await t.db.selectFrom('message_attachments').selectAll().executeTakeFirstOrThrow()
		expect(row.name).toBe('notes[31m.txt')
		expect(row.storage_key).toMatch(new RegExp(`^messages/${student.id}/[0-9a-f-]{36}-notes-31m\\.txt$`))
		const served = await download(row.id, student.cookie)
		expect(served.headers.get('Content-Disposition')).toMatch(/^(inline|attachment); filename="notes\[31m\.txt"$/)
	})

	test('a ../ name never leaves the user folder, and the download name is the server-cleaned one', async () => {
		const { student, admin } = await pair()
		const response = await send(student.cookie, admin.id, plainText('../../../etc/passwd.txt'))
		expect(response.status).toBeLessThan(400)
		const row = await t.db.selectFrom('message_attachments').selectAll().executeTakeFirstOrThrow()
		expect(row.storage_key).not.toContain('..')
		expect(row.storage_key.startsWith(`messages/${student.id}/`) || row.storage_key.includes(student.id)).toBe(true)
		for (const entry of storedFiles()) expect(path.resolve(entry.parentPath, entry.name).startsWith(files.dir)).toBe(true)
		const served = await download(row.id, student.cookie)
		const disposition = served.headers.get('Content-Disposition') ?? ''
		expect(disposition).toMatch(/^attachment/)
		expect(disposition).not.toContain('..')
		expect(disposition).not.toContain('/')
		expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
		expect(served.headers.get('Content-Security-Policy')).toBe('sandbox')
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

describe('partial uploads a killed process left on local disk', () => {
	test('the sweep removes temporary files and side files of objects never stored once an hour old, and nothing else', async () => {
		const folder = 'courses/900/weeks/901/material'
		const stored = `${folder}/${randomUUID()}-kept.pdf`
		await files.storage.put(stored, PDF, { contentType: 'application/pdf' })
		const directory = path.join(files.dir, ...folder.split('/'))
		const write = (name: string) => {
			fs.writeFileSync(path.join(directory, name), 'partial')
			return name
		}
		const partial = write(`.${randomUUID()}-partial.pdf.${randomUUID()}.tmp`)
		const sideFileAlone = write(`.${randomUUID()}-never-renamed.pdf.meta.json`)
		const live = write(`.${randomUUID()}-live.pdf.${randomUUID()}.tmp`)
		const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
		for (const name of fs.readdirSync(directory)) {
			if (name !== live) fs.utimesSync(path.join(directory, name), twoHoursAgo, twoHoursAgo)
		}

		expect(await removeAbandonedUploads()).toBe(2)
		const left = fs.readdirSync(directory)
		expect(left).not.toContain(partial)
		expect(left).not.toContain(sideFileAlone)
		expect(left.sort()).toEqual([`.${path.basename(stored)}.meta.json`, live, path.basename(stored)].sort())
		expect(await files.storage.stat(stored)).toMatchObject({ size: PDF.byteLength, contentType: 'application/pdf' })
	})
})
