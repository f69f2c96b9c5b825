import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { materialKey } from '#app/services/storage/keys.ts'
import { samplePdf } from '#db/seed/sample-files.ts'
import type { Database } from '#db/types.ts'
import { e2eServerEnv, e2eServerStorage } from '../support/e2e-env.ts'
import { expect, test } from '../support/e2e-journeys.ts'
import { insertCourseWithWeek, storeMaterialItem } from '../support/fixtures.ts'
import { fileOverUploadLimit } from '../support/large-file.ts'

/** The e2e server keeps its files on local disk under DATA_DIR/files. */
const filesDir = path.join(e2eServerEnv().DATA_DIR, 'files')
const serverStorage = e2eServerStorage()
const PDF = Buffer.from(await samplePdf({ title: 'Week notes', subtitle: 'Intro', sections: [] }))

/** A course with week 1 'Intro' holding two stored PDFs. */
async function courseWithWeek(db: Kysely<Database>) {
	const { course, weekId } = await insertCourseWithWeek(db, {
		course: { title: `Materials Course ${randomUUID().slice(0, 8)}` },
		topic: 'Intro',
	})
	const store = (title: string) =>
		storeMaterialItem(db, serverStorage, {
			courseId: course.id,
			weekId,
			title,
			type: 'document',
			bytes: PDF,
			contentType: 'application/pdf',
		})
	const notes = await store('notes.pdf')
	const slides = await store('slides.pdf')
	return { course, weekId, notes, slides, path: `/dashboard/admin/courses/${course.id}/materials` }
}

function isStored(key: string | null) {
	return key !== null && fs.existsSync(path.join(filesDir, ...key.split('/')))
}

test('an admin edits a week: renames it, replaces a file, adds one material and deletes another', async ({
	page,
	db,
	signInAs,
	javaScriptEnabled,
}) => {
	test.slow()
	const { weekId, notes, slides, path: screen } = await courseWithWeek(db)
	await signInAs({ role: 'admin' })
	await page.goto(screen)
	await expect(page.getByRole('heading', { level: 1, name: 'Manage Course Materials' })).toBeVisible()
	await expect(page.getByText('Total materials: 2 (Class materials: 2, Recordings: 0)')).toBeVisible()
	await page.getByRole('link', { name: 'Edit All of week 1' }).click()

	const dialog = page.getByRole('dialog', { name: 'Edit Week & Materials' })
	await expect(dialog).toBeVisible()
	await expect(dialog.getByRole('heading', { name: 'Materials (2)' })).toBeVisible()
	const save = dialog.getByRole('button', { name: 'Save All Changes' })
	if (javaScriptEnabled) await expect(save).toBeDisabled()

	await dialog.getByLabel('Week Number').fill('3')
	await dialog.getByLabel('Topic').fill('Finding Deals')
	if (javaScriptEnabled) await expect(dialog.getByText('Unsaved Changes')).toBeVisible()
	await dialog.getByLabel('Title of notes.pdf').fill('Deal Notes')
	await dialog
		.getByLabel('Replace file of notes.pdf')
		.setInputFiles({ name: 'deal-notes-v2.pdf', mimeType: 'application/pdf', buffer: PDF })
	if (javaScriptEnabled) await expect(dialog.getByText('Modified')).toBeVisible()

	const deleteSlides = dialog.getByLabel('Delete of slides.pdf')
	if (!javaScriptEnabled) await deleteSlides.check()
	else {
		// With JavaScript, ticking Delete asks first.
		await deleteSlides.click()
		const confirm = page.getByRole('dialog', { name: 'Delete Material?' })
		await expect(confirm).toBeVisible()
		await confirm.getByRole('button', { name: 'Delete' }).click()
		await expect(deleteSlides).toBeChecked()
		await dialog.getByRole('button', { name: 'Add Material' }).click()
	}
	await dialog.getByLabel('Title of new material 1').fill('Comps Worksheet')
	await dialog.getByLabel('File of new material 1').setInputFiles({ name: 'comps.pdf', mimeType: 'application/pdf', buffer: PDF })
	await save.click()

	await expect(page.getByText('Week and materials updated successfully')).toBeVisible()
	await expect(dialog).toHaveCount(0)
	const row = page.getByRole('row').filter({ hasText: 'Finding Deals' })
	await expect(row.getByRole('cell', { name: 'Week 3', exact: true })).toBeVisible()
	await expect(row.getByRole('link', { name: 'Download Deal Notes' })).toBeVisible()
	await expect(row.getByRole('link', { name: 'Download Comps Worksheet' })).toBeVisible()
	await expect(row.getByRole('link', { name: 'Download slides.pdf' })).toHaveCount(0)

	const items = await db.selectFrom('material_items').select(['id', 'title', 'storage_key']).where('material_id', '=', weekId).execute()
	expect(items.map((item) => item.title).sort()).toEqual(['Comps Worksheet', 'Deal Notes'])
	const renamed = items.find((item) => item.id === notes.id)!
	expect(renamed.storage_key).toMatch(/-deal-notes-v2\.pdf$/)
	expect(isStored(renamed.storage_key)).toBe(true)
	expect(isStored(notes.storage_key)).toBe(false)
	expect(isStored(slides.storage_key)).toBe(false)
})

