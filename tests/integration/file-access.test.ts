import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loader as fileLoader } from '#app/routes/resources/material-file.ts'
import { setStorage } from '#app/services/storage/index.server.ts'
import { materialKey } from '#app/services/storage/keys.ts'
import type { S3FileStorage } from '#app/services/storage/s3.server.ts'
import type { FileStorage } from '#app/services/storage/storage.ts'
import { getEnv, resetEnvCache } from '#app/utils/env.server.ts'
import type { MaterialCategory } from '#db/types.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertMaterialItem, insertMaterialLink, insertWeek } from '#tests/support/fixtures.ts'
import { callRoute, signedInUser } from '#tests/support/requests.ts'
import { startS3Server, type TestS3Server } from '#tests/support/s3-server.ts'
import { s3StorageOn } from '#tests/support/s3-storage.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()

const PDF_BYTES = new TextEncoder().encode('%PDF-1.4 0123456789 a tiny stand-in for a PDF %%EOF')
const VIDEO_BYTES = Uint8Array.from({ length: 4096 }, (_, i) => i % 251)

let courseId: number
let weekId: number

async function storeItem(
	fileName: string,
	bytes: Uint8Array,
	options: { category?: MaterialCategory; contentType?: string; storage?: FileStorage } = {},
) {
	const category = options.category ?? 'material'
	const key = materialKey(courseId, weekId, category, fileName)
	const contentType = options.contentType ?? 'application/octet-stream'
	await (options.storage ?? files.storage).put(key, bytes, { contentType })
	return insertMaterialItem(t.db, {
		courseId,
		weekId,
		title: fileName,
		category,
		storageKey: key,
		mimeType: contentType,
		sizeBytes: bytes.byteLength,
	})
}

function getFile(itemId: number | string, init: { cookie?: string; range?: string; query?: string; method?: string } = {}) {
	const headers = new Headers()
	if (init.cookie) headers.set('Cookie', init.cookie)
	if (init.range) headers.set('Range', init.range)
	const request = new Request(`http://localhost/files/materials/${itemId}${init.query ?? ''}`, {
		headers,
		method: init.method ?? 'GET',
	})
	return callRoute(fileLoader, request, { itemId: String(itemId) })
}

let student: { id: string; cookie: string }
let pdfId: number
let videoId: number

beforeAll(async () => {
	courseId = (await insertCourse(t.db, { title: 'File course' })).id
	weekId = await insertWeek(t.db, { courseId, weekNumber: 1, topic: 'Files' })
	student = await signedInUser(t.db, { name: 'Someone' })
	await insertEnrollment(t.db, { userId: student.id, courseId })
	pdfId = await storeItem('Deal Guide.pdf', PDF_BYTES, { contentType: 'application/pdf' })
	videoId = await storeItem('class.mp4', VIDEO_BYTES, { category: 'recording', contentType: 'video/mp4' })
})

