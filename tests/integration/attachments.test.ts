import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { action as adminAction } from '#app/routes/admin/messages/broadcast.tsx'
import { action } from '#app/routes/dashboard/messages.tsx'
import { loader as attachmentLoader } from '#app/routes/resources/attachment-file.ts'
import { resetEnvCache } from '#app/utils/env.server.ts'
import { MultipartError, parseMultipartForm, UploadTooLargeError } from '#app/utils/multipart.server.ts'
import type { Role } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { forgedIds } from '#tests/support/forged-ids.ts'
import { callRoute, formRequest, getRequest, signedInUser } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')

type Person = { id: string; cookie: string }

function person(role: Role): Promise<Person> {
	return signedInUser(t.db, { role })
}

function multipart(
	pathname: string,
	cookie: string,
	fields: Record<string, string>,
	file?: { name: string; bytes: Uint8Array<ArrayBuffer>; type?: string },
) {
	const body = new FormData()
	for (const [name, value] of Object.entries(fields)) body.set(name, value)
	if (file) body.set('attachment', new File([file.bytes], file.name, { type: file.type ?? 'application/octet-stream' }))
	return new Request(`http://localhost${pathname}`, { method: 'POST', body, headers: { Cookie: cookie, 'x-client-ip': '203.0.113.5' } })
}

/** Sends a message with a file through the messages page's action, as the sender's browser would. */
function sendMessage(
	sender: Person,
	receiver: Person,
	content: string,
	file: { name: string; bytes: Uint8Array<ArrayBuffer>; type?: string },
) {
	return callRoute(action, multipart('/dashboard/messages', sender.cookie, { intent: 'send', receiverId: receiver.id, content }, file))
}

function storedFiles() {
	const root = path.join(files.dir, 'messages')
	if (!fs.existsSync(root)) return []
	return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
}

function download(id: number, cookie: string, headers: Record<string, string> = {}) {
	const request = getRequest(`/files/attachments/${id}`, { cookie })
	for (const [name, value] of Object.entries(headers)) request.headers.set(name, value)
	return callRoute(attachmentLoader, request, { attachmentId: String(id) })
}

async function attachments() {
	return t.db.selectFrom('message_attachments').selectAll().orderBy('id').execute()
}

beforeEach(async () => {
	await t.db.deleteFrom('messages').execute()
	await t.db.deleteFrom('rate_limits').execute()
	fs.rmSync(path.join(files.dir, 'messages'), { recursive: true, force: true })
})

afterEach(() => {
	delete process.env.MAX_UPLOAD_MB
	resetEnvCache()
})

