import { randomUUID } from 'node:crypto'
import { insertCourse, insertEnrollment } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e-journeys.ts'

const DAY = 86_400_000

/** Issue 40 point 3 (docs/decisions/052): the admin's completion rule, completing and reopening by hand, and what the student sees. */
for (const width of [390, 1280]) {
	test(`at ${width} px an admin sets a course's completion rule, completes and reopens a student by hand; the student sees their certificate`, async ({
		page,
		db,
		signInAs,
		createUser,
		signIn,
	}) => {
		// Three saves, a confirmation and the student's two pages: longer than one page's budget on a busy machine.
		test.slow()
		await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
		await signInAs({ role: 'admin' })
		const student = await createUser({ name: `Rita Finisher ${randomUUID().slice(0, 6)}` })
		// Ends next month: the end-of-course job leaves it alone while the test runs.
		const course = await insertCourse(db, {
			title: `Completion ${randomUUID().slice(0, 6)}`,
			start_date: new Date(Date.now() - 30 * DAY).toISOString().slice(0, 10),
			end_date: new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10),
		})
		const enrollment = await insertEnrollment(db, { userId: student.id, courseId: course.id })

		await page.goto('/dashboard/admin/courses')
		await page.getByRole('link', { name: `Completion of ${course.title}` }).click()
		await expect(page.getByRole('heading', { level: 1, name: `Completion of ${course.title}` })).toBeVisible()

		const attendance = page.getByLabel('Minimum attendance (% of held live sessions)')
		await attendance.fill('150')
		await page.getByRole('button', { name: 'Save Completion Rule' }).click()
		await expect(page.getByText('Enter a whole percentage from 0 to 100')).toBeVisible()
		await expect(attendance).toHaveValue('150')
		const unchanged = await db
			.selectFrom('courses')
			.select('completion_min_attendance_percent')
			.where('id', '=', course.id)
			.executeTakeFirstOrThrow()
		expect(unchanged.completion_min_attendance_percent).toBe(75)

		await attendance.fill('80')
		await page.getByLabel('Passing grade (%)').fill('70')
		await page.getByRole('button', { name: 'Save Completion Rule' }).click()
		await expect(page.getByText('Completion rule saved', { exact: true })).toBeVisible()
		await expect
			.poll(async () =>
				db
					.selectFrom('courses')
					.select(['completion_min_attendance_percent', 'completion_passing_grade_percent'])
					.where('id', '=', course.id)
					.executeTakeFirstOrThrow(),
			)
			.toEqual({ completion_min_attendance_percent: 80, completion_passing_grade_percent: 70 })

		await page.getByRole('button', { name: `Mark Completed ${student.name}` }).click()
		await expect(page.getByText('Marked completed', { exact: true })).toBeVisible()
		await page.getByRole('link', { name: `Reopen ${student.name}` }).click()
		await expect(page.getByRole('heading', { name: 'Reopen Enrollment' })).toBeVisible()
		await page.getByRole('button', { name: 'Reopen', exact: true }).click()
		await expect(page.getByText('Enrollment reopened', { exact: true })).toBeVisible()
		const revoked = await db
			.selectFrom('certificates')
			.select(['revoked_at'])
			.where('enrollment_id', '=', enrollment.id)
			.executeTakeFirstOrThrow()
		expect(revoked.revoked_at).not.toBeNull()
		await page.getByRole('button', { name: `Mark Completed ${student.name}` }).click()
		await expect(page.getByText('Marked completed', { exact: true })).toBeVisible()
		await expect(page.getByRole('link', { name: `Reopen ${student.name}` })).toBeVisible()

		await signIn(student)
		await page.goto('/dashboard')
		await expect(page.getByText('You have completed this course')).toBeVisible()
		await page.goto('/dashboard/certificates')
		const main = page.getByRole('main')
		// The certificate revoked on reopening stays listed as revoked; the new one is valid.
		await expect(main.getByRole('heading', { name: course.title })).toHaveCount(2)
		await expect(main.getByText('Valid certificate')).toHaveCount(1)
	})
}
