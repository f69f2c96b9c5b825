/**
 * Issue 42's whole journey, with JavaScript off and on: the admin invites an instructor for one
 * course; the instructor sets a password from the mailed link and, signed in by it, uploads a
 * week's material, schedules the week's live session, marks attendance, grades a hand-in and
 * messages a student — and is refused another course's materials and a refund.
 */
import { randomUUID } from 'node:crypto'
import { samplePdf } from '#db/seed/sample-files.ts'
import {
	insertAssignment,
	insertCourse,
	insertEnrollment,
	insertLiveSession,
	insertPaidPayment,
	insertSubmission,
	insertWeek,
} from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'
import { acceptInvitation, invitationLink, inviteInstructor, markAttendanceByHand, uploadWeekPdf } from '../support/e2e-journeys.ts'

const PDF = await samplePdf({ title: 'Rehab Budget', subtitle: 'Week 2', sections: [{ heading: 'Costs', paragraphs: ['Count them.'] }] })
const DAY = 24 * 60 * 60 * 1000

test('an invited instructor runs their course from the mailed link on, and only their course', async ({ page, db, createUser, signIn }) => {
	test.slow()
	const tag = randomUUID().slice(0, 8)
	const course = await insertCourse(db, { title: `Flips ${tag}`, time_zone: 'UTC' })
	const other = await insertCourse(db, { title: `Rentals ${tag}` })
	const admin = await createUser({ role: 'admin' })
	const student = await createUser({ name: `Sally ${tag}` })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Finding Deals' })
	const held = new Date(Date.now() - 3 * 3_600_000)
	await insertLiveSession(db, { courseId: course.id, weekNumber: 1, startsAt: held, endsAt: new Date(held.getTime() + 3_600_000) })
	// On a whole minute, as the session form writes times.
	const soon = new Date(Math.floor((Date.now() + 10 * DAY) / 60_000) * 60_000)
	const sessionId = await insertLiveSession(db, {
		courseId: course.id,
		weekNumber: 2,
		startsAt: soon,
		endsAt: new Date(soon.getTime() + 3_600_000),
		timeZone: 'UTC',
	})
	const assignment = await insertAssignment(db, { course_id: course.id, title: `Comps ${tag}` })
	await insertSubmission(db, { assignment_id: assignment.id, student_id: student.id, body: 'Three comps within a mile.' })
	const paymentId = await insertPaidPayment(db, {
		checkoutSessionId: `cs_test_staff_${tag}`,
		userId: student.id,
		courseId: course.id,
		courseTitle: course.title,
		customerEmail: student.email,
	})

	// The admin invites the instructor for one course.
	const email = `mentor-${tag}@example.com`
	await signIn(admin)
	await page.goto('/dashboard/admin/users/invite')
	await inviteInstructor(page, { name: `Mona ${tag}`, email, courseTitle: course.title })
	const invitation = await invitationLink(page, email)

	// The instructor sets a password from the link and is signed in.
	await acceptInvitation(page, invitation, 'mentor password 1')
	const menu = page.getByRole('navigation', { name: 'Dashboard' })
	await expect(menu.getByRole('link', { name: course.title })).toBeVisible()
	await expect(menu.getByRole('link', { name: other.title })).toHaveCount(0)

	// A week's material.
	await menu.getByRole('link', { name: course.title }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Manage Course Materials' })).toBeVisible()
	await uploadWeekPdf(page, { weekNumber: 2, topic: 'Rehab Budgets', fileName: 'rehab-budget.pdf', pdf: PDF })

	// The week 2 session, scheduled a day later.
	await page.getByRole('link', { name: 'Edit week 2 session' }).click()
	const editor = page.getByRole('dialog', { name: 'Week 2 Live Session' })
	const later = new Date(soon.getTime() + DAY).toISOString().slice(0, 10)
	await editor.getByLabel('Date').fill(later)
	await editor.getByRole('button', { name: 'Save and notify students' }).click()
	await expect(page.getByText('Session saved; students were emailed the new time')).toBeVisible()

	// Attendance of the session that was held.
	await markAttendanceByHand(page, { weekNumber: 1, student: `Sally ${tag}`, status: 'Present' })

	// The hand-in, graded.
	await page.goto('/dashboard/admin/grades')
	await page
		.getByRole('row')
		.filter({ hasText: `Comps ${tag}` })
		.getByRole('link', { name: /^Grade/ })
		.click()
	const grading = page.getByRole('dialog', { name: 'Grade Assignment' })
	await grading.getByLabel('Grade').fill('B+')
	await grading.getByLabel('Feedback').fill('Add a fourth comp.')
	await grading.getByRole('button', { name: 'Submit Grade' }).click()
	await expect(page.getByText('Assignment graded successfully')).toBeVisible()

	// A message to the student.
	await page.goto('/dashboard/admin/messages/direct')
	await page
		.getByRole('list', { name: 'Students' })
		.getByRole('link', { name: new RegExp(`Sally ${tag}`) })
		.click()
	await page.getByLabel('Message', { exact: true }).fill(`See you Tuesday, ${tag}`)
	await page.getByRole('button', { name: 'Send' }).click()
	await expect(page.getByRole('log').getByText(`See you Tuesday, ${tag}`)).toBeVisible()

	// Refused: another course's materials, and a refund.
	const refused = await page.goto(`/dashboard/admin/courses/${other.id}/materials`)
	expect(refused?.status()).toBe(404)
	await page.goto(`/dashboard/admin/enrollments/payments/${paymentId}/refund`)
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText("You don't have permission to access this area")).toBeVisible()

	// What was done is in the database, under the instructor's name.
	const mentor = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()
	const weekTwo = await db
		.selectFrom('course_materials')
		.innerJoin('material_items', 'material_items.material_id', 'course_materials.id')
		.select('material_items.title')
		.where('course_materials.course_id', '=', course.id)
		.where('course_materials.week_number', '=', 2)
		.execute()
	expect(weekTwo).toEqual([{ title: 'rehab-budget.pdf' }])
	const moved = await db.selectFrom('live_sessions').select('starts_at').where('id', '=', sessionId).executeTakeFirstOrThrow()
	expect(new Date(moved.starts_at).getTime()).toBe(soon.getTime() + DAY)
	expect(await db.selectFrom('attendance').select(['status', 'set_by']).where('user_id', '=', student.id).execute()).toEqual([
		{ status: 'present', set_by: mentor.id },
	])
	expect(await db.selectFrom('assignment_submissions').select('graded_by').where('assignment_id', '=', assignment.id).execute()).toEqual([
		{ graded_by: mentor.id },
	])
	expect(
		await db.selectFrom('messages').select('content').where('sender_id', '=', mentor.id).where('receiver_id', '=', student.id).execute(),
	).toEqual([{ content: `See you Tuesday, ${tag}` }])
})
