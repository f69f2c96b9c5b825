/**
 * An instructor runs their own course in the admin's screens, scoped (issue 42, docs/decisions/056),
 * with JavaScript on and off: their menu starts with the course they teach; they upload a week's
 * material, move a live session, mark attendance and open the progress roster; another course's
 * materials page answers 404, and the admin's own buttons and pages are not theirs.
 */
import { randomUUID } from 'node:crypto'
import { samplePdf } from '#db/seed/sample-files.ts'
import { insertCourse, insertCourseStaff, insertEnrollment, insertLiveSession, insertWeek } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'
import { markAttendanceByHand, uploadWeekPdf } from '../support/e2e-journeys.ts'

const PDF = await samplePdf({
	title: 'Offer Checklist',
	subtitle: 'Week 3',
	sections: [{ heading: 'Offers', paragraphs: ['Check each one.'] }],
})
const DAY = 24 * 60 * 60 * 1000

test('an instructor uploads a week, moves a session, marks attendance and reads the roster of their course only', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const suffix = randomUUID().slice(0, 6)
	const [instructor, otherInstructor, student] = await Promise.all([
		createUser({ role: 'instructor', name: 'Ivy Instructor' }),
		createUser({ role: 'instructor', name: 'Otto Other' }),
		createUser({ name: 'Stu Student' }),
	])
	const course = await insertCourse(db, { title: `Flipping ${suffix}`, time_zone: 'America/New_York' })
	const other = await insertCourse(db, { title: `Other ${suffix}` })
	await insertCourseStaff(db, { courseId: course.id, userId: instructor!.id })
	await insertCourseStaff(db, { courseId: other.id, userId: otherInstructor!.id })
	await insertEnrollment(db, { userId: student!.id, courseId: course.id })
	await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Finding Deals' })
	const past = new Date(Date.now() - 2 * 3_600_000)
	await insertLiveSession(db, { courseId: course.id, weekNumber: 1, startsAt: past, endsAt: new Date(past.getTime() + 3_600_000) })
	const next = new Date(Date.now() + 14 * DAY)
	const nextSessionId = await insertLiveSession(db, {
		courseId: course.id,
		weekNumber: 2,
		startsAt: next,
		endsAt: new Date(next.getTime() + 3_600_000),
	})
	await signIn(instructor!)

	// The menu: the course they teach first, then the staff page, and none of the admin's.
	await page.goto('/dashboard')
	const menu = page.getByRole('navigation', { name: 'Dashboard' })
	await expect(menu.getByRole('link', { name: course.title })).toHaveAttribute('href', `/dashboard/admin/courses/${course.id}/materials`)
	await expect(menu.getByRole('link', { name: 'Courses You Teach' })).toHaveAttribute('href', '/dashboard/admin/courses')
	await expect(menu.getByRole('link', { name: other.title })).toHaveCount(0)
	for (const [label, path] of [
		['Overview', '/dashboard/admin/overview'],
		['Grade Assignments', '/dashboard/admin/grades'],
		['Student Communications', '/dashboard/admin/messages'],
		['Enrollments', '/dashboard/admin/enrollments'],
		['Exports', '/dashboard/admin/exports'],
	] as const) {
		await expect(menu.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', path)
	}
	await expect(menu.getByRole('link', { name: 'Manage Users' })).toHaveCount(0)

	// The dashboard's home leads into the course they teach, and does not offer them to enrol.
	await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ivy Instructor! (Instructor)' })).toBeVisible()
	const teaching = page.getByRole('main').getByRole('listitem').filter({ hasText: course.title })
	await expect(teaching.getByRole('link', { name: `Progress of ${course.title}` })).toHaveAttribute(
		'href',
		`/dashboard/admin/courses/${course.id}/progress`,
	)
	await expect(teaching.getByRole('link', { name: `Waitlist of ${course.title}` })).toBeVisible()
	await expect(page.getByRole('main').getByText(other.title)).toHaveCount(0)
	await expect(page.getByText('You have not yet enrolled')).toHaveCount(0)

	// The menu's summary opens the menu on narrow screens; the sidebar is always there on wide ones.
	await page.goto(`/dashboard/admin/courses/${course.id}/materials`)
	await expect(page.getByRole('heading', { level: 1, name: 'Manage Course Materials' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Show Last SQL' })).toHaveCount(0)

	// A week's material.
	await uploadWeekPdf(page, { weekNumber: 3, topic: 'Making Offers', fileName: 'offer-checklist.pdf', pdf: PDF })
	await expect(page.getByText('offer-checklist.pdf').first()).toBeVisible()
	const week = await db
		.selectFrom('course_materials')
		.innerJoin('material_items', 'material_items.material_id', 'course_materials.id')
		.select(['course_materials.topic', 'material_items.title'])
		.where('course_materials.course_id', '=', course.id)
		.where('course_materials.week_number', '=', 3)
		.execute()
	expect(week).toEqual([{ topic: 'Making Offers', title: 'offer-checklist.pdf' }])

	// A live session moved to another day.
	await page.getByRole('link', { name: 'Edit week 2 session' }).click()
	const editor = page.getByRole('dialog', { name: 'Week 2 Live Session' })
	const moved = new Date(next.getTime() + DAY)
	const movedDate = `${moved.getUTCFullYear()}-${String(moved.getUTCMonth() + 1).padStart(2, '0')}-${String(moved.getUTCDate()).padStart(2, '0')}`
	await editor.getByLabel('Date').fill(movedDate)
	await editor.getByRole('button', { name: 'Save and notify students' }).click()
	await expect(page.getByText('Session saved; students were emailed the new time')).toBeVisible()
	const session = await db.selectFrom('live_sessions').select('sequence').where('id', '=', nextSessionId).executeTakeFirstOrThrow()
	expect(session.sequence).toBeGreaterThan(0)

	// Attendance of the week 1 session.
	await markAttendanceByHand(page, { weekNumber: 1, student: 'Stu Student', status: 'Excused' })
	await expect(page.getByRole('group', { name: /Stu Student/ }).getByText('Excused · Set by hand, by Ivy Instructor')).toBeVisible()

	// Their course list: their course, with the buttons they may use, and the progress roster.
	await menu.getByRole('link', { name: 'Courses You Teach' }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Courses You Teach' })).toBeVisible()
	await expect(page.getByRole('heading', { name: course.title })).toBeVisible()
	await expect(page.getByRole('heading', { name: other.title })).toHaveCount(0)
	await expect(page.getByRole('link', { name: `Waitlist of ${course.title}` })).toBeVisible()
	for (const refused of ['Edit', 'Delete', 'Run Again', 'Publish', 'Payment Plan', 'Staff', 'Completion']) {
		await expect(page.getByRole('link', { name: new RegExp(`^${refused} `) })).toHaveCount(0)
	}
	await expect(page.getByRole('button', { name: 'Add Course' })).toHaveCount(0)
	await page.getByRole('link', { name: `Progress of ${course.title}` }).click()
	await expect(page.getByRole('heading', { level: 1, name: `Progress: ${course.title}` })).toBeVisible()
	await expect(page.getByText('Stu Student')).toBeVisible()

	// Another course's materials: as if it did not exist. An admin's page: back to the dashboard.
	const refused = await page.goto(`/dashboard/admin/courses/${other.id}/materials`)
	expect(refused?.status()).toBe(404)
	await expect(page.getByText('Course Not Found')).toBeVisible()
	await page.goto(`/dashboard/admin/courses/${course.id}/edit`)
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText("You don't have permission to access this area")).toBeVisible()
})
