import { sampleClassRecording } from '#db/seed/sample-files.ts'
import { insertCourse, insertEnrollment, insertMaterialItem, insertWeek } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'
import { e2eServerStorage } from '../support/e2e-env.ts'

const storage = e2eServerStorage()

/** Decision 035: a completed enrolment keeps the course's materials and recordings, read-only. */
test('an alumnus reads materials and recordings without the live link or hand-ins; an inactive student sees nothing', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const alumnus = await createUser({ name: 'Alex Alumnus' })
	const course = await insertCourse(db, { title: `Finished Course ${Date.now().toString(36)}` })
	await insertEnrollment(db, { userId: alumnus.id, courseId: course.id, status: 'completed' })
	const week = await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Closing Deals', zoomLink: 'https://zoom.us/j/999888777' })
	await insertMaterialItem(db, { courseId: course.id, weekId: week, title: 'Closing Checklist', fileName: 'closing.pdf' })
	const recording = await insertMaterialItem(db, {
		courseId: course.id,
		weekId: week,
		title: 'Week 1 Recording',
		fileName: 'week-1.mp4',
		category: 'recording',
	})
	// The viewer plays the recording: its file must be stored.
	const { storage_key: key } = await db
		.selectFrom('material_items')
		.select('storage_key')
		.where('id', '=', recording)
		.executeTakeFirstOrThrow()
	await storage.put(key!, await sampleClassRecording(), { contentType: 'video/mp4' })
	const assignment = await db
		.insertInto('assignments')
		.values({ course_id: course.id, week_id: week, title: 'Final Deal Memo', instructions: 'Write it up.' })
		.returning('id')
		.executeTakeFirstOrThrow()
	await signIn(alumnus)

	await page.goto('/dashboard')
	await expect(page.getByRole('heading', { name: 'Course Materials' })).toBeVisible()
	await expect(page.getByText('You have completed this course')).toBeVisible()
	const section = page.getByRole('region', { name: 'Week 1: Closing Deals' })
	await expect(section.getByText('Closing Checklist')).toBeVisible()
	await expect(section.getByRole('link', { name: 'Join Class Session' })).toHaveCount(0)
	await expect(page.locator('a[href*="zoom.us"]')).toHaveCount(0)

	await page.goto(`/dashboard/materials/${recording}`)
	await expect(page.getByRole('dialog', { name: 'Week 1 Recording' })).toBeVisible()

	await page.goto(`/dashboard/assignments/${assignment.id}`)
	await expect(page.getByRole('heading', { level: 1, name: 'Final Deal Memo' })).toBeVisible()
	await expect(page.getByText('You have completed this course: hand-ins are closed.')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Submit Assignment' })).toHaveCount(0)

	// An admin makes the enrolment inactive: the course and its files are gone for them.
	await db.updateTable('enrollments').set({ status: 'inactive' }).where('user_id', '=', alumnus.id).execute()
	await page.goto('/dashboard')
	await expect(page.getByRole('heading', { name: 'You have not yet enrolled' })).toBeVisible()
	const refused = await page.goto(`/dashboard/materials/${recording}`)
	expect(refused?.status()).toBe(403)
})
