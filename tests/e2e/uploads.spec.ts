import { sampleClassRecording, samplePdf } from '#db/seed/sample-files.ts'
import { insertCourse } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e-journeys.ts'

const PDF = Buffer.from(
	await samplePdf({ title: 'Deal Guide', subtitle: 'Comps', sections: [{ heading: 'ARV', paragraphs: ['Three comparables.'] }] }),
)
const MP4 = Buffer.from(await sampleClassRecording())

test('an admin uploads a week with two PDFs, a video and a YouTube link; an enrolled student sees them', async ({
	page,
	db,
	signInAs,
	javaScriptEnabled,
}) => {
	const course = await insertCourse(db)
	await signInAs({ role: 'admin', name: 'Upload Admin' })

	await page.goto('/dashboard/admin/uploads')
	await expect(page.getByRole('heading', { level: 1, name: 'Upload Course Materials' })).toBeVisible()
	await expect(page.getByRole('link', { name: /Orphaned Materials Cleanup/ })).toHaveAttribute('target', '_blank')
	// The spec's words on the upload button with no course chosen; without JavaScript the course is
	// chosen first, on its own, with a button named for that.
	const chooseFirst = page.getByRole('button', { name: javaScriptEnabled ? 'Select a Course First' : 'Choose Course' })
	await expect(chooseFirst).toBeVisible()
	if (javaScriptEnabled) await expect(chooseFirst).toBeDisabled()
	else await expect(page.getByRole('button', { name: 'Select a Course First' })).toHaveCount(0)

	await page.getByLabel('Course').selectOption({ label: course.title })
	if (!javaScriptEnabled) await chooseFirst.click()
	await page.getByLabel('Week Number').fill('1')
	await page.getByLabel('Topic').fill('Finding Deals')
	await page.getByLabel('Add Zoom Link').check()
	await page.getByLabel('Zoom Link', { exact: true }).fill('https://zoom.us/j/555000111')
	await page.getByLabel('Class Materials').setInputFiles([
		{ name: 'deal-guide.pdf', mimeType: 'application/pdf', buffer: PDF },
		{ name: 'comps-worksheet.pdf', mimeType: 'application/pdf', buffer: PDF },
	])
	await page.getByLabel('Video Files').setInputFiles([{ name: 'week-1-class.mp4', mimeType: 'video/mp4', buffer: MP4 }])
	await page.getByLabel('YouTube Link').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ')
	await page.getByRole('button', { name: 'Upload Materials' }).click()

	await expect(page.getByText('Materials uploaded successfully')).toBeVisible()
	await expect(page.getByLabel('Topic')).toHaveValue('')
	// The form is ready for the next week of the same course.
	await expect(page.getByLabel('Course')).toHaveValue(String(course.id))
	await expect(page.getByRole('button', { name: 'Upload Materials' })).toBeVisible()
	const week = await db.selectFrom('course_materials').selectAll().where('course_id', '=', course.id).executeTakeFirstOrThrow()
	expect(week).toMatchObject({ week_number: 1, topic: 'Finding Deals', zoom_link: 'https://zoom.us/j/555000111' })
	const items = await db.selectFrom('material_items').select(['title', 'category']).where('material_id', '=', week.id).execute()
	expect(items.map((item) => `${item.category}:${item.title}`).sort()).toEqual([
		'material:comps-worksheet.pdf',
		'material:deal-guide.pdf',
		'recording:YouTube: Finding Deals',
		'recording:week-1-class.mp4',
	])

	const student = await signInAs({ name: 'Enrolled Student' })
	await db.insertInto('enrollments').values({ user_id: student.id, course_id: course.id, enrollment_date: new Date() }).execute()
	await page.goto(`/dashboard?course=${course.id}`)
	const weekCard = page.getByRole('region', { name: 'Week 1: Finding Deals' })
	await expect(weekCard.getByRole('link', { name: 'Join Class Session' })).toHaveAttribute('href', 'https://zoom.us/j/555000111')
	await expect(weekCard.getByRole('link', { name: /deal-guide\.pdf/ })).toBeVisible()
	await expect(weekCard.getByRole('link', { name: /comps-worksheet\.pdf/ })).toBeVisible()
	await weekCard.getByRole('link', { name: 'Class Recordings' }).click()
	await expect(weekCard.getByRole('link', { name: /week-1-class\.mp4/ })).toBeVisible()
	await expect(weekCard.getByRole('link', { name: /YouTube: Finding Deals/ })).toBeVisible()
})

