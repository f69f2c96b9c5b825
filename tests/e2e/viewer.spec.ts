import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import type { Kysely } from 'kysely'
import { requestDocumentPreviews } from '#app/models/materials/document-previews.server.ts'
import { sampleChartPng, sampleClassRecording, sampleDocx, samplePdf } from '#db/seed/sample-files.ts'
import type { Database, MaterialCategory, MaterialType } from '#db/types.ts'
import { e2eServerStorage } from '../support/e2e-env.ts'
import { expect, test } from '../support/e2e-journeys.ts'
import { insertCourseWithWeek, insertEnrollment, storeMaterialItem } from '../support/fixtures.ts'

const storage = e2eServerStorage()
/**
 * How long the viewer may take to show its first page or its failure: pdf.js starts its worker
 * (about 1 MB of script) and reads the file first, which took over 7 s on a busy 2-vCPU machine.
 */
const PDF_READY = { timeout: 20_000 }

type StoredItem = { id: number; title: string; url: string }

/** A course with one week of real stored files of every kind the viewer shows. */
async function createCourseWithFiles(db: Kysely<Database>) {
	const { course, weekId } = await insertCourseWithWeek(db, {
		course: { title: `Viewer Course ${randomUUID().slice(0, 8)}` },
		topic: 'Analysing Deals',
	})

	async function store(
		title: string,
		fileName: string,
		bytes: Uint8Array,
		contentType: string,
		type: MaterialType,
		category: MaterialCategory,
	): Promise<StoredItem> {
		const item = await storeMaterialItem(db, storage, { courseId: course.id, weekId, title, fileName, bytes, contentType, type, category })
		return { id: item.id, title, url: `/files/materials/${item.id}` }
	}

	const pdf = await store(
		'Deal Analysis Guide',
		'deal-analysis-guide.pdf',
		await samplePdf({
			title: 'Deal Analysis Guide',
			subtitle: 'ARV and the 70% rule',
			sections: [{ heading: 'After-repair value', paragraphs: ['Estimate what the house is worth once renovated.'] }],
		}),
		'application/pdf',
		'document',
		'material',
	)
	const image = await store('Rent Chart', 'rent-chart.png', sampleChartPng([3, 5, 4, 7]), 'image/png', 'document', 'material')
	const word = await store(
		'Lease Template',
		'lease-template.docx',
		sampleDocx({ title: 'Lease', paragraphs: ['A simple lease.'], checklist: ['Sign it'] }),
		'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
		'document',
		'material',
	)
	const text = await store('Reading List', 'reading-list.txt', new TextEncoder().encode('Books.'), 'text/plain', 'document', 'material')
	const video = await store('Week 1 Class Recording', 'week-1.mp4', await sampleClassRecording(), 'video/mp4', 'video', 'recording')
	return { course, weekId, pdf, image, word, text, video }
}

async function openItem(page: Page, item: StoredItem, tab: 'Class Materials' | 'Class Recordings' = 'Class Materials') {
	const week = page.getByRole('region', { name: 'Week 1: Analysing Deals' })
	if (tab === 'Class Recordings') await week.getByRole('link', { name: 'Class Recordings' }).click()
	await week.getByRole('link', { name: new RegExp(item.title) }).click()
	await expect(page).toHaveURL(new RegExp(`/dashboard/materials/${item.id}`))
	const dialog = page.getByRole('dialog', { name: item.title })
	await expect(dialog).toBeVisible()
	await expect(dialog.getByText('Week 1: Analysing Deals')).toBeVisible()
	return dialog
}