describe('sending an attachment', () => {
	test('an image is stored under the sender, typed from its bytes, and previewed inline for the two parties only', async () => {
		const [student, stranger, admin] = await Promise.all([person('student'), person('student'), person('admin')])
		const sent = await sendMessage(student, admin, '', { name: 'photo.png', bytes: PNG, type: 'text/html' })
		expect(sent.status).toBe(302)
		const [attachment] = await attachments()
		expect(attachment).toMatchObject({ name: 'photo.png', type: 'image/png', size_bytes: PNG.length })
		expect(attachment!.storage_key).toMatch(new RegExp(`^messages/${student.id}/[0-9a-f-]{36}-photo\\.png$`))
		expect(storedFiles()).toHaveLength(1)

		for (const viewer of [student, admin]) {
			const response = await download(attachment!.id, viewer.cookie)
			expect(response.status).toBe(200)
			expect(response.headers.get('Content-Type')).toBe('image/png')
			expect(response.headers.get('Content-Disposition')).toMatch(/^inline; filename="photo.png"/)
			expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
			expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG)
		}
		expect((await download(attachment!.id, stranger.cookie)).status).toBe(403)
		expect((await download(attachment!.id + 1000, student.cookie)).status).toBe(404)
		// Its id written another way (1e1, 12.0, ' 12', 0x…) names no attachment, even to its sender.
		for (const forged of forgedIds(attachment!.id)) {
			const request = getRequest(`/files/attachments/${encodeURIComponent(forged)}`, { cookie: student.cookie })
			const refused = await callRoute(attachmentLoader, request, { attachmentId: forged })
			expect(refused.status, forged).toBe(404)
			expect(Buffer.from(await refused.arrayBuffer()).includes(PNG), forged).toBe(false)
		}
	})

	test('other files are downloads, and ranges are served', async () => {
		const [student, admin] = await Promise.all([person('student'), person('admin')])
		await sendMessage(student, admin, 'notes', { name: 'notes.pdf', bytes: PDF })
		const [attachment] = await attachments()
		expect(attachment!.type).toBe('application/pdf')
		const whole = await download(attachment!.id, admin.cookie)
		expect(whole.headers.get('Content-Type')).toBe('application/octet-stream')
		expect(whole.headers.get('Content-Disposition')).toMatch(/^attachment; filename="notes.pdf"/)
		const part = await download(attachment!.id, admin.cookie, { Range: 'bytes=0-3' })
		expect(part.status).toBe(206)
		expect(part.headers.get('Content-Range')).toBe(`bytes 0-3/${PDF.length}`)
		expect(await part.text()).toBe('%PDF')
		const tail = await download(attachment!.id, admin.cookie, { Range: 'bytes=-6' })
		expect(tail.status).toBe(206)
		expect(tail.headers.get('Content-Range')).toBe(`bytes ${PDF.length - 6}-${PDF.length - 1}/${PDF.length}`)
		expect(await tail.text()).toBe('%%EOF\n')
		const beyond = await download(attachment!.id, admin.cookie, { Range: `bytes=${PDF.length}-` })
		expect(beyond.status).toBe(416)
		expect(beyond.headers.get('Content-Range')).toBe(`bytes */${PDF.length}`)
	})

	test('an attachment over the size limit is refused with 413 and nothing stored', async () => {
		process.env.MAX_UPLOAD_MB = '1'
		resetEnvCache()
		const [student, admin] = await Promise.all([person('student'), person('admin')])
		const big = new Uint8Array(new ArrayBuffer(1024 * 1024 + 1)).fill(65)
		const response = await sendMessage(student, admin, 'too big', { name: 'big.txt', bytes: big })
		expect(response.status).toBe(413)
		expect(await t.db.selectFrom('messages').select('id').execute()).toHaveLength(0)
		expect(await attachments()).toHaveLength(0)
		expect(storedFiles()).toHaveLength(0)
		expect(fs.readdirSync(files.dir, { recursive: true }).filter((name) => String(name).endsWith('.tmp'))).toEqual([])
	})

	test('SVG and HTML are refused whatever they are called', async () => {
		const [student, admin] = await Promise.all([person('student'), person('admin')])
		const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
		const html = Buffer.from('  <!DOCTYPE html><html><body>hi</body></html>')
		for (const file of [
			{ name: 'image.svg', bytes: svg },
			{ name: 'picture.png', bytes: svg },
			{ name: 'page.txt', bytes: html },
		]) {
			const response = await sendMessage(student, admin, 'x', file)
			expect(response.status).toBe(415)
		}
		expect(await t.db.selectFrom('messages').select('id').execute()).toHaveLength(0)
		expect(storedFiles()).toHaveLength(0)
	})

	test('a file for a receiver the rules do not allow is never stored', async () => {
		const [student, otherStudent] = await Promise.all([person('student'), person('student')])
		const response = await sendMessage(student, otherStudent, 'hi', { name: 'a.png', bytes: PNG })
		expect(response.status).toBe(403)
		expect(storedFiles()).toHaveLength(0)
	})

	test('deleting a message removes its attachments and their stored files', async () => {
		const [student, admin] = await Promise.all([person('student'), person('admin')])
		await sendMessage(student, admin, '', { name: 'a.png', bytes: PNG })
		const message = await t.db.selectFrom('messages').select('id').executeTakeFirstOrThrow()
		expect(storedFiles()).toHaveLength(1)
		const response = await callRoute(
			action,
			formRequest('/dashboard/messages', { intent: 'delete', messageId: String(message.id) }, { cookie: student.cookie }),
		)
		expect(response.status).toBe(302)
		expect(await attachments()).toHaveLength(0)
		expect(storedFiles()).toHaveLength(0)
	})

	test('announcement attachments are served to every signed-in user', async () => {
		const [admin, student] = await Promise.all([person('admin'), person('student')])
		const sent = await callRoute(
			adminAction,
			multipart(
				'/dashboard/admin/messages/broadcast',
				admin.cookie,
				{ intent: 'announce', subject: 'Syllabus', message: 'Attached' },
				{ name: 'syllabus.pdf', bytes: PDF },
			),
		)
		expect(sent.status).toBe(302)
		const [attachment] = await attachments()
		expect((await download(attachment!.id, student.cookie)).status).toBe(200)
		const signedOut = await callRoute(attachmentLoader, getRequest(`/files/attachments/${attachment!.id}`), {
			attachmentId: String(attachment!.id),
		})
		expect(signedOut.status).toBe(302)
	})
})