test('the form explains what is wrong; a topic alone saves the week (docs/decisions/046)', async ({ page, db, signInAs }) => {
	const course = await insertCourse(db)
	await signInAs({ role: 'admin' })
	await page.goto(`/dashboard/admin/uploads?course=${course.id}`)
	await expect(page.getByLabel('Course')).toHaveValue(String(course.id))
	await page.getByLabel('Week Number').fill('2')
	await page.getByLabel('Topic').fill('Rehab')
	await page.getByLabel('YouTube Link').fill('https://vimeo.com/12345')
	await page.getByRole('button', { name: 'Upload Materials' }).click()
	await expect(page.getByText('Please enter a valid YouTube URL')).toBeVisible()
	expect(await db.selectFrom('course_materials').select('id').where('course_id', '=', course.id).execute()).toEqual([])
	await page.getByLabel('YouTube Link').fill('')
	await page.getByRole('button', { name: 'Upload Materials' }).click()
	await expect(page.getByText('Week 2 saved')).toBeVisible()
	expect(await db.selectFrom('course_materials').select(['week_number', 'topic']).where('course_id', '=', course.id).execute()).toEqual([
		{ week_number: 2, topic: 'Rehab' },
	])
})

test('a real progress bar follows the upload and the form resets @js-only', async ({ page, db, signInAs }) => {
	const course = await insertCourse(db)
	await signInAs({ role: 'admin' })
	await page.goto(`/dashboard/admin/uploads?course=${course.id}`)
	// A 3 MB video over a link throttled to about 1 MB/s: the bar has time to move.
	const video = Buffer.concat([MP4, Buffer.alloc(3 * 1024 * 1024)])
	const cdp = await page.context().newCDPSession(page)
	await cdp.send('Network.enable')
	await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 1024 * 1024 })

	await page.getByLabel('Week Number').fill('4')
	await page.getByLabel('Topic').fill('Refinancing')
	await page.getByLabel('Video Files').setInputFiles([{ name: 'refinance-class.mp4', mimeType: 'video/mp4', buffer: video }])
	await page.getByRole('button', { name: 'Upload Materials' }).click()

	const bar = page.getByRole('progressbar', { name: /Uploading|Upload complete/ })
	await expect(bar).toBeVisible()
	await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 15_000, intervals: [50] }).toBeGreaterThan(0)
	const midway = Number(await bar.getAttribute('aria-valuenow'))
	expect(midway).toBeLessThan(100)
	await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 20_000 })
	await expect(page.getByText('Upload complete')).toBeVisible()
	await expect(page.getByText('Materials uploaded successfully')).toBeVisible()
	await expect(page.getByLabel('Topic')).toHaveValue('')
	const week = await db.selectFrom('course_materials').select('topic').where('course_id', '=', course.id).executeTakeFirstOrThrow()
	expect(week.topic).toBe('Refinancing')
})

test('videos over 20 MB get a warning listing each file before upload @js-only', async ({ page, db, signInAs }) => {
	const course = await insertCourse(db)
	await signInAs({ role: 'admin' })
	await page.goto(`/dashboard/admin/uploads?course=${course.id}`)
	await page.getByLabel('Video Files').setInputFiles([
		{ name: 'long-class.mp4', mimeType: 'video/mp4', buffer: Buffer.concat([MP4, Buffer.alloc(21 * 1024 * 1024)]) },
		{ name: 'short-class.mp4', mimeType: 'video/mp4', buffer: MP4 },
	])
	const warning = page.getByRole('status').filter({ hasText: 'Large video files' })
	await expect(warning).toContainText('long-class.mp4 (21.1 MB)')
	await expect(warning).not.toContainText('short-class.mp4')
})