test('a PDF stays protected until View Document, then renders and zooms', async ({ page, db, signInAs, checkA11y, javaScriptEnabled }) => {
	const { course, pdf } = await createCourseWithFiles(db)
	const student = await signInAs()
	await insertEnrollment(db, { userId: student.id, courseId: course.id })

	await page.goto(`/dashboard?course=${course.id}`)
	const dialog = await openItem(page, pdf)
	await expect(dialog.getByRole('heading', { name: 'Protected Content' })).toBeVisible()
	await expect(dialog.getByRole('link', { name: 'Open in New Tab' })).toHaveCount(0)
	await dialog.getByRole('link', { name: 'View Document' }).click()
	await expect(page).toHaveURL(/\?view=1$/)
	await expect(dialog.getByRole('heading', { name: 'Protected Content' })).toHaveCount(0)

	const openLink = dialog.getByRole('link', { name: 'Open in New Tab' })
	await expect(openLink).toHaveAttribute('href', pdf.url)
	await expect(openLink).toHaveAttribute('target', '_blank')
	await expect(dialog.getByRole('link', { name: 'Download' })).toHaveAttribute('href', `${pdf.url}?download=1`)

	if (javaScriptEnabled) {
		const firstPage = dialog.getByRole('img', { name: /^Page 1 of \d+$/ })
		await expect(firstPage).toBeVisible(PDF_READY)
		const widthAt = async () => firstPage.evaluate((canvas) => canvas.getBoundingClientRect().width)
		const zoom = dialog.getByLabel('Zoom level')
		await expect(zoom).toHaveText('100%')
		const atHundred = await widthAt()
		await dialog.getByRole('button', { name: 'Zoom in' }).click()
		await expect(zoom).toHaveText('125%')
		await expect.poll(widthAt).toBeCloseTo(atHundred * 1.25, 0)
		await checkA11y()
		for (let i = 0; i < 3; i++) await dialog.getByRole('button', { name: 'Zoom in' }).click()
		await expect(zoom).toHaveText('200%')
		await expect(dialog.getByRole('button', { name: 'Zoom in' })).toBeDisabled()
		for (let i = 0; i < 6; i++) await dialog.getByRole('button', { name: 'Zoom out' }).click()
		await expect(zoom).toHaveText('50%')
		await expect(dialog.getByRole('button', { name: 'Zoom out' })).toBeDisabled()
		await expect.poll(widthAt).toBeCloseTo(atHundred * 0.5, 0)

		// The dialog is a modal over the dashboard: Escape closes it.
		await page.keyboard.press('Escape')
		await expect(page).toHaveURL(new RegExp(`/dashboard\\?course=${course.id}$`))
		await expect(page.getByRole('dialog')).toHaveCount(0)
	} else {
		await expect(dialog.getByText('Open the PDF in a new tab or download it.')).toBeVisible()
		await dialog.getByRole('link', { name: 'Close' }).click()
		await expect(page).toHaveURL(new RegExp(`/dashboard\\?course=${course.id}$`))
	}

	const file = await page.request.get(pdf.url)
	expect(file.status()).toBe(200)
	expect(file.headers()['content-type']).toBe('application/pdf')
	expect(file.headers()['content-disposition']).toMatch(/^inline;/)
	expect(file.headers()['x-content-type-options']).toBe('nosniff')
})

test('on a phone a PDF opens at the width of its pane, and zooms from there @js-only', async ({ page, db, signInAs }) => {
	const { course, pdf } = await createCourseWithFiles(db)
	const student = await signInAs()
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await page.setViewportSize({ width: 390, height: 844 })

	await page.goto(`/dashboard/materials/${pdf.id}?view=1`)
	const dialog = page.getByRole('dialog', { name: pdf.title })
	const pages = dialog.getByRole('region', { name: `${pdf.title} pages` })
	const firstPage = dialog.getByRole('img', { name: /^Page 1 of \d+$/ })
	await expect(firstPage).toBeVisible(PDF_READY)
	await expect(dialog.getByLabel('Zoom level')).toHaveText('100%')
	const paneWidth = await pages.evaluate((pane) => {
		const style = getComputedStyle(pane)
		return pane.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)
	})
	const widthAt = async () => firstPage.evaluate((canvas) => canvas.getBoundingClientRect().width)
	// A US Letter page is 612 pt wide, far wider than a phone's pane.
	expect(paneWidth).toBeLessThan(400)
	await expect.poll(widthAt).toBeCloseTo(paneWidth, -1)
	expect(await pages.evaluate((pane) => pane.scrollWidth <= pane.clientWidth)).toBe(true)

	await dialog.getByRole('button', { name: 'Zoom in' }).click()
	await expect.poll(widthAt).toBeCloseTo(paneWidth * 1.25, -1)
})

