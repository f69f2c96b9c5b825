import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { action as materialsAction, loader as materialsLoader } from '#app/routes/admin/course-materials.tsx'
import { action as editAction, loader as editLoader } from '#app/routes/admin/week-edit.tsx'
import { setStorage } from '#app/services/storage/index.server.ts'
import type { FileStorage } from '#app/services/storage/storage.ts'
import { sampleClassRecording, samplePdf } from '#db/seed/sample-files.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertWeek } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, signedInUser } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
let sequence = 0

const PDF = await samplePdf({ title: 'Guide', subtitle: 'Week', sections: [] })
const MP4 = await sampleClassRecording()

afterEach(() => setStorage(files.storage))

function admin() {
	return signedInUser(t.db, { role: 'admin' })
}

type Fields = Record<string, string | { name: string; bytes: Uint8Array }>

function multipart(pathname: string, cookie: string, fields: Array<[string, Fields[string]]>) {
	const body = new FormData()
	for (const [name, value] of fields) {
		if (typeof value === 'string') body.append(name, value)
		else body.append(name, new File([value.bytes as Uint8Array<ArrayBuffer>], value.name))
	}
	return new Request(`http://localhost${pathname}`, { method: 'POST', body, headers: { Cookie: cookie } })
}

/** A course with week 1 ('Intro': two PDFs, a recording, a YouTube link), uploaded through the screen's own form. */
async function courseWithWeek(cookie: string) {
	sequence += 1
	const course = await insertCourse(t.db, { title: `Materials Course ${sequence}` })
	const pathname = `/dashboard/admin/courses/${course.id}/materials`
	const response = await callRoute(
		materialsAction,
		multipart(pathname, cookie, [
			['courseId', String(course.id)],
			['weekNumber', '1'],
			['topic', 'Intro'],
			['materialFiles', { name: 'guide.pdf', bytes: PDF }],
			['materialFiles', { name: 'checklist.pdf', bytes: PDF }],
			['recordingFiles', { name: 'class.mp4', bytes: MP4 }],
			['youtubeUrl', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
		]),
		{ courseId: String(course.id) },
	)
	expect(response.status).toBe(302)
	const week = await t.db.selectFrom('course_materials').selectAll().where('course_id', '=', course.id).executeTakeFirstOrThrow()
	const items = await t.db.selectFrom('material_items').selectAll().where('material_id', '=', week.id).orderBy('id').execute()
	return { courseId: course.id, pathname, week, items, byTitle: (title: string) => items.find((item) => item.title === title)! }
}

function stored(key: string | null) {
	return key !== null && fs.existsSync(path.join(files.dir, ...key.split('/')))
}

async function toastOf(response: Response) {
	const cookie = response.headers.get('Set-Cookie') ?? ''
	const value = decodeURIComponent(/toast=([^;]*)/.exec(cookie)?.[1] ?? '')
	const json = JSON.parse(atob(value.split('.')[0]!)) as { title: string; type: string }
	return { type: json.type, title: json.title }
}

async function loadScreen(pathname: string, cookie: string, courseId: number, search = '') {
	const response = await callRoute(materialsLoader, getRequest(`${pathname}${search}`, { cookie }), { courseId: String(courseId) })
	return (await response.json()) as Awaited<ReturnType<typeof materialsLoader>>
}

describe('Manage Course Materials', () => {
	test('lists the weeks with their files and the totals', async () => {
		const { cookie } = await admin()
		const { courseId, pathname } = await courseWithWeek(cookie)
		const screen = await loadScreen(pathname, cookie, courseId)
		expect(screen.counts).toEqual({ total: 4, materials: 2, recordings: 2 })
		expect(screen.weeks).toHaveLength(1)
		const rows = screen.weeks[0]!.items.map((item) => [item.category, item.title, item.kind].join(' '))
		// Class materials first, then recordings (each by title, in the database's collation).
		expect(rows.slice(0, 2).sort()).toEqual(['material checklist.pdf pdf', 'material guide.pdf pdf'])
		expect(rows.slice(2).sort()).toEqual(['recording YouTube: Intro youtube', 'recording class.mp4 video'])
	})

	test('deleting a file removes its row and its stored file, and Show Last SQL shows that statement', async () => {
		const { cookie } = await admin()
		const other = await admin()
		const { courseId, pathname, byTitle } = await courseWithWeek(cookie)
		const guide = byTitle('guide.pdf')

		const empty = await loadScreen(pathname, cookie, courseId, '?dialog=last-sql')
		expect(empty.lastSql).toBeNull()

		const response = await callRoute(
			materialsAction,
			formRequest(pathname, { intent: 'delete-item', itemId: String(guide.id) }, { cookie }),
			{ courseId: String(courseId) },
		)
		expect(response.status).toBe(302)
		expect(await toastOf(response)).toEqual({ type: 'success', title: 'Material deleted successfully' })
		expect(await t.db.selectFrom('material_items').select('id').where('id', '=', guide.id).executeTakeFirst()).toBeUndefined()
		expect(stored(guide.storage_key)).toBe(false)

		const screen = await loadScreen(pathname, cookie, courseId, '?dialog=last-sql')
		expect(screen.lastSql?.sql).toMatch(
			/^delete from "material_items" where "id" = \$1 and "material_id" in \(select "id" from "course_materials" where "course_id" = \$2\) returning/,
		)
		expect(screen.lastSql?.parameters).toEqual([guide.id, courseId])
		expect(screen.lastSql?.result).toEqual([{ id: guide.id, material_id: guide.material_id }])
		// Another admin's last delete is their own.
		expect((await loadScreen(pathname, other.cookie, courseId, '?dialog=last-sql')).lastSql).toBeNull()

		const again = await callRoute(materialsAction, formRequest(pathname, { intent: 'delete-item', itemId: String(guide.id) }, { cookie }), {
			courseId: String(courseId),
		})
		expect(await toastOf(again)).toEqual({ type: 'error', title: 'Failed to delete material: Material not found' })
	})

	test('deleting a week removes its items and, after commit, their files', async () => {
		const { cookie } = await admin()
		const { courseId, pathname, week, items } = await courseWithWeek(cookie)
		const response = await callRoute(
			materialsAction,
			formRequest(pathname, { intent: 'delete-week', weekId: String(week.id) }, { cookie }),
			{ courseId: String(courseId) },
		)
		expect(await toastOf(response)).toEqual({ type: 'success', title: 'Week 1: Intro deleted successfully' })
		expect(await t.db.selectFrom('material_items').select('id').where('material_id', '=', week.id).execute()).toEqual([])
		for (const item of items) if (item.storage_key) expect(stored(item.storage_key)).toBe(false)
		const screen = await loadScreen(pathname, cookie, courseId, '?dialog=last-sql')
		expect(screen.lastSql?.sql).toMatch(/^delete from "course_materials" where "id" = \$1 and "course_id" = \$2/)
		expect(screen.lastSql?.result).toEqual([{ id: week.id, week_number: 1, topic: 'Intro' }])
	})

	test('a file the store fails to delete is logged and left behind; the week is gone all the same', async () => {
		const { cookie } = await admin()
		const { courseId, pathname, week, items } = await courseWithWeek(cookie)
		const log = vi.spyOn(console, 'error').mockImplementation(() => {})
		setStorage(
			Object.assign(Object.create(files.storage) as FileStorage, { deleteMany: async () => Promise.reject(new Error('store down')) }),
		)
		const response = await callRoute(
			materialsAction,
			formRequest(pathname, { intent: 'delete-week', weekId: String(week.id) }, { cookie }),
			{ courseId: String(courseId) },
		)
		expect(await toastOf(response)).toEqual({ type: 'success', title: 'Week 1: Intro deleted successfully' })
		expect(await t.db.selectFrom('course_materials').select('id').where('id', '=', week.id).executeTakeFirst()).toBeUndefined()
		expect(items.filter((item) => item.storage_key).every((item) => stored(item.storage_key))).toBe(true)
		expect(log).toHaveBeenCalled()
	})

	test('a week of another course cannot be deleted through this one', async () => {
		const { cookie } = await admin()
		const first = await courseWithWeek(cookie)
		const second = await courseWithWeek(cookie)
		const response = await callRoute(
			materialsAction,
			formRequest(second.pathname, { intent: 'delete-week', weekId: String(first.week.id) }, { cookie }),
			{ courseId: String(second.courseId) },
		)
		expect(await toastOf(response)).toEqual({ type: 'error', title: 'Failed to delete course material: Week not found' })
		expect(await t.db.selectFrom('course_materials').select('id').where('id', '=', first.week.id).executeTakeFirst()).toBeDefined()
	})
})

describe('Edit Week & Materials', () => {
	function editRequest(pathname: string, cookie: string, fields: Array<[string, Fields[string]]>) {
		return multipart(pathname, cookie, fields)
	}

	test('renames the week, replaces a file, adds one item and deletes another in one save', async () => {
		const { id: adminId, cookie } = await admin()
		const { courseId, pathname, week, items, byTitle } = await courseWithWeek(cookie)
		const editPath = `${pathname}/${week.id}/edit`
		const params = { courseId: String(courseId), weekId: String(week.id) }
		const loaded = (await (await callRoute(editLoader, getRequest(editPath, { cookie }), params)).json()) as { week: { items: unknown[] } }
		expect(loaded.week.items).toHaveLength(4)

		const guide = byTitle('guide.pdf')
		const checklist = byTitle('checklist.pdf')
		const fields: Array<[string, Fields[string]]> = [
			['weekNumber', '2'],
			['topic', 'Finding Deals'],
			['zoomLink', 'https://zoom.us/j/42'],
		]
		items.forEach((item, index) => {
			fields.push([`materials[${index}].id`, String(item.id)])
			fields.push([`materials[${index}].title`, item.id === guide.id ? 'Deal Guide' : item.title])
			fields.push([`materials[${index}].category`, item.category])
			if (item.id === guide.id) fields.push([`materials[${index}].file`, { name: 'deal-guide-v2.pdf', bytes: PDF }])
			if (item.id === checklist.id) fields.push([`materials[${index}].delete`, 'on'])
		})
		fields.push(
			['newMaterials[0].title', 'Extra Recording'],
			['newMaterials[0].category', 'recording'],
			['newMaterials[0].file', { name: 'extra.mp4', bytes: MP4 }],
		)
		// An unused empty row (the page without JavaScript offers two) is ignored.
		fields.push(['newMaterials[1].title', ''], ['newMaterials[1].category', 'material'])

		const response = await callRoute(editAction, editRequest(editPath, cookie, fields), params)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(pathname)
		expect(await toastOf(response)).toEqual({ type: 'success', title: 'Week and materials updated successfully' })

		const saved = await t.db.selectFrom('course_materials').selectAll().where('id', '=', week.id).executeTakeFirstOrThrow()
		expect(saved).toMatchObject({ week_number: 2, topic: 'Finding Deals', zoom_link: 'https://zoom.us/j/42' })
		const after = await t.db.selectFrom('material_items').selectAll().where('material_id', '=', week.id).orderBy('title').execute()
		expect(after.map((item) => item.title).sort()).toEqual(['Deal Guide', 'Extra Recording', 'YouTube: Intro', 'class.mp4'].sort())
		const replaced = after.find((item) => item.id === guide.id)!
		expect(replaced.storage_key).toMatch(/-deal-guide-v2\.pdf$/)
		expect(stored(replaced.storage_key)).toBe(true)
		expect(stored(guide.storage_key)).toBe(false)
		expect(stored(checklist.storage_key)).toBe(false)
		const extra = after.find((item) => item.title === 'Extra Recording')!
		expect(extra).toMatchObject({ category: 'recording', type: 'video', mime_type: 'video/mp4' })
		expect(stored(extra.storage_key)).toBe(true)
		const audit = await t.db
			.selectFrom('audit_log')
			.select(['action', 'details'])
			.where('actor_id', '=', adminId)
			.where('action', '=', 'week.update')
			.executeTakeFirstOrThrow()
		expect(audit.details).toMatchObject({ updated: 3, replaced: 1, deleted: 1, added: 1 })
	})

	test('an unchanged Save All Changes (the form without JavaScript) writes nothing, records no audit entry and says so', async () => {
		const { id: adminId, cookie } = await admin()
		const { courseId, pathname, week } = await courseWithWeek(cookie)
		const editPath = `${pathname}/${week.id}/edit`
		const params = { courseId: String(courseId), weekId: String(week.id) }
		type LoadedWeek = {
			weekNumber: number
			topic: string
			zoomLink: string | null
			items: Array<{ id: number; title: string; category: string }>
		}
		const loaded = ((await (await callRoute(editLoader, getRequest(editPath, { cookie }), params)).json()) as { week: LoadedWeek }).week
		const before = await t.db.selectFrom('course_materials').select('updated_at').where('id', '=', week.id).executeTakeFirstOrThrow()
		// The form as the server drew it, sent back untouched: its two empty new rows included.
		const fields: Array<[string, Fields[string]]> = [
			['weekNumber', String(loaded.weekNumber)],
			['topic', loaded.topic],
			['zoomLink', loaded.zoomLink ?? ''],
		]
		loaded.items.forEach((item, index) => {
			fields.push(
				[`materials[${index}].id`, String(item.id)],
				[`materials[${index}].title`, item.title],
				[`materials[${index}].category`, item.category],
			)
		})
		fields.push(['newMaterials[0].title', ''], ['newMaterials[0].category', 'material'])
		fields.push(['newMaterials[1].title', ''], ['newMaterials[1].category', 'material'])

		const response = await callRoute(editAction, editRequest(editPath, cookie, fields), params)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(pathname)
		expect(await toastOf(response)).toEqual({ type: 'info', title: 'Nothing to save: the week and its materials are unchanged.' })
		const after = await t.db.selectFrom('course_materials').select('updated_at').where('id', '=', week.id).executeTakeFirstOrThrow()
		expect(after.updated_at).toEqual(before.updated_at)
		expect(
			await t.db.selectFrom('audit_log').select('id').where('actor_id', '=', adminId).where('action', '=', 'week.update').execute(),
		).toEqual([])
	})

	test('validation: week number, topic, Zoom link, titles and a file for a new material', async () => {
		const { cookie } = await admin()
		const { courseId, pathname, week, items } = await courseWithWeek(cookie)
		const editPath = `${pathname}/${week.id}/edit`
		const params = { courseId: String(courseId), weekId: String(week.id) }
		const first = items[0]!
		const response = await callRoute(
			editAction,
			editRequest(editPath, cookie, [
				['weekNumber', '0'],
				['topic', ''],
				['zoomLink', 'zoom meeting'],
				['materials[0].id', String(first.id)],
				['materials[0].title', ''],
				['materials[0].category', 'material'],
				['newMaterials[0].title', 'Needs a file'],
				['newMaterials[0].category', 'material'],
			]),
			params,
		)
		expect(response.status).toBe(400)
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error).toMatchObject({
			weekNumber: ['Week number must be 1 or greater'],
			topic: ['Topic is required'],
			zoomLink: ['Please enter a valid URL (starting with https://)'],
			'materials[0].title': ['Title is required'],
			'newMaterials[0].file': ['Please choose a file for the new material'],
		})
		expect(await t.db.selectFrom('course_materials').select('topic').where('id', '=', week.id).executeTakeFirstOrThrow()).toEqual({
			topic: 'Intro',
		})
	})

	test('a week number another week of the course has is refused and nothing changes', async () => {
		const { cookie } = await admin()
		const { courseId, pathname, week } = await courseWithWeek(cookie)
		await insertWeek(t.db, { courseId, weekNumber: 5, topic: 'Five' })
		const editPath = `${pathname}/${week.id}/edit`
		const response = await callRoute(
			editAction,
			editRequest(editPath, cookie, [
				['weekNumber', '5'],
				['topic', 'Renamed'],
				['newMaterials[0].title', 'Slides'],
				['newMaterials[0].category', 'material'],
				['newMaterials[0].file', { name: 'slides.pdf', bytes: PDF }],
			]),
			{ courseId: String(courseId), weekId: String(week.id) },
		)
		expect(response.status).toBe(409)
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error.weekNumber).toEqual(['Failed to update: Week 5 already exists for this course.'])
		expect(await t.db.selectFrom('course_materials').select('topic').where('id', '=', week.id).executeTakeFirstOrThrow()).toEqual({
			topic: 'Intro',
		})
		expect(await t.db.selectFrom('material_items').select('id').where('title', '=', 'Slides').execute()).toEqual([])
		const leftovers = fs.readdirSync(files.dir, { recursive: true }).filter((name) => String(name).endsWith('-slides.pdf'))
		expect(leftovers).toEqual([])
	})

	test('a storage failure while saving changes nothing', async () => {
		const { cookie } = await admin()
		const { courseId, pathname, week, items } = await courseWithWeek(cookie)
		vi.spyOn(console, 'error').mockImplementation(() => {})
		setStorage(Object.assign(Object.create(files.storage) as FileStorage, { put: async () => Promise.reject(new Error('bucket gone')) }))
		const first = items[0]!
		const response = await callRoute(
			editAction,
			editRequest(`${pathname}/${week.id}/edit`, cookie, [
				['weekNumber', '1'],
				['topic', 'Renamed'],
				['materials[0].id', String(first.id)],
				['materials[0].title', first.title],
				['materials[0].category', first.category],
				['materials[0].file', { name: 'new.pdf', bytes: PDF }],
			]),
			{ courseId: String(courseId), weekId: String(week.id) },
		)
		expect(response.status).toBe(503)
		const body = (await response.json()) as { result: { error: Record<string, string[]> } }
		expect(body.result.error['']).toEqual([
			'Failed to update: The file storage could not save "new.pdf", so nothing was saved. Please try again later.',
		])
		expect(await t.db.selectFrom('course_materials').select('topic').where('id', '=', week.id).executeTakeFirstOrThrow()).toEqual({
			topic: 'Intro',
		})
		expect(await t.db.selectFrom('material_items').select('storage_key').where('id', '=', first.id).executeTakeFirstOrThrow()).toEqual({
			storage_key: first.storage_key,
		})
	})

	test("without JavaScript, 'Add Material' posts the form for one more row and saves nothing", async () => {
		const { cookie } = await admin()
		const { courseId, pathname, week } = await courseWithWeek(cookie)
		const response = await callRoute(
			editAction,
			editRequest(`${pathname}/${week.id}/edit`, cookie, [
				['weekNumber', '1'],
				['topic', 'Typed but not saved'],
				['__intent__', JSON.stringify({ type: 'insert', payload: { name: 'newMaterials', defaultValue: { category: 'material' } } })],
				['newMaterials[0].title', 'Kept text'],
				['newMaterials[0].category', 'material'],
				['newMaterials[0].file', { name: 'early.pdf', bytes: PDF }],
				['newMaterials[1].title', ''],
				['newMaterials[1].category', 'material'],
			]),
			{ courseId: String(courseId), weekId: String(week.id) },
		)
		expect(response.status).toBe(200)
		const body = (await response.json()) as { result: { initialValue: { topic: string; newMaterials: Array<{ title?: string }> } } }
		expect(body.result.initialValue.topic).toBe('Typed but not saved')
		expect(body.result.initialValue.newMaterials.map((row) => row.title ?? '')).toEqual(['Kept text', '', ''])
		expect(await t.db.selectFrom('course_materials').select('topic').where('id', '=', week.id).executeTakeFirstOrThrow()).toEqual({
			topic: 'Intro',
		})
		expect(fs.readdirSync(files.dir, { recursive: true }).filter((name) => String(name).endsWith('-early.pdf'))).toEqual([])
	})

	test('an unknown week is a 404', async () => {
		const { cookie } = await admin()
		const { courseId, pathname } = await courseWithWeek(cookie)
		const response = await callRoute(editLoader, getRequest(`${pathname}/999999/edit`, { cookie }), {
			courseId: String(courseId),
			weekId: '999999',
		})
		expect(response.status).toBe(404)
	})
})

