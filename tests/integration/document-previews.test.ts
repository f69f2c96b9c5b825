/**
 * Office documents are made viewable on the server (docs/decisions/028): an upload asks for a
 * PDF preview in its own transaction, a job makes it with the real LibreOffice, the viewer shows
 * it to whoever may read the material, and without a converter the online viewer gets a
 * short-lived signed link instead.
 */
import { sql } from 'kysely'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { makeDocumentPreview, requestDocumentPreviews } from '#app/models/materials/document-previews.server.ts'
import { previewKeyOf } from '#app/models/materials/stored-files.server.ts'
import { action as uploadsAction } from '#app/routes/admin/uploads.tsx'
import { loader as viewerLoader } from '#app/routes/dashboard/material-viewer.tsx'
import { loader as previewLoader } from '#app/routes/resources/material-preview.ts'
import { loader as sharedLoader } from '#app/routes/resources/material-shared.ts'
import {
	type DocumentConverter,
	detectDocumentConverter,
	previewsStartupLine,
	setDocumentConverter,
} from '#app/services/documents/converter.server.ts'
import { signedPath } from '#app/services/storage/signed-links.server.ts'
import { getEnv, resetEnvCache } from '#app/utils/env.server.ts'
import { sampleDocx } from '#db/seed/sample-files.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertUser } from '#tests/support/fixtures.ts'
import { callRoute, getRequest, sessionCookieFor } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
const DOCX = sampleDocx({ title: 'Tenant Screening', paragraphs: ['Check income and references.'], checklist: ['Income', 'References'] })
let converter: DocumentConverter

beforeAll(async () => {
	const found = await detectDocumentConverter({ LIBREOFFICE_PATH: undefined })
	if (!found) throw new Error('LibreOffice (soffice) is needed for these tests: npm test installs it when run as root.')
	converter = found
})
afterEach(() => {
	setDocumentConverter(undefined)
	delete process.env.APP_URL
	resetEnvCache()
})

async function uploadDocx(title: string) {
	const adminId = await insertUser(t.db, { role: 'admin' })
	const course = await insertCourse(t.db, { capacity: 5 })
	const body = new FormData()
	body.append('courseId', String(course.id))
	body.append('weekNumber', '1')
	body.append('topic', 'Screening')
	body.append('materialFiles', new File([DOCX as Uint8Array<ArrayBuffer>], `${title}.docx`))
	const response = await callRoute(
		uploadsAction,
		new Request('http://localhost/dashboard/admin/uploads', { method: 'POST', body, headers: { Cookie: await sessionCookieFor(adminId) } }),
	)
	expect(response.status).toBe(302)
	const item = await t.db
		.selectFrom('material_items')
		.innerJoin('course_materials', 'course_materials.id', 'material_items.material_id')
		.select(['material_items.id', 'storage_key', 'preview_status', 'preview_for_key'])
		.where('course_materials.course_id', '=', course.id)
		.executeTakeFirstOrThrow()
	const student = await insertUser(t.db)
	await insertEnrollment(t.db, { userId: student, courseId: course.id })
	return { item, courseId: course.id, student, stranger: await insertUser(t.db) }
}

const previewJobs = async (itemId: number) =>
	(
		await sql<{ count: number }>`SELECT count(*)::int AS count FROM graphile_worker.jobs
			WHERE task_identifier = 'make-document-preview' AND key = ${`make-document-preview:${itemId}`}`.execute(t.db)
	).rows[0]!.count

async function viewerItem(itemId: number, userId: string) {
	const response = await callRoute(viewerLoader, getRequest(`/dashboard/materials/${itemId}`, { cookie: await sessionCookieFor(userId) }), {
		itemId: String(itemId),
	})
	expect(response.status).toBe(200)
	return (
		(await response.json()) as {
			item: { previewUrl: string | null; previewPending: boolean; officeSourceUrl: string | null; previewsOff: boolean }
		}
	).item
}