describe('who may fetch a material file', () => {
	test('an actively enrolled student gets the PDF inline and privately cached', async () => {
		const response = await getFile(pdfId, { cookie: student.cookie })
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toBe('application/pdf')
		expect(response.headers.get('Content-Disposition')).toMatch(/^inline; filename="Deal-Guide.pdf"/)
		expect(response.headers.get('Cache-Control')).toContain('private')
		expect(response.headers.get('Accept-Ranges')).toBe('bytes')
		expect(response.headers.get('Content-Length')).toBe(String(PDF_BYTES.byteLength))
		expect(new Uint8Array(await response.arrayBuffer())).toEqual(PDF_BYTES)
	})

	test('every answer carrying a stored file, inline or not, whole, ranged or HEAD, is sandboxed and nosniff', async () => {
		const answers = [
			await getFile(pdfId, { cookie: student.cookie }),
			await getFile(pdfId, { cookie: student.cookie, query: '?download=1' }),
			await getFile(videoId, { cookie: student.cookie, range: 'bytes=0-99' }),
			await getFile(videoId, { cookie: student.cookie, method: 'HEAD' }),
			await getFile(videoId, { cookie: student.cookie, range: 'bytes=999999-' }),
		]
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 206, 200, 416])
		for (const answer of answers) {
			expect(answer.headers.get('Content-Security-Policy')).toBe('sandbox')
			expect(answer.headers.get('X-Content-Type-Options')).toBe('nosniff')
		}
	})

	test('an admin gets any course file', async () => {
		const admin = await signedInUser(t.db, { role: 'admin', name: 'Someone' })
		expect((await getFile(pdfId, { cookie: admin.cookie })).status).toBe(200)
	})

	test('a student whose enrollment is completed keeps the file (decision 035)', async () => {
		const alumnus = await signedInUser(t.db, { name: 'Someone' })
		await insertEnrollment(t.db, { userId: alumnus.id, courseId, status: 'completed' })
		expect((await getFile(pdfId, { cookie: alumnus.cookie })).status).toBe(200)
	})

	test.each(['pending', 'inactive'] as const)('a student whose enrollment is %s gets 403', async (status) => {
		const other = await signedInUser(t.db, { name: 'Someone' })
		await insertEnrollment(t.db, { userId: other.id, courseId, status })
		expect((await getFile(videoId, { cookie: other.cookie })).status).toBe(403)
	})

	test('a student of another course gets 403', async () => {
		const other = await signedInUser(t.db, { name: 'Someone' })
		const elsewhere = await insertCourse(t.db, { title: 'Elsewhere' })
		await insertEnrollment(t.db, { userId: other.id, courseId: elsewhere.id })
		expect((await getFile(pdfId, { cookie: other.cookie })).status).toBe(403)
	})

	test('a signed-out visitor is sent to log in', async () => {
		const response = await getFile(pdfId)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(`/login?redirectTo=${encodeURIComponent(`/files/materials/${pdfId}`)}`)
	})

	test.each(['0', 'abc', '99999999999', '2000000000'])('answers 404 for the item id %s', async (id) => {
		expect((await getFile(id, { cookie: student.cookie })).status).toBe(404)
	})

	test('answers 404 for a YouTube link, which has no file', async () => {
		const link = await insertMaterialLink(t.db, { weekId, url: 'https://youtu.be/aqz-KE-bpKQ' })
		expect((await getFile(link.id, { cookie: student.cookie })).status).toBe(404)
	})

	test('answers 404 when the stored file is gone', async () => {
		const itemId = await storeItem('gone.pdf', PDF_BYTES)
		const item = await t.db.selectFrom('material_items').select('storage_key').where('id', '=', itemId).executeTakeFirstOrThrow()
		await files.storage.delete(item.storage_key!)
		expect((await getFile(itemId, { cookie: student.cookie })).status).toBe(404)
	})
})