describe('the multipart parser', () => {
	function chunkedRequest(body: Buffer, boundary: string, chunkSize: number) {
		let offset = 0
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (offset >= body.length) return controller.close()
				controller.enqueue(new Uint8Array(body.subarray(offset, offset + chunkSize)))
				offset += chunkSize
			},
		})
		return new Request('http://localhost/upload', {
			method: 'POST',
			body: stream,
			duplex: 'half',
			headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
		} as RequestInit)
	}

	const boundary = '----formboundaryXYZ'
	const fileBytes = Buffer.concat([
		Buffer.from('\r\n--not-the-boundary\r\n'),
		Buffer.alloc(3000, 7),
		Buffer.from(`\r\n--${boundary.slice(0, 10)}`),
	])
	const body = Buffer.concat([
		Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsend\r\n`),
		Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\nline one\r\nline two\r\n`),
		Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="r\u00e9sum\u00e9 %22final%22.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
		),
		fileBytes,
		Buffer.from(`\r\n--${boundary}--\r\n`),
	])

	for (const chunkSize of [1, 7, 64, 100_000]) {
		test(`reads fields and a streamed file in chunks of ${chunkSize} bytes`, async () => {
			const result = await parseMultipartForm(chunkedRequest(body, boundary, chunkSize), {
				maxFileBytes: 10_000,
				onFile: async (file, fields) => {
					expect(fields.get('intent')).toBe('send')
					const chunks: Buffer[] = []
					for await (const chunk of file.stream) chunks.push(chunk as Buffer)
					return { name: file.fileName, bytes: Buffer.concat(chunks) }
				},
			})
			expect(result.fields.get('content')).toBe('line one\r\nline two')
			expect(result.files[0]!.name).toBe('r\u00e9sum\u00e9 "final".bin')
			expect(result.files[0]!.bytes.equals(fileBytes)).toBe(true)
		})
	}

	test('a file name is read as browsers send it: backslashes are literal characters, not escapes', async () => {
		const windowsPath = Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="..\\..\\Windows\\win.ini.pdf"\r\nContent-Type: application/pdf\r\n\r\nx\r\n--${boundary}--\r\n`,
		)
		const result = await parseMultipartForm(chunkedRequest(windowsPath, boundary, 100), {
			maxFileBytes: 10,
			onFile: async (file) => {
				file.stream.resume()
				return file.fileName
			},
		})
		expect(result.files).toEqual(['..\\..\\Windows\\win.ini.pdf'])
	})

	test('a file over the limit fails its stream and the parse', async () => {
		let streamError: unknown
		const parsing = parseMultipartForm(chunkedRequest(body, boundary, 512), {
			maxFileBytes: 1000,
			onFile: async (file) => {
				try {
					for await (const _chunk of file.stream) {
						// consume
					}
				} catch (error) {
					streamError = error
					throw error
				}
			},
		})
		await expect(parsing).rejects.toBeInstanceOf(UploadTooLargeError)
		expect(streamError).toBeInstanceOf(UploadTooLargeError)
	})

	test('a truncated body or a second file is refused', async () => {
		const truncated = body.subarray(0, body.length - 10)
		await expect(
			parseMultipartForm(chunkedRequest(truncated, boundary, 100), { maxFileBytes: 10_000, onFile: async (file) => file.stream.resume() }),
		).rejects.toBeInstanceOf(MultipartError)
		const twoFiles = Buffer.concat([
			Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="a"; filename="a.txt"\r\n\r\na\r\n`),
			Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="b"; filename="b.txt"\r\n\r\nb\r\n--${boundary}--\r\n`),
		])
		await expect(
			parseMultipartForm(chunkedRequest(twoFiles, boundary, 100), {
				maxFileBytes: 10_000,
				onFile: async (file) => void file.stream.resume(),
			}),
		).rejects.toBeInstanceOf(MultipartError)
	})

	test('an empty file input is skipped', async () => {
		const empty = Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--${boundary}--\r\n`,
		)
		const result = await parseMultipartForm(chunkedRequest(empty, boundary, 100), {
			maxFileBytes: 10,
			onFile: async () => {
				throw new Error('no file expected')
			},
		})
		expect(result.files).toEqual([])
	})
})
