import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { insertCourse, insertEnrollment } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'

/** ADMIN_EMAILS of the e2e server (tests/support/e2e-env.ts). */
const DESIGNATED_EMAIL = 'designated-admin@example.com'
/** Both projects run against one database: this lock lets one test at a time own the designated address. */
const DESIGNATED_LOCK = 70_001

test('an admin searches for a student and removes them', async ({ page, db, createUser, signIn }) => {
	test.slow()
	const admin = await createUser({ role: 'admin' })
	const tag = randomUUID().slice(0, 8)
	const student = await createUser({ name: `Removable ${tag}` })
	const course = await insertCourse(db, { title: `Removal ${tag}` })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await signIn(admin)

	await page.goto('/dashboard/admin/users')
	await expect(page.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeVisible()
	await expect(page.getByRole('link', { name: 'Invite User' })).toBeVisible()
	for (const column of ['Name', 'Email', 'Role', 'Registered Date', 'Actions']) {
		await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible()
	}
	await expect(page.getByRole('row').filter({ hasText: admin.email })).toHaveCount(0)

	await page.getByLabel('Search users').fill(`REMOVABLE ${tag}`)
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page).toHaveURL(/\?q=REMOVABLE/)
	const row = page.getByRole('row').filter({ hasText: student.email })
	await expect(row).toHaveCount(1)
	await expect(row.getByText('student', { exact: true })).toBeVisible()
	await expect(row.getByRole('link', { name: /^Make Admin/ })).toHaveCount(0)

	await row.getByRole('link', { name: /^Remove/ }).click()
	const dialog = page.getByRole('dialog', { name: 'Remove User' })
	await expect(dialog.getByText(student.email)).toBeVisible()
	await dialog.getByRole('button', { name: 'Remove' }).click()
	await expect(page.getByText('User removed successfully')).toBeVisible()
	await expect(page.getByText('No matching users found')).toBeVisible()
	expect(await db.selectFrom('users').select('id').where('id', '=', student.id).execute()).toEqual([])
	expect(await db.selectFrom('enrollments').select('id').where('user_id', '=', student.id).execute()).toEqual([])
})

test('the designated account, and only it, can be made admin', async ({ page, db, createUser, signIn }) => {
	test.slow()
	await db.connection().execute(async (connection) => {
		await sql`SELECT pg_advisory_lock(${DESIGNATED_LOCK})`.execute(connection)
		try {
			// A rerun (or the other project) may have left it behind, already promoted.
			await db.deleteFrom('users').where('email', '=', DESIGNATED_EMAIL).execute()
			const designated = await createUser({ email: DESIGNATED_EMAIL, name: 'Designated Admin' })
			const admin = await createUser({ role: 'admin' })
			await signIn(admin)

			await page.goto(`/dashboard/admin/users?q=${encodeURIComponent(DESIGNATED_EMAIL)}`)
			const row = page.getByRole('row').filter({ hasText: DESIGNATED_EMAIL })
			await row.getByRole('link', { name: /^Make Admin/ }).click()
			// Promotion cannot be undone from here: it is asked first, and nothing changes until confirmed.
			const dialog = page.getByRole('dialog', { name: 'Make Admin' })
			await expect(dialog.getByText(`Make Designated Admin (${DESIGNATED_EMAIL}) an administrator?`)).toBeVisible()
			expect((await db.selectFrom('profiles').select('role').where('id', '=', designated.id).executeTakeFirstOrThrow()).role).toBe(
				'student',
			)
			await dialog.getByRole('button', { name: 'Make Admin' }).click()
			await expect(page.getByText('User promoted to admin successfully!')).toBeVisible()
			await expect(page.getByText('No matching users found')).toBeVisible()
			const profile = await db.selectFrom('profiles').select('role').where('id', '=', designated.id).executeTakeFirstOrThrow()
			expect(profile.role).toBe('admin')
		} finally {
			await sql`SELECT pg_advisory_unlock(${DESIGNATED_LOCK})`.execute(connection)
		}
	})
})