describe('with LibreOffice', () => {
	test('an uploaded Word file is previewed as a PDF that only readers of the course get', async () => {
		const { item, student, stranger } = await uploadDocx('screening')
		expect(item).toMatchObject({ preview_status: 'pending', preview_for_key: item.storage_key })
		expect(await previewJobs(item.id)).toBe(1)
		expect(await viewerItem(item.id, student)).toMatchObject({ previewUrl: null, previewPending: true })

		expect(await makeDocumentPreview(t.db, files.storage, converter, item.id)).toBe('ready')
		const pdf = await files.storage.get(previewKeyOf(item.storage_key!))
		expect(pdf?.contentType).toBe('application/pdf')
		expect(await viewerItem(item.id, student)).toMatchObject({ previewUrl: `/files/materials/${item.id}/preview`, previewPending: false })

		const served = await callRoute(
			previewLoader,
			getRequest(`/files/materials/${item.id}/preview`, { cookie: await sessionCookieFor(student) }),
			{
				itemId: String(item.id),
			},
		)
		expect(served.status).toBe(200)
		expect(served.headers.get('Content-Type')).toBe('application/pdf')
		expect(served.headers.get('Content-Security-Policy')).toBe('sandbox')
		expect(
			Buffer.from(await served.arrayBuffer())
				.subarray(0, 5)
				.toString('latin1'),
		).toBe('%PDF-')

		const refused = await callRoute(
			previewLoader,
			getRequest(`/files/materials/${item.id}/preview`, { cookie: await sessionCookieFor(stranger) }),
			{
				itemId: String(item.id),
			},
		)
		expect(refused.status).toBe(403)
		expect(await refused.text()).not.toContain('%PDF')
		// A cold LibreOffice start on a busy machine takes longer than Vitest's default 30 s; the
		// converter itself allows a conversion 120 s.
	}, 120_000)

	test('a job for a file that was replaced meanwhile stores nothing; the new file gets its own preview', async () => {
		const { item } = await uploadDocx('replaced')
		await t.db
			.updateTable('material_items')
			.set({ storage_key: `${item.storage_key}-new` })
			.where('id', '=', item.id)
			.execute()
		expect(await makeDocumentPreview(t.db, files.storage, converter, item.id)).toBe('skipped')
		expect(await files.storage.stat(previewKeyOf(item.storage_key!))).toBeNull()
		const requested = await t.db.transaction().execute((trx) => requestDocumentPreviews(trx))
		expect(requested).toBeGreaterThanOrEqual(1)
		const row = await t.db
			.selectFrom('material_items')
			.select(['preview_status', 'preview_for_key'])
			.where('id', '=', item.id)
			.executeTakeFirstOrThrow()
		expect(row).toEqual({ preview_status: 'pending', preview_for_key: `${item.storage_key}-new` })
	})
})

describe('without a converter', () => {
	test('the item is marked unavailable and the online viewer gets a signed link that expires', async () => {
		const { item, student } = await uploadDocx('no-converter')
		expect(await makeDocumentPreview(t.db, files.storage, null, item.id)).toBe('unavailable')
		process.env.APP_URL = 'https://school.example'
		resetEnvCache()
		const { officeSourceUrl, previewUrl } = await viewerItem(item.id, student)
		expect(previewUrl).toBeNull()
		const link = new URL(officeSourceUrl!)
		expect(link.pathname).toBe(`/files/materials/${item.id}/shared`)

		// The online viewer fetches it with no cookie of the student's.
		const fetched = await callRoute(sharedLoader, new Request(`http://localhost${link.pathname}${link.search}`), {
			itemId: String(item.id),
		})
		expect(fetched.status).toBe(200)
		expect(fetched.headers.get('Content-Security-Policy')).toBe('sandbox')
		expect(new Uint8Array(await fetched.arrayBuffer())).toEqual(DOCX)

		const secret = getEnv().SESSION_SECRET
		const expired = signedPath(secret, link.pathname, 60, Date.now() - 3_600_000)
		const forged = `${link.pathname}?expires=${link.searchParams.get('expires')}&signature=${'A'.repeat(43)}`
		for (const path of [expired, forged, link.pathname]) {
			const response = await callRoute(sharedLoader, new Request(`http://localhost${path}`), { itemId: String(item.id) })
			expect(response.status, path).toBe(403)
		}
		// A link signed for one item does not open another.
		const other = await callRoute(
			sharedLoader,
			new Request(`http://localhost${link.pathname.replace(String(item.id), String(item.id + 1))}${link.search}`),
			{
				itemId: String(item.id + 1),
			},
		)
		expect(other.status).toBe(403)
	})

	test('on a site the internet cannot reach (localhost) no link is handed out: the viewer offers the download', async () => {
		const { item, student } = await uploadDocx('localhost')
		await makeDocumentPreview(t.db, files.storage, null, item.id)
		expect(await viewerItem(item.id, student)).toMatchObject({ officeSourceUrl: null, previewUrl: null, previewPending: false })
	})

	test('LIBREOFFICE_PATH naming a missing program finds no converter: the viewer says previews are off, the start-up line how to turn them on', async () => {
		const env = { LIBREOFFICE_PATH: '/nowhere/soffice' }
		const missing = await detectDocumentConverter(env)
		expect(missing).toBeNull()
		const { item, student } = await uploadDocx('previews-off')
		await makeDocumentPreview(t.db, files.storage, missing, item.id)
		expect(await viewerItem(item.id, student)).toMatchObject({ officeSourceUrl: null, previewUrl: null, previewsOff: true })
		const line = previewsStartupLine(missing, env)
		expect(line).toMatch(/^Office previews are off \(LibreOffice not found at \/nowhere\/soffice\)/)
		expect(line).toContain('To turn them on, install LibreOffice')
		expect(line).not.toContain('\n')
		expect(previewsStartupLine(null, { LIBREOFFICE_PATH: 'off' })).toMatch(/^Office previews are off \(LIBREOFFICE_PATH=off\)/)

		setDocumentConverter(converter)
		expect(await viewerItem(item.id, student)).toMatchObject({ previewsOff: false })
		expect(previewsStartupLine(converter, { LIBREOFFICE_PATH: undefined })).toBe(`Office previews: ${converter.version}`)
	})
})