describe('how a material file is served', () => {
	test('a byte range answers 206 with Content-Range, so videos seek', async () => {
		const response = await getFile(videoId, { cookie: student.cookie, range: 'bytes=100-199' })
		expect(response.status).toBe(206)
		expect(response.headers.get('Content-Range')).toBe(`bytes 100-199/${VIDEO_BYTES.byteLength}`)
		expect(response.headers.get('Content-Length')).toBe('100')
		expect(response.headers.get('Content-Type')).toBe('video/mp4')
		expect(new Uint8Array(await response.arrayBuffer())).toEqual(VIDEO_BYTES.slice(100, 200))
	})

	test('open-ended and suffix ranges are clamped to the file', async () => {
		const open = await getFile(videoId, { cookie: student.cookie, range: 'bytes=4000-' })
		expect(open.headers.get('Content-Range')).toBe('bytes 4000-4095/4096')
		expect(new Uint8Array(await open.arrayBuffer())).toEqual(VIDEO_BYTES.slice(4000))
		const suffix = await getFile(videoId, { cookie: student.cookie, range: 'bytes=-10' })
		expect(suffix.status).toBe(206)
		expect(suffix.headers.get('Content-Range')).toBe('bytes 4086-4095/4096')
		const past = await getFile(videoId, { cookie: student.cookie, range: 'bytes=0-999999' })
		expect(past.headers.get('Content-Range')).toBe('bytes 0-4095/4096')
		await past.body?.cancel()
	})

	test('a range past the end answers 416; a malformed one gets the whole file', async () => {
		const beyond = await getFile(videoId, { cookie: student.cookie, range: 'bytes=5000-6000' })
		expect(beyond.status).toBe(416)
		expect(beyond.headers.get('Content-Range')).toBe('bytes */4096')
		const openPastEnd = await getFile(videoId, { cookie: student.cookie, range: 'bytes=4096-' })
		expect(openPastEnd.status).toBe(416)
		const malformed = await getFile(videoId, { cookie: student.cookie, range: 'bytes=0-1,5-9' })
		expect(malformed.status).toBe(200)
		expect((await malformed.arrayBuffer()).byteLength).toBe(4096)
	})

	test('?download=1 sends the file as an attachment', async () => {
		const response = await getFile(pdfId, { cookie: student.cookie, query: '?download=1' })
		expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="Deal-Guide.pdf"/)
		await response.body?.cancel()
	})

	test('types a browser should not render are always attachments, and unknown ones opaque', async () => {
		const docx = await storeItem('notes.docx', PDF_BYTES, { contentType: 'text/html' })
		const docxResponse = await getFile(docx, { cookie: student.cookie })
		expect(docxResponse.headers.get('Content-Type')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
		expect(docxResponse.headers.get('Content-Disposition')).toMatch(/^attachment;/)
		await docxResponse.body?.cancel()

		const html = await storeItem('page.html', PDF_BYTES, { contentType: 'text/html' })
		const htmlResponse = await getFile(html, { cookie: student.cookie })
		expect(htmlResponse.headers.get('Content-Type')).toBe('application/octet-stream')
		expect(htmlResponse.headers.get('Content-Disposition')).toMatch(/^attachment;/)
		await htmlResponse.body?.cancel()
	})

	test('HEAD answers the headers without a body', async () => {
		const response = await getFile(videoId, { cookie: student.cookie, method: 'HEAD' })
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Length')).toBe('4096')
		expect(response.body).toBeNull()
	})
})

describe('with an S3 store', () => {
	let s3: TestS3Server
	let storage: S3FileStorage
	beforeAll(async () => {
		s3 = await startS3Server()
		storage = s3StorageOn(s3)
	})
	afterAll(async () => {
		setStorage(files.storage)
		await s3?.stop()
	})

	test('redirects to a presigned URL that expires within 5 minutes and serves the file', async () => {
		const itemId = await storeItem('lesson.pdf', PDF_BYTES, { contentType: 'application/pdf', storage })
		setStorage(storage)
		const response = await getFile(itemId, { cookie: student.cookie })
		expect(response.status).toBe(302)
		expect(response.headers.get('Cache-Control')).toContain('private')
		const location = new URL(response.headers.get('Location')!)
		expect(location.origin).toBe(s3.endpoint)
		// The store's own origin: there the file has none of the site's cookies or access, which the sandbox would otherwise take away.
		expect(location.origin).not.toBe(new URL(getEnv().APP_URL).origin)
		expect(location.origin).not.toBe('http://localhost')
		expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300)
		const fetched = await fetch(location)
		expect(fetched.status).toBe(200)
		expect(fetched.headers.get('Content-Disposition')).toContain('inline')
		expect(new Uint8Array(await fetched.arrayBuffer())).toEqual(PDF_BYTES)

		const outsider = await signedInUser(t.db, { name: 'Someone' })
		expect((await getFile(itemId, { cookie: outsider.cookie })).status).toBe(403)
	})

	test("a store whose presigned URLs would be on the site's own origin is not redirected to: the file is streamed in the sandbox", async () => {
		const itemId = await storeItem('same-origin.pdf', PDF_BYTES, { contentType: 'application/pdf', storage })
		setStorage(storage)
		const appUrl = process.env.APP_URL
		process.env.APP_URL = s3.endpoint
		resetEnvCache()
		try {
			const response = await getFile(itemId, { cookie: student.cookie })
			expect(response.status).toBe(200)
			expect(response.headers.get('Location')).toBeNull()
			expect(response.headers.get('Content-Security-Policy')).toBe('sandbox')
			expect(response.headers.get('Content-Disposition')).toMatch(/^inline/)
			expect(new Uint8Array(await response.arrayBuffer())).toEqual(PDF_BYTES)
		} finally {
			if (appUrl === undefined) delete process.env.APP_URL
			else process.env.APP_URL = appUrl
			resetEnvCache()
		}
	})
})
