import { randomUUID } from 'node:crypto'
import { insertCourse, insertEnrollment } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e-journeys.ts'

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')

test('an admin creates an assignment, a student hands it in, the admin grades it and the student reads the grade', async ({
	page,
	db,
	signInAs,
	createUser,
	signIn,
}) => {
	test.slow()
	const tag = randomUUID().slice(0, 8)
	const course = await insertCourse(db, { title: `Grading Course ${tag}` })
	const admin = await signInAs({ role: 'admin', name: 'Grading Admin' })
	const student = await createUser({ name: `Student ${tag}` })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	const title = `Deal Analysis ${tag}`

	await page.goto(`/dashboard/admin/courses/${course.id}/materials`)
	await page.getByLabel('Assignment Title').fill(title)
	await page.getByLabel('Instructions').fill('Analyse one property in your market.')
	await page.getByLabel('Due Date (optional)').fill('2031-02-01')
	await page.getByRole('button', { name: 'Create Assignment' }).click()
	await expect(page.getByText('Assignment created successfully')).toBeVisible()
	await expect(page.getByRole('link', { name: title })).toBeVisible()
	const assignment = await db.selectFrom('assignments').select('id').where('title', '=', title).executeTakeFirstOrThrow()

	await signIn(student)
	await page.goto(`/dashboard/assignments/${assignment.id}`)
	await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
	await expect(page.getByText('Analyse one property in your market.')).toBeVisible()
	await page.getByRole('button', { name: 'Submit Assignment' }).click()
	await expect(page.getByText('Please write your answer or attach a file')).toBeVisible()
	await page.getByLabel('Your Answer').fill('Offer $170,000 on the Maple Street duplex.')
	await page.getByLabel('Attach a File (optional)').setInputFiles({ name: 'analysis.pdf', mimeType: 'application/pdf', buffer: PDF })
	await page.getByRole('button', { name: 'Submit Assignment' }).click()
	await expect(page.getByText('Assignment submitted successfully')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'Your Submission', exact: true })).toBeVisible()
	await expect(page.getByText('Submitted', { exact: true })).toBeVisible()
	await expect(page.getByRole('link', { name: 'analysis.pdf' })).toBeVisible()

	await signIn(admin)
	await page.goto(`/dashboard/admin/grades?q=${tag.toUpperCase()}`)
	await expect(page.getByRole('link', { name: 'Pending 1' })).toBeVisible()
	const row = page.getByRole('row').filter({ hasText: title })
	await expect(row).toContainText(student.email)
	await expect(row).toContainText(course.title)
	await row.getByRole('link', { name: /^Grade/ }).click()
	const panel = page.getByRole('dialog', { name: 'Grade Assignment' })
	await expect(panel.getByText('Offer $170,000 on the Maple Street duplex.')).toBeVisible()
	await expect(panel.getByPlaceholder('Enter grade (A, B, C, etc.)')).toBeVisible()
	await panel.getByRole('button', { name: 'Submit Grade' }).click()
	await expect(panel.getByText('Please enter a grade')).toBeVisible()
	await panel.getByLabel('Grade').fill('B')
	await panel.getByLabel('Feedback').fill('Add vacancy costs.')
	await panel.getByRole('button', { name: 'Submit Grade' }).click()
	await expect(page.getByText('Assignment graded successfully')).toBeVisible()
	await expect(page.getByText('No pending assignments found')).toBeVisible()

	await page.getByRole('link', { name: 'Graded 1' }).click()
	const graded = page.getByRole('row').filter({ hasText: title })
	await expect(graded.getByText('B', { exact: true })).toBeVisible()
	await graded.getByRole('link', { name: /^Feedback/ }).click()
	const reopened = page.getByRole('dialog', { name: 'Grade Assignment' })
	await expect(reopened.getByLabel('Grade')).toHaveValue('B')
	await reopened.getByLabel('Grade').fill('A-')
	await reopened.getByLabel('Feedback').fill('Vacancy added: well done.')
	await reopened.getByRole('button', { name: 'Submit Grade' }).click()
	// The first grading's toast may still be on screen: wait for the new grade itself before signing in as someone else.
	await expect(reopened).toHaveCount(0)
	await expect(graded.getByText('A-', { exact: true })).toBeVisible()

	await signIn(student)
	await page.goto(`/dashboard/assignments/${assignment.id}`)
	await expect(page.getByRole('heading', { name: 'Grade: A-' })).toBeVisible()
	await expect(page.getByText('Vacancy added: well done.')).toBeVisible()
	await expect(page.getByRole('button', { name: /Submit Assignment|Resubmit Assignment/ })).toHaveCount(0)
})