// pdf.js reads the file in the browser, so the failure can only be seen with JavaScript.
test('a PDF that cannot be read shows the failure with a download @js-only', async ({ page, db, signInAs }) => {
	const { course, weekId } = await createCourseWithFiles(db)
	const broken = await storeMaterialItem(db, storage, {
		courseId: course.id,
		weekId,
		title: 'Broken Notes',
		fileName: 'broken.pdf',
		bytes: new TextEncoder().encode('this is not a PDF'),
		contentType: 'application/pdf',
	})
	await signInAs({ role: 'admin' })

	await page.goto(`/dashboard/materials/${broken.id}?view=1`)
	const dialog = page.getByRole('dialog', { name: 'Broken Notes' })
	await expect(dialog.getByText('Failed to load PDF document')).toBeVisible(PDF_READY)
	await expect(dialog.getByRole('link', { name: 'Download PDF' })).toHaveAttribute('href', `/files/materials/${broken.id}?download=1`)
})

test('a class recording plays inline and its file answers byte ranges', async ({ page, db, signInAs, javaScriptEnabled }) => {
	const { course, video } = await createCourseWithFiles(db)
	const student = await signInAs()
	await insertEnrollment(db, { userId: student.id, courseId: course.id })

	await page.goto(`/dashboard?course=${course.id}`)
	const rangeResponse = page.waitForResponse(
		(response) => response.url().endsWith(video.url) && response.request().headers().range !== undefined,
	)
	const dialog = await openItem(page, video, 'Class Recordings')
	// A recording is not a document: no protected overlay.
	await expect(dialog.getByRole('heading', { name: 'Protected Content' })).toHaveCount(0)
	const player = dialog.locator('video')
	await expect(player).toHaveAttribute('src', video.url)
	await expect(player).toHaveAttribute('controls', '')
	const response = await rangeResponse
	expect(response.status()).toBe(206)
	expect(response.headers()['content-range']).toMatch(/^bytes \d+-\d+\/\d+$/)

	if (javaScriptEnabled) {
		await player.evaluate(async (element: HTMLVideoElement) => {
			element.muted = true
			await element.play()
		})
		await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0)
	}

	const partial = await page.request.get(video.url, { headers: { Range: 'bytes=0-99' } })
	expect(partial.status()).toBe(206)
	expect(partial.headers()['accept-ranges']).toBe('bytes')
	expect((await partial.body()).byteLength).toBe(100)
})

test('an image opens after the protected overlay', async ({ page, db, signInAs }) => {
	const { course, image } = await createCourseWithFiles(db)
	const student = await signInAs()
	await insertEnrollment(db, { userId: student.id, courseId: course.id })

	await page.goto(`/dashboard?course=${course.id}`)
	const dialog = await openItem(page, image)
	await dialog.getByRole('link', { name: 'View Document' }).click()
	const picture = dialog.getByRole('img', { name: 'Rent Chart' })
	await expect(picture).toBeVisible()
	await expect.poll(() => picture.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0)
})

