import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createUser } from '#app/models/accounts/users.server.ts'
import { cleanUpOrphans, findOrphanedMaterials, ORPHAN_GRACE_MS } from '#app/models/materials/orphans.server.ts'
import { action, loader } from '#app/routes/admin/orphaned-materials.tsx'
import { loader as orphanFileLoader } from '#app/routes/resources/orphan-file.ts'
import { materialKey } from '#app/services/storage/keys.ts'
import type { S3FileStorage } from '#app/services/storage/s3.server.ts'
import type { FileStorage } from '#app/services/storage/storage.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertMaterialItem, insertWeek } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor, signedInUser } from '#tests/support/requests.ts'
import { startS3Server, type TestS3Server } from '#tests/support/s3-server.ts'
import { s3StorageOn } from '#tests/support/s3-storage.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
let sequence = 0
const PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n')
/** Past the grace period of every file stored during the test. */
const later = () => new Date(Date.now() + ORPHAN_GRACE_MS + 60_000)

function toastTitle(response: Response) {
	const value = decodeURIComponent(/toast=([^;]*)/.exec(response.headers.get('Set-Cookie') ?? '')?.[1] ?? '')
	return (JSON.parse(atob(value.split('.')[0]!)) as { title: string }).title
}

function admin() {
	return signedInUser(t.db, { role: 'admin' })
}

/** A course with one week and one referenced file; returns what an orphan needs to look real. */
async function liveWeek(storage: FileStorage) {
	sequence += 1
	const course = await insertCourse(t.db, { title: `Orphan Course ${sequence}` })
	const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: 3, topic: 'Still Here' })
	const key = materialKey(course.id, weekId, 'material', 'kept.pdf')
	await storage.put(key, PDF, { contentType: 'application/pdf' })
	await insertMaterialItem(t.db, {
		courseId: course.id,
		weekId,
		title: 'kept.pdf',
		storageKey: key,
		mimeType: 'application/pdf',
		sizeBytes: PDF.length,
	})
	return { courseId: course.id, weekId, key }
}

/** Files under a course id and week id that no row has (a course deleted while the store was down). */
async function orphanFiles(storage: FileStorage, count: number, { courseId = 900_000 + sequence++, weekId = 800_000 + sequence++ } = {}) {
	const keys: string[] = []
	for (let index = 0; index < count; index += 1) {
		const key = materialKey(courseId, weekId, index % 2 === 0 ? 'material' : 'recording', `file-${index}.pdf`)
		await storage.put(key, PDF, { contentType: 'application/pdf' })
		keys.push(key)
	}
	return { courseId, weekId, keys }
}

