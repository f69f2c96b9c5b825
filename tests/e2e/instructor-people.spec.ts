import { randomUUID } from 'node:crypto'
import {
	insertAssignment,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertPaidPayment,
	insertSubmission,
	insertWaitlistEntry,
} from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e-journeys.ts'

/**
 * An instructor works on the people of the course they teach (issue 42, docs/decisions/056 and
 * 058): grades a hand-in, announces to the course, messages a student, reads the waitlist and the
 * enrolments; refunds and another course's waitlist are refused.
 */
test("an instructor grades, announces and messages in their course, and is refused another course's people", async ({
	page,
	db,
	signInAs,
	createUser,
	signIn,
}) => {
	test.slow()
	const tag = randomUUID().slice(0, 8)
	const mine = await insertCourse(db, { title: `Flipping ${tag}` })
	const theirs = await insertCourse(db, { title: `Rentals ${tag}` })
	const instructor = await signInAs({ role: 'instructor', name: `Ivy ${tag}` })
	const student = await createUser({ name: `Olive ${tag}` })
	const elsewhere = await createUser({ name: `Xavier ${tag}` })
	await insertCourseStaff(db, { courseId: mine.id, userId: instructor.id })
	await insertEnrollment(db, { userId: student.id, courseId: mine.id })
	await insertEnrollment(db, { userId: elsewhere.id, courseId: theirs.id })
	const assignment = await insertAssignment(db, { course_id: mine.id, title: `Deal Analysis ${tag}` })
	await insertSubmission(db, { assignment_id: assignment.id, student_id: student.id, body: 'Offer $170,000 on the duplex.' })
	const otherAssignment = await insertAssignment(db, { course_id: theirs.id, title: `Tenant Screening ${tag}` })
	await insertSubmission(db, { assignment_id: otherAssignment.id, student_id: elsewhere.id, body: 'Screen by income.' })
	await insertWaitlistEntry(db, { course_id: mine.id, name: `Wendy ${tag}` })
	const paymentId = await insertPaidPayment(db, {
		checkoutSessionId: `cs_test_people_${tag}`,
		userId: student.id,
		courseId: mine.id,
		courseTitle: mine.title,
		customerEmail: student.email,
	})

	// Grading: their course's hand-in only.
	await page.goto('/dashboard/admin/grades')
	await expect(page.getByRole('link', { name: 'Pending 1' })).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: `Tenant Screening ${tag}` })).toHaveCount(0)
	const row = page.getByRole('row').filter({ hasText: `Deal Analysis ${tag}` })
	await row.getByRole('link', { name: /^Grade/ }).click()
	const panel = page.getByRole('dialog', { name: 'Grade Assignment' })
	await expect(panel.getByText('Offer $170,000 on the duplex.')).toBeVisible()
	await panel.getByLabel('Grade').fill('A')
	await panel.getByLabel('Feedback').fill('Well argued.')
	await panel.getByRole('button', { name: 'Submit Grade' }).click()
	await expect(page.getByText('Assignment graded successfully')).toBeVisible()
	await expect(page.getByText('No pending assignments found')).toBeVisible()

	// An announcement to their course: no "All students", and no Contact Form tab.
	await page.goto('/dashboard/admin/messages/broadcast')
	await expect(page.getByRole('link', { name: 'Contact Form' })).toHaveCount(0)
	await expect(page.getByLabel('Send to').locator('option')).toHaveText([`Students of ${mine.title}`])
	await page.getByLabel('Subject').fill(`Week 1 ${tag}`)
	await page.getByLabel('Message', { exact: true }).fill('Bring your numbers.')
	await page.getByRole('button', { name: `Send to Students of ${mine.title}` }).click()
	await expect(page.getByText('Announcement sent successfully!')).toBeVisible()
	await expect(page.getByRole('region', { name: 'Sent announcements' }).getByRole('heading', { name: `Week 1 ${tag}` })).toBeVisible()

	// A direct message to their student; a student of another course is not a contact.
	await page.goto('/dashboard/admin/messages/direct')
	const contacts = page.getByRole('list', { name: 'Students' })
	await expect(contacts.getByRole('link', { name: new RegExp(`Xavier ${tag}`) })).toHaveCount(0)
	await contacts.getByRole('link', { name: new RegExp(`Olive ${tag}`) }).click()
	await expect(page.getByRole('heading', { level: 2, name: `Olive ${tag}` })).toBeVisible()
	await page.getByLabel('Message', { exact: true }).fill(`Nice work, ${tag}`)
	await page.getByRole('button', { name: 'Send' }).click()
	await expect(page.getByText('Message sent')).toBeVisible()
	await expect(page.getByRole('log').getByText(`Nice work, ${tag}`)).toBeVisible()

	// The waitlist and the enrolments of their course, read-only.
	await page.goto(`/dashboard/admin/courses/${mine.id}/waitlist`)
	await expect(page.getByRole('heading', { level: 1, name: `Waitlist: ${mine.title}` })).toBeVisible()
	await expect(page.getByRole('cell', { name: `Wendy ${tag}` })).toBeVisible()
	await expect(page.getByRole('button', { name: /Move Up|Move Down|Save/ })).toHaveCount(0)
	await expect(page.getByRole('link', { name: /Offer Seat|Remove/ })).toHaveCount(0)
	await page.goto('/dashboard/admin/enrollments')
	await expect(page.getByRole('row').filter({ hasText: `Olive ${tag}` })).toBeVisible()
	await expect(page.getByRole('row').filter({ hasText: `Xavier ${tag}` })).toHaveCount(0)
	await expect(page.getByRole('link', { name: 'Add Enrollment' })).toHaveCount(0)
	await expect(page.getByRole('link', { name: /Refund|Remove/ })).toHaveCount(0)

	// Refused: a refund, and another course's waitlist.
	await page.goto(`/dashboard/admin/enrollments/payments/${paymentId}/refund`)
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByText("You don't have permission to access this area")).toBeVisible()
	await page.goto(`/dashboard/admin/courses/${theirs.id}/waitlist`)
	await expect(page.getByRole('main').getByText('Course Not Found')).toBeVisible()

	// The student reads the announcement and the message, and has the instructor as a contact.
	await signIn(student)
	await page.goto('/dashboard/messages?tab=announcements')
	await expect(page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name: `Week 1 ${tag}` }) })).toBeVisible()
	await page.goto(`/dashboard/messages?with=${instructor.id}`)
	await expect(page.getByRole('log').getByText(`Nice work, ${tag}`)).toBeVisible()
	expect(
		await db.selectFrom('assignment_submissions').select(['grade', 'graded_by']).where('assignment_id', '=', assignment.id).execute(),
	).toEqual([{ grade: 'A', graded_by: instructor.id }])
})