test('office files on local storage and unknown types offer a download', async ({ page, db, signInAs }) => {
	const { word, text } = await createCourseWithFiles(db)
	await signInAs({ role: 'admin' })

	await page.goto(`/dashboard/materials/${word.id}?view=1`)
	const wordDialog = page.getByRole('dialog', { name: word.title })
	// No failure: the file is offered for download (docs/decisions/047).
	await expect(wordDialog.getByText('Download to read this Microsoft Word file')).toBeVisible()
	await expect(wordDialog.getByText(/Failed to load/)).toHaveCount(0)
	await expect(wordDialog.getByRole('link', { name: 'Download' })).toHaveAttribute('href', `${word.url}?download=1`)
	const download = await page.request.get(`${word.url}?download=1`)
	expect(download.headers()['content-disposition']).toMatch(/^attachment; filename="lease-template.docx"/)

	await page.goto(`/dashboard/materials/${text.id}?view=1`)
	const textDialog = page.getByRole('dialog', { name: text.title })
	await expect(textDialog.getByText('This file type cannot be previewed directly.')).toBeVisible()
	await expect(textDialog.getByRole('link', { name: 'Open in New Tab' })).toHaveAttribute('href', text.url)
	// The admin sees the course's weeks behind the dialog.
	await expect(page.getByRole('heading', { name: 'Week 1: Analysing Deals' })).toBeVisible()
})

test('a student not actively enrolled gets 403 for the viewer and every file', async ({ page, db, signInAs }) => {
	const { course, pdf, image, word, text, video } = await createCourseWithFiles(db)
	const outsider = await signInAs()
	await insertEnrollment(db, { userId: outsider.id, courseId: course.id, status: 'pending' })

	const response = await page.goto(`/dashboard/materials/${pdf.id}`)
	expect(response?.status()).toBe(403)
	await expect(page.getByText("You don't have permission to view this material")).toBeVisible()
	for (const item of [pdf, image, word, text, video]) {
		expect((await page.request.get(item.url)).status(), item.title).toBe(403)
		expect((await page.request.get(`/dashboard/materials/${item.id}`)).status(), item.title).toBe(403)
	}
	await page.goto(`/dashboard?course=${course.id}`)
	await expect(page.getByRole('heading', { name: 'You have not yet enrolled' })).toBeVisible()
})

test('a signed-out visitor is sent to log in for the viewer and the files', async ({ page, db }) => {
	const { pdf } = await createCourseWithFiles(db)
	await page.goto(`/dashboard/materials/${pdf.id}`)
	await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=%2Fdashboard%2Fmaterials%2F${pdf.id}$`))
	const file = await page.request.get(pdf.url, { maxRedirects: 0 })
	expect(file.status()).toBe(302)
	expect(file.headers().location).toMatch(/^\/login\?redirectTo=/)
})

test('a Word file is converted on the server and read in the viewer as a PDF, the original kept as download', async ({
	page,
	db,
	createUser,
	signIn,
	javaScriptEnabled,
}) => {
	test.setTimeout(120_000)
	const { course, weekId, word } = await createCourseWithFiles(db)
	const student = await createUser()
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	// As an upload does: the running server's job runner makes the preview with LibreOffice.
	await db.transaction().execute((trx) => requestDocumentPreviews(trx, { weekIds: [weekId] }))
	await expect
		.poll(
			async () =>
				(await db.selectFrom('material_items').select('preview_status').where('id', '=', word.id).executeTakeFirstOrThrow()).preview_status,
			{ timeout: 90_000 },
		)
		.toBe('ready')
	await signIn(student)

	await page.goto(`/dashboard/materials/${word.id}?view=1`)
	const dialog = page.getByRole('dialog', { name: word.title })
	await expect(dialog.getByText('A PDF copy of the Microsoft Word file.', { exact: false })).toBeVisible()
	if (javaScriptEnabled) await expect(dialog.getByRole('img', { name: /^Page 1 of \d+$/ })).toBeVisible(PDF_READY)
	else await expect(dialog.getByRole('link', { name: 'Open in New Tab' })).toHaveAttribute('href', `${word.url}/preview`)
	await expect(dialog.getByRole('link', { name: 'Download' })).toHaveAttribute('href', `${word.url}?download=1`)

	const preview = await page.request.get(`${word.url}/preview`)
	expect(preview.status()).toBe(200)
	expect(preview.headers()['content-type']).toBe('application/pdf')
	expect((await preview.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-')
	const original = await page.request.get(`${word.url}?download=1`)
	expect(original.headers()['content-disposition']).toMatch(/^attachment; filename="lease-template.docx"/)
})