test('an admin deletes a file, reads the last SQL, then deletes the week', async ({ page, db, signInAs }) => {
	test.slow()
	const { weekId, notes, slides, path: screen } = await courseWithWeek(db)
	await signInAs({ role: 'admin' })
	await page.goto(screen)

	await page.getByRole('link', { name: 'Show Last SQL' }).click()
	const sqlDialog = page.getByRole('dialog', { name: 'Last SQL Operation' })
	await expect(sqlDialog.getByText('No delete operation has occurred yet.')).toBeVisible()
	await expect(sqlDialog.getByText('No result available.')).toBeVisible()
	await sqlDialog.getByRole('link', { name: 'Close', exact: true }).first().click()

	await page.getByRole('link', { name: 'Delete notes.pdf' }).click()
	const confirm = page.getByRole('dialog', { name: 'Delete Material?' })
	await expect(confirm).toBeVisible()
	await confirm.getByRole('button', { name: 'Delete' }).click()
	await expect(page.getByText('Material deleted successfully')).toBeVisible()
	await expect(page.getByText('Total materials: 1 (Class materials: 1, Recordings: 0)')).toBeVisible()
	expect(isStored(notes.storage_key)).toBe(false)

	await page.getByRole('link', { name: 'Show Last SQL' }).click()
	const lastSql = page.getByRole('dialog', { name: 'Last SQL Operation' })
	await expect(lastSql.getByText(/delete from "material_items" where "id" = \$1/)).toBeVisible()
	await expect(lastSql.getByText(/1 row\(s\) deleted/)).toBeVisible()
	await lastSql.getByRole('link', { name: 'Close', exact: true }).first().click()

	await page.getByRole('link', { name: 'Delete Week 1' }).click()
	const weekConfirm = page.getByRole('dialog', { name: 'Delete Week?' })
	await expect(weekConfirm).toContainText('Week 1: Intro')
	await weekConfirm.getByRole('button', { name: 'Delete' }).click()
	await expect(page.getByText('Week 1: Intro deleted successfully')).toBeVisible()
	await expect(page.getByText('No materials have been uploaded for this course yet.')).toBeVisible()
	expect(await db.selectFrom('course_materials').select('id').where('id', '=', weekId).executeTakeFirst()).toBeUndefined()
	expect(isStored(slides.storage_key)).toBe(false)
})

test('an orphan left by a failed storage delete is listed and cleaned up', async ({ page, signInAs, javaScriptEnabled }) => {
	// Files of a course that no longer exists, written straight into the server's store (as a
	// failed delete leaves them), and older than the grace period.
	const courseId = 2_000_000 + Math.floor(Math.random() * 1_000_000)
	const weekId = 3_000_000 + Math.floor(Math.random() * 1_000_000)
	const keys = ['a-notes.pdf', 'b-slides.pdf', 'c-budget.pdf', 'd-extra.pdf'].map((name) => materialKey(courseId, weekId, 'material', name))
	keys.push(materialKey(courseId, weekId, 'recording', 'e-class.mp4'))
	const old = new Date(Date.now() - 3 * 60 * 60 * 1000)
	for (const key of keys) {
		await serverStorage.put(key, PDF, { contentType: 'application/pdf' })
		fs.utimesSync(path.join(filesDir, ...key.split('/')), old, old)
	}

	await signInAs({ role: 'admin' })
	await page.goto('/dashboard/admin/orphaned-materials')
	await expect(page.getByRole('heading', { level: 1, name: 'Orphaned Materials Cleanup' })).toBeVisible()
	await expect(page.getByText(/^Materials from deleted courses: \d+$/)).toBeVisible()
	await expect(page.getByText('These materials are inaccessible to students but still stored.', { exact: false })).toBeVisible()
	const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(courseId), exact: true }) })
	await expect(row.getByText('5 file(s)')).toBeVisible()
	await expect(row.getByText('+2 more files...')).toBeVisible()
	// Each file shown links to it, so an admin can look before deleting.
	const link = row.getByRole('link', { name: /a-notes\.pdf/ })
	await expect(link).toBeVisible()
	const download = await page.request.get((await link.getAttribute('href'))!)
	expect(download.status()).toBe(200)
	expect(download.headers()['content-disposition']).toMatch(/^attachment;/)
	await expect(row.getByRole('cell', { name: '—', exact: true })).toBeVisible()

	if (javaScriptEnabled) await expect(page.getByRole('button', { name: /^Clean Up Selected/ })).toHaveCount(0)
	await row.getByRole('checkbox').check()
	await page.getByRole('button', { name: javaScriptEnabled ? 'Clean Up Selected (1)' : 'Clean Up Selected' }).click()
	const confirm = page.getByRole('dialog', { name: 'Confirm Cleanup' })
	await expect(confirm).toContainText(
		'Are you sure you want to permanently delete 1 orphaned material(s) and all their associated files? This action cannot be undone.',
	)
	await confirm.getByRole('button', { name: 'Delete Permanently' }).click()
	await expect(page.getByText('Successfully cleaned up 1 orphaned materials')).toBeVisible()
	await expect(page.getByRole('cell', { name: String(courseId), exact: true })).toHaveCount(0)
	for (const key of keys) expect(fs.existsSync(path.join(filesDir, ...key.split('/')))).toBe(false)
})