describe('assignments on the course screen', () => {
	test('an admin creates an assignment for a week, with a due date, audited', async () => {
		const { id: adminId, cookie } = await admin()
		const { courseId, pathname, week } = await courseWithWeek(cookie)
		const response = await callRoute(
			materialsAction,
			formRequest(
				pathname,
				{
					intent: 'create-assignment',
					title: 'Deal Worksheet',
					instructions: 'Analyse one deal.',
					weekId: String(week.id),
					dueDate: '2030-05-01',
				},
				{ cookie },
			),
			{ courseId: String(courseId) },
		)
		expect(await toastOf(response)).toEqual({ type: 'success', title: 'Assignment created successfully' })
		const assignment = await t.db.selectFrom('assignments').selectAll().where('course_id', '=', courseId).executeTakeFirstOrThrow()
		expect(assignment).toMatchObject({ title: 'Deal Worksheet', instructions: 'Analyse one deal.', week_id: week.id, created_by: adminId })
		expect(assignment.due_at?.toISOString()).toBe('2030-05-01T23:59:59.000Z')
		const screen = await loadScreen(pathname, cookie, courseId)
		expect(screen.assignments.map((row) => [row.title, row.weekNumber, row.submissions])).toEqual([['Deal Worksheet', 1, 0]])

		const invalid = await callRoute(materialsAction, formRequest(pathname, { intent: 'create-assignment', title: '' }, { cookie }), {
			courseId: String(courseId),
		})
		expect(invalid.status).toBe(400)
	})
})
