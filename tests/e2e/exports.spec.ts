/**
 * The CSV exports (issue 43 point 2, docs/decisions/066), with JavaScript on and off: the admin opens
 * Exports from the menu, downloads the payments of a range of days (in their own time zone) with the
 * plain GET form and a course's attendance; the course's instructor finds the course's exports and no payments.
 */

import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import type { Download } from '@playwright/test'
import { paymentColumns } from '#app/models/reports/exports.ts'
import { todayIn } from '#app/models/reports/overview.ts'
import { insertCourse, insertCourseStaff, insertEnrollment, insertLiveSession, insertPayment } from '#tests/support/fixtures.ts'
import { expect, test } from '../support/e2e.ts'

async function linesOf(download: Promise<Download>) {
	const file = await download
	const text = fs.readFileSync((await file.path())!, 'utf8')
	return { name: file.suggestedFilename(), lines: text.trim().split('\n') }
}

test('the admin downloads the payments of a range of days and a course’s attendance; its instructor the course’s exports and no payments', async ({
	page,
	db,
	createUser,
	signIn,
}) => {
	const title = `Cohort ${randomUUID().slice(0, 8)}`
	const course = await insertCourse(db, { title })
	const student = await createUser({ role: 'student' })
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await insertLiveSession(db, { courseId: course.id })
	const paidAt = new Date()
	await insertPayment(db, {
		user_id: student.id,
		course_id: course.id,
		course_title: title,
		customer_email: student.email,
		amount_cents: 125_000,
		status: 'paid',
		fulfilled_at: paidAt,
	})
	const zone = 'Pacific/Auckland'
	const today = todayIn(zone, paidAt)

	const admin = await createUser({ role: 'admin' })
	await db.updateTable('profiles').set({ time_zone: zone }).where('id', '=', admin.id).execute()
	await signIn(admin)
	await page.goto('/dashboard/admin/courses')
	await page.getByRole('link', { name: 'Exports', exact: true }).click()
	await expect(page.getByRole('heading', { name: 'Exports', level: 1 })).toBeVisible()
	await expect(page.getByText(`Days and times are in ${zone}`)).toBeVisible()
	await page.getByLabel('First day').fill(today)
	await page.getByLabel('Last day').fill(today)
	const payments = await linesOf(
		Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download payments CSV' }).click()]).then(
			([download]) => download,
		),
	)
	expect(payments.name).toBe(`payments-${today}-to-${today}.csv`)
	expect(payments.lines[0]).toBe(paymentColumns(zone).join(','))
	expect(payments.lines.find((line) => line.includes(student.email))).toContain(`,${title},1250.00,0.00,0.00,1250.00,USD,`)

	const attendance = await linesOf(
		Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Attendance, ${title} (CSV)` }).click()]).then(
			([download]) => download,
		),
	)
	expect(attendance.name).toMatch(/^attendance-cohort-[a-z0-9]+-\d{4}-\d{2}-\d{2}\.csv$/)
	expect(attendance.lines[0]).toBe('Student,Email,Week,Session start (UTC),Session end (UTC),Status,Minutes,Recorded from')
	expect(attendance.lines.slice(1)).toEqual([expect.stringMatching(new RegExp(`,${student.email},1,.*,Not recorded,,$`))])

	const instructor = await createUser({ role: 'instructor' })
	await insertCourseStaff(db, { courseId: course.id, userId: instructor.id })
	await signIn(instructor)
	await page.goto('/dashboard/admin/courses')
	await page.getByRole('link', { name: 'Exports', exact: true }).click()
	await expect(page.getByRole('heading', { name: 'Exports', level: 1 })).toBeVisible()
	await expect(page.getByRole('button', { name: 'Download payments CSV' })).toHaveCount(0)
	const roster = await linesOf(
		Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Roster with progress, ${title} (CSV)` }).click()]).then(
			([download]) => download,
		),
	)
	expect(roster.name).toMatch(/^progress-cohort-[a-z0-9]+-\d{4}-\d{2}-\d{2}\.csv$/)
	expect(roster.lines[0]).toMatch(/^Student,Email,Enrolled,Classes attended,Classes held,/)
	expect(roster.lines).toHaveLength(2)
})