test('Cancel, Escape or the close button with unsaved changes in Edit Week asks before discarding them @js-only', async ({
	page,
	db,
	signInAs,
}) => {
	const { weekId, path: screen } = await courseWithWeek(db)
	await signInAs({ role: 'admin' })
	await page.goto(`${screen}/${weekId}/edit`)
	const dialog = page.getByRole('dialog', { name: 'Edit Week & Materials' })
	await dialog.getByLabel('Topic').fill('Half-typed new topic')
	const question = page.getByRole('dialog', { name: 'Discard unsaved changes?' })

	await dialog.getByRole('link', { name: 'Cancel' }).click()
	await expect(question).toBeVisible()
	await question.getByRole('button', { name: 'Keep Editing' }).click()
	await expect(question).toBeHidden()
	await expect(dialog.getByLabel('Topic')).toHaveValue('Half-typed new topic')

	await dialog.getByLabel('Topic').press('Escape')
	await expect(question).toBeVisible()
	// Escape in the question answers it (keep editing), not the dialog beneath.
	await page.keyboard.press('Escape')
	await expect(question).toBeHidden()
	await expect(dialog).toBeVisible()

	await dialog.getByRole('link', { name: 'Close' }).click()
	await question.getByRole('button', { name: 'Discard Changes' }).click()
	await expect(dialog).toHaveCount(0)
	await expect(page).toHaveURL(new RegExp(`${screen}$`))
	const week = await db.selectFrom('course_materials').select('topic').where('id', '=', weekId).executeTakeFirstOrThrow()
	expect(week.topic).toBe('Intro')

	// Nothing changed: Cancel closes at once.
	await page.goto(`${screen}/${weekId}/edit`)
	await dialog.getByRole('link', { name: 'Cancel' }).click()
	await expect(dialog).toHaveCount(0)
})

test('Edit Week refuses a file over the limit (before uploading it when JavaScript runs) and keeps what was typed', async ({
	page,
	db,
	signInAs,
	javaScriptEnabled,
}) => {
	test.slow()
	const { weekId, path: screen } = await courseWithWeek(db)
	await signInAs({ role: 'admin' })
	const posts: string[] = []
	page.on('request', (request) => {
		if (request.method() === 'POST') posts.push(request.url())
	})
	await page.goto(`${screen}/${weekId}/edit`)
	const dialog = page.getByRole('dialog', { name: 'Edit Week & Materials' })
	await dialog.getByLabel('Topic').fill('Recorded Class')
	await dialog.getByLabel('Replace file of notes.pdf').setInputFiles(await fileOverUploadLimit())
	await dialog.getByRole('button', { name: 'Save All Changes' }).click()

	if (javaScriptEnabled) {
		await expect(dialog.getByText('File too large. Please select a smaller file.', { exact: true })).toBeVisible()
		expect(posts).toEqual([])
	} else {
		await expect(dialog.getByRole('alert').filter({ hasText: 'is larger than the 50 MB limit per file' })).toBeVisible()
	}
	await expect(dialog.getByLabel('Topic')).toHaveValue('Recorded Class')
	const week = await db.selectFrom('course_materials').select('topic').where('id', '=', weekId).executeTakeFirstOrThrow()
	expect(week.topic).toBe('Intro')
})

test('Save All Changes with nothing changed changes nothing and says so', async ({ page, db, signInAs, javaScriptEnabled }) => {
	const { weekId, path: screen } = await courseWithWeek(db)
	const admin = await signInAs({ role: 'admin' })
	await page.goto(`${screen}/${weekId}/edit`)
	const save = page.getByRole('dialog', { name: 'Edit Week & Materials' }).getByRole('button', { name: 'Save All Changes' })
	if (javaScriptEnabled) {
		await expect(save).toBeDisabled()
		return
	}
	await save.click()
	await expect(page.getByText('Nothing to save: the week and its materials are unchanged.')).toBeVisible()
	expect(await db.selectFrom('audit_log').select('id').where('actor_id', '=', admin.id).execute()).toEqual([])
})
