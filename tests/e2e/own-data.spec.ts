/**
 * A person's own data (issue 43 point 3, docs/decisions/067), with JavaScript on and off: Settings'
 * "Download my data" saves one ZIP with the JSON parts and the original files; "Delete my account"
 * asks for the password again on its own page, then signs the person out for good, and the
 * message they sent stays on its reader's Messages page as from "Deleted user".
 */

import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { unzipSync } from 'fflate'
import { submissionKey } from '#app/services/storage/keys.ts'
import { e2eServerStorage } from '#tests/support/e2e-env.ts'
import {
	insertAssignment,
	insertCertificate,
	insertCourse,
	insertEnrollment,
	insertMessage,
	insertSubmission,
} from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'

test('a student downloads their data from Settings as one ZIP with the original files', async ({ page, db, createUser, signIn }) => {
	const student = await createUser({ name: 'Dana Download' })
	const { courseId } = await insertCertificate(db, { userId: student.id, course: { title: `Archive course ${randomUUID().slice(0, 8)}` } })
	const assignment = await insertAssignment(db, { course_id: courseId, title: 'Comparable sales' })
	const key = submissionKey(assignment.id, student.id, 'comps.txt')
	await e2eServerStorage().put(key, Buffer.from('three comparable sales'), { contentType: 'text/plain' })
	const submission = await insertSubmission(db, {
		assignment_id: assignment.id,
		student_id: student.id,
		file_name: 'comps.txt',
		file_type: 'text/plain',
		file_size: 22,
		storage_key: key,
	})
	await signIn(student)

	await page.goto('/dashboard/settings')
	await expect(page.getByText('Download everything the school keeps about you as one ZIP file')).toBeVisible()
	const download = page.waitForEvent('download')
	await page.getByRole('button', { name: 'Download my data' }).click()
	const archive = await download
	expect(archive.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.zip$/)
	const entries = unzipSync(new Uint8Array(fs.readFileSync((await archive.path())!)))
	const text = (name: string) => new TextDecoder().decode(entries[name])
	expect(Object.keys(entries)).toEqual(
		expect.arrayContaining(['README.txt', 'profile.json', 'payments.json', 'messages.json', 'certificates.json']),
	)
	expect(JSON.parse(text('profile.json'))).toMatchObject({ name: 'Dana Download', email: student.email })
	expect(text(`files/submissions/${submission.id}-comps.txt`)).toBe('three comparable sales')
	expect(JSON.parse(text('certificates.json'))).toEqual([expect.objectContaining({ recipientName: 'Dana Download' })])
	await expect(page).toHaveURL(/\/dashboard\/settings$/)
})

test('a student deletes their account: the password again, then signed out for good; their message stays as from "Deleted user"', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const student = await createUser({ name: 'Lee Leaving' })
	const reader = await createUser({ name: 'Rory Reader' })
	const message = await insertMessage(db, { sender_id: student.id, receiver_id: reader.id, content: 'Thanks for the notes!' })
	await signIn(student)

	await page.goto('/dashboard/settings')
	await page.getByRole('link', { name: 'Delete my account' }).click()
	await expect(page).toHaveURL(/\/dashboard\/settings\/delete-account$/)
	await expect(page.getByRole('heading', { level: 1, name: 'Delete your account' })).toBeVisible()
	await expect(page.getByText('payment records, without your name and e-mail address, as accounting law requires')).toBeVisible()

	await page.getByLabel('Password', { exact: true }).fill('not-my-password')
	await page.getByRole('checkbox', { name: /I understand/ }).check()
	await page.getByRole('button', { name: 'Delete my account permanently' }).click()
	await expect(page.getByText('The password is incorrect.')).toBeVisible()
	expect(await db.selectFrom('users').select('id').where('id', '=', student.id).execute()).toHaveLength(1)

	await page.getByLabel('Password', { exact: true }).fill(student.password)
	await page.getByRole('checkbox', { name: /I understand/ }).check()
	await page.getByRole('button', { name: 'Delete my account permanently' }).click()
	await expect(page).toHaveURL(/\/$/)
	await expect(page.getByText('Your account has been deleted')).toBeVisible()

	await page.goto('/dashboard')
	await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard/)
	await page.getByLabel('Email').fill(student.email)
	await page.getByLabel('Password', { exact: true }).fill(student.password)
	await page.getByRole('button', { name: 'Log in' }).click()
	await expect(page.getByText('Invalid email or password')).toBeVisible()

	expect(await db.selectFrom('users').select('id').where('id', '=', student.id).execute()).toEqual([])
	const kept = await db.selectFrom('messages').select(['sender_id', 'content']).where('id', '=', message.id).executeTakeFirstOrThrow()
	expect(kept).toEqual({ sender_id: null, content: 'Thanks for the notes!' })

	await signIn(reader)
	await page.goto('/dashboard/messages')
	const fromDeleted = page.getByRole('log', { name: 'Messages with Deleted user' })
	await expect(fromDeleted.getByText('Thanks for the notes!')).toBeVisible()
	await expect(fromDeleted.getByText('Deleted user', { exact: true })).toBeVisible()
})

test('a student still enrolled is told to contact the school, and stays signed in; the Privacy Policy says what both do', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const student = await createUser({ name: 'Ella Enrolled' })
	const course = await insertCourse(db, { title: `Running course ${randomUUID().slice(0, 8)}` })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await signIn(student)

	await page.goto('/dashboard/settings/delete-account')
	await page.getByLabel('Password', { exact: true }).fill(student.password)
	await page.getByRole('checkbox', { name: /I understand/ }).check()
	await page.getByRole('button', { name: 'Delete my account permanently' }).click()
	await expect(page.getByText('Contact the school to withdraw first; your account can be deleted after that.')).toBeVisible()
	expect(await db.selectFrom('users').select('id').where('id', '=', student.id).execute()).toHaveLength(1)
	await page.goto('/dashboard')
	await expect(page).toHaveURL(/\/dashboard$/)

	await page.goto('/privacy')
	const rights = page.getByRole('heading', { level: 2, name: 'Your Rights' }).locator('xpath=..')
	await expect(rights.getByText(/"Download my data" gives you one ZIP file/)).toBeVisible()
	await expect(rights.getByText(/"Delete my account" asks for your password again/)).toBeVisible()
})