describe('on the local file store', () => {
	beforeEach(() => {
		fs.rmSync(path.join(files.dir, 'courses'), { recursive: true, force: true })
	})

	test('lists exactly the unreferenced files, grouped by course and week, with the topic of a week that still exists', async () => {
		const live = await liveWeek(files.storage)
		const gone = await orphanFiles(files.storage, 5)
		// A file left in a week that still exists (a failed delete of one item).
		const stray = await orphanFiles(files.storage, 1, { courseId: live.courseId, weekId: live.weekId })
		// Not a material key at all: not ours to offer.
		await files.storage.put('courses/readme.txt', PDF, { contentType: 'text/plain' })

		const groups = await findOrphanedMaterials(t.db, files.storage, { now: later() })
		expect(groups.map((group) => [group.courseId, group.weekId, group.weekNumber, group.topic, group.files.length])).toEqual(
			[
				[live.courseId, live.weekId, 3, 'Still Here', 1],
				[gone.courseId, gone.weekId, null, null, 5],
			].sort((a, b) => Number(a[0]) - Number(b[0])),
		)
		const all = groups.flatMap((group) => group.files.map((file) => file.key)).sort()
		expect(all).toEqual([...gone.keys, ...stray.keys].sort())
		expect(groups.find((group) => group.courseId === gone.courseId)!.files[1]).toMatchObject({ name: 'file-1.pdf', category: 'recording' })
		// Within the grace period nothing is offered: an upload may still be about to reference it.
		expect(await findOrphanedMaterials(t.db, files.storage)).toEqual([])
	})

	test('an admin downloads an orphan by its key; keys of other files and other visitors get nothing', async () => {
		const { cookie } = await admin()
		const gone = await orphanFiles(files.storage, 1)
		const key = gone.keys[0]!
		const download = (fileKey: string, session = cookie) =>
			callRoute(orphanFileLoader, getRequest(`/files/orphaned-materials?${new URLSearchParams({ key: fileKey })}`, { cookie: session }))

		const response = await download(key)
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Disposition')).toMatch(/^attachment;/)
		expect(new Uint8Array(await response.arrayBuffer())).toEqual(PDF)
		// A message attachment's key is not a course material: not served here, even to an admin.
		await files.storage.put('attachments/someone/secret.txt', PDF, { contentType: 'text/plain' })
		expect((await download('attachments/someone/secret.txt')).status).toBe(404)
		expect((await download('courses/../attachments/someone/secret.txt')).status).toBe(404)
		const student = await createUser(t.db, { email: `orphan-student-${sequence}@example.com`, name: 'S', password: 'password-123' })
		expect((await download(key, await sessionCookieFor(student.id))).headers.get('Location')).toBe('/dashboard')
	})

	test('the screen: count, confirm step, nothing selected, cleanup of the selection only', async () => {
		const { id: adminId, cookie } = await admin()
		const live = await liveWeek(files.storage)
		const first = await orphanFiles(files.storage, 4)
		const second = await orphanFiles(files.storage, 2)
		// Age the files past the grace period, as a file left days ago would be.
		const old = new Date(Date.now() - ORPHAN_GRACE_MS * 2)
		for (const key of [...first.keys, ...second.keys, live.key]) fs.utimesSync(path.join(files.dir, ...key.split('/')), old, old)

		const page = (await (await callRoute(loader, getRequest('/dashboard/admin/orphaned-materials', { cookie }))).json()) as Awaited<
			ReturnType<typeof loader>
		>
		expect(page.groups.map((group) => group.id)).toEqual([`${first.courseId}-${first.weekId}`, `${second.courseId}-${second.weekId}`])
		expect(page.confirming).toBeNull()

		const confirm = (await (
			await callRoute(
				loader,
				getRequest(`/dashboard/admin/orphaned-materials?confirm=1&group=${first.courseId}-${first.weekId}`, { cookie }),
			)
		).json()) as Awaited<ReturnType<typeof loader>>
		expect(confirm.confirming).toEqual([`${first.courseId}-${first.weekId}`])
		const all = (await (
			await callRoute(loader, getRequest('/dashboard/admin/orphaned-materials?confirm=1&all=1', { cookie }))
		).json()) as Awaited<ReturnType<typeof loader>>
		expect(all.confirming).toHaveLength(2)
		const none = (await (
			await callRoute(loader, getRequest('/dashboard/admin/orphaned-materials?confirm=1', { cookie }))
		).json()) as Awaited<ReturnType<typeof loader>>
		expect(none.confirming).toEqual([])

		const empty = await callRoute(action, formRequest('/dashboard/admin/orphaned-materials', {}, { cookie }))
		expect(toastTitle(empty)).toBe('No materials selected for cleanup')

		const cleaned = await callRoute(
			action,
			formRequest('/dashboard/admin/orphaned-materials', { group: `${first.courseId}-${first.weekId}` }, { cookie }),
		)
		expect(cleaned.status).toBe(302)
		expect(toastTitle(cleaned)).toBe('Successfully cleaned up 1 orphaned materials')
		for (const key of first.keys) expect(fs.existsSync(path.join(files.dir, ...key.split('/')))).toBe(false)
		for (const key of [...second.keys, live.key]) expect(fs.existsSync(path.join(files.dir, ...key.split('/')))).toBe(true)
		const audit = await t.db.selectFrom('audit_log').select(['action', 'details']).where('actor_id', '=', adminId).executeTakeFirstOrThrow()
		expect(audit).toMatchObject({ action: 'orphans.cleanup', details: { filesDeleted: 4 } })
	})

	test('cleanup checks again: a file that a row references by then is kept', async () => {
		const { id: adminId } = await admin()
		const live = await liveWeek(files.storage)
		const group = await orphanFiles(files.storage, 2, { courseId: live.courseId, weekId: live.weekId })
		await insertMaterialItem(t.db, {
			courseId: live.courseId,
			weekId: live.weekId,
			title: 'adopted',
			storageKey: group.keys[0]!,
			mimeType: 'application/pdf',
			sizeBytes: PDF.length,
		})
		const result = await cleanUpOrphans(t.db, files.storage, { adminId, groupIds: [`${live.courseId}-${live.weekId}`], now: later() })
		expect(result).toEqual({ groups: 1, files: 1 })
		expect(await files.storage.stat(group.keys[0]!)).not.toBeNull()
		expect(await files.storage.stat(group.keys[1]!)).toBeNull()
		expect(await files.storage.stat(live.key)).not.toBeNull()
	})
})

describe('on S3 (a real S3-protocol server)', () => {
	let s3: TestS3Server
	let storage: S3FileStorage

	beforeAll(async () => {
		s3 = await startS3Server({ bucket: 'orphans-test' })
		// Small pages, so the scan has to follow continuation tokens.
		storage = s3StorageOn(s3, { maxKeys: 2 })
	})

	afterAll(async () => {
		await s3?.stop()
	})

	test('the scan finds exactly the unreferenced objects, across pages, and cleanup removes only them', async () => {
		const { id: adminId } = await admin()
		const liveA = await liveWeek(storage)
		const liveB = await liveWeek(storage)
		const gone = await orphanFiles(storage, 5)
		const stray = await orphanFiles(storage, 1, { courseId: liveB.courseId, weekId: liveB.weekId })
		await storage.put(`messages/${adminId}/note.pdf`, PDF, { contentType: 'application/pdf' })

		const groups = await findOrphanedMaterials(t.db, storage, { now: later() })
		const found = groups.flatMap((group) => group.files.map((file) => file.key)).sort()
		expect(found).toEqual([...gone.keys, ...stray.keys].sort())
		expect(groups.find((group) => group.courseId === liveB.courseId)).toMatchObject({ weekNumber: 3, topic: 'Still Here' })
		expect(groups.find((group) => group.courseId === gone.courseId)).toMatchObject({ weekNumber: null, topic: null })

		const result = await cleanUpOrphans(t.db, storage, { adminId, groupIds: groups.map((group) => group.id), now: later() })
		expect(result).toEqual({ groups: 2, files: 6 })
		expect(await findOrphanedMaterials(t.db, storage, { now: later() })).toEqual([])
		for (const key of [liveA.key, liveB.key]) expect(await storage.stat(key)).not.toBeNull()
		expect(await storage.stat(`messages/${adminId}/note.pdf`)).not.toBeNull()
	})
})
