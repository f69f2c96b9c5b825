import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'
import { insertCourse, insertEnrollment, insertLiveSession, insertWeek } from '#tests/support/fixtures.ts'
import { expect, markAttendanceByHand, test } from '../support/e2e-journeys.ts'

const MEETING = 'https://zoom.us/j/8451234567'

/** A course whose week 1 has a call link and a 60-minute session starting at `startsAt`. */
async function courseWithSession(db: Kysely<Database>, startsAt: Date) {
	const course = await insertCourse(db, { title: `Attendance ${randomUUID().slice(0, 6)}`, time_zone: 'America/New_York' })
	await insertWeek(db, { courseId: course.id, weekNumber: 1, topic: 'Making Offers', zoomLink: MEETING })
	const sessionId = await insertLiveSession(db, { courseId: course.id, startsAt, endsAt: new Date(startsAt.getTime() + 3_600_000) })
	return { course, sessionId }
}

test('a student clicks Join Class Session: the app records the join and sends them to the meeting', async ({
	page,
	context,
	db,
	signInAs,
}) => {
	const student = await signInAs({ name: 'Jo Joiner' })
	const { course, sessionId } = await courseWithSession(db, new Date(Date.now() + 5 * 60_000))
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	// The meeting is a stand-in: no request leaves the machine.
	await context.route(`${MEETING}*`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Meeting</title>' }))

	await page.goto(`/dashboard?course=${course.id}`)
	const join = page.getByRole('region', { name: 'Week 1: Making Offers' }).getByRole('link', { name: 'Join Class Session' })
	await expect(join).toHaveAttribute('href', `/dashboard/sessions/${sessionId}/join`)
	const meeting = context.waitForEvent('page')
	await join.click()
	const tab = await meeting
	await expect.poll(() => tab.url()).toBe(MEETING)
	await tab.close()
	const joins = await db.selectFrom('session_joins').select('user_id').where('live_session_id', '=', sessionId).execute()
	expect(joins).toEqual([{ user_id: student.id }])
	const recorded = await db.selectFrom('attendance').select(['status', 'source']).where('live_session_id', '=', sessionId).execute()
	expect(recorded).toEqual([{ status: 'present', source: 'join_link' }])
})

test('an admin marks the roster by hand, then previews and confirms a meeting report', async ({ page, db, signInAs, createUser }) => {
	await signInAs({ role: 'admin', name: 'Ada Admin' })
	const [ruth, sam, lee] = await Promise.all([
		createUser({ name: 'Ruth Present' }),
		createUser({ name: 'Sam Late' }),
		createUser({ name: 'Lee Excused' }),
	])
	const { course, sessionId } = await courseWithSession(db, new Date(Date.now() - 2 * 3_600_000))
	for (const one of [ruth!, sam!, lee!]) await insertEnrollment(db, { userId: one.id, courseId: course.id })

	await page.goto(`/dashboard/admin/courses/${course.id}/materials`)
	await markAttendanceByHand(page, { weekNumber: 1, student: 'Lee Excused', status: 'Excused' })
	await expect(page.getByRole('group', { name: /Lee Excused/ }).getByText('Excused · Set by hand, by Ada Admin')).toBeVisible()

	// Zoom's export: a meeting details block, then a row per join (Sam's two add up to less than half).
	const csv = [
		'Meeting ID,Topic,Start Time,End Time,User Email,Duration (Minutes),Participants',
		'84512345678,Week 1,01/13/2026 06:55:12 PM,01/13/2026 08:03:40 PM,coach@school.example,69,4',
		'',
		'Name (Original Name),User Email,Join Time,Leave Time,Duration (Minutes),Guest',
		`Ruth P (Ruth Present),${ruth!.email},01/13/2026 06:58:03 PM,01/13/2026 08:00:10 PM,62,No`,
		`Sam Late,${sam!.email},01/13/2026 07:20:00 PM,01/13/2026 07:30:00 PM,10,No`,
		'Coach Sam,coach@school.example,01/13/2026 06:55:12 PM,01/13/2026 08:03:40 PM,69,No',
		`Sam Late,${sam!.email},01/13/2026 07:40:00 PM,01/13/2026 07:55:00 PM,15,No`,
		`Lee Excused,${lee!.email},01/13/2026 07:00:00 PM,01/13/2026 08:00:00 PM,60,No`,
	].join('\n')
	await page
		.getByLabel('Participant report (.csv)')
		.setInputFiles({ name: 'participants.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
	await page.getByRole('button', { name: 'Preview Import' }).click()
	await expect(page.getByRole('heading', { level: 1, name: 'Import Preview: Week 1' })).toBeVisible()
	const previewUrl = page.url()
	await expect(page.getByText('Line 7: Coach Sam <coach@school.example>, 69 min')).toBeVisible()
	await expect(page.getByText('Kept: set by hand')).toBeVisible()
	// Nothing is saved before the confirmation.
	const reported = db.selectFrom('attendance').select('source').where('live_session_id', '=', sessionId).where('source', '=', 'report')
	expect(await reported.execute()).toEqual([])
	await page.getByRole('button', { name: 'Confirm Import' }).click()
	await expect(page.getByText('Report imported: 2 students updated')).toBeVisible()
	await expect(page.getByRole('group', { name: /Ruth Present/ }).getByText('Present · 60 min · Meeting report, by Ada Admin')).toBeVisible()
	await expect(page.getByRole('group', { name: /Sam Late/ }).getByText('Late · 25 min · Meeting report, by Ada Admin')).toBeVisible()
	await expect(page.getByRole('group', { name: /Lee Excused/ }).getByText('Excused · Set by hand, by Ada Admin')).toBeVisible()

	// On a phone neither page scrolls sideways; the applied preview says so instead of offering Confirm again.
	const rosterUrl = page.url()
	await page.setViewportSize({ width: 390, height: 844 })
	const sidewaysOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
	await page.goto(rosterUrl)
	expect(await sidewaysOverflow()).toBeLessThanOrEqual(0)
	await page.goto(previewUrl)
	await expect(page.getByText('This report was imported.')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Confirm Import' })).toHaveCount(0)
	expect(await sidewaysOverflow()).toBeLessThanOrEqual(0)
})

test('a malformed report is refused with the line, and nothing is saved', async ({ page, db, signInAs, createUser }) => {
	await signInAs({ role: 'admin' })
	const student = await createUser({ name: 'Mal Formed' })
	const { course, sessionId } = await courseWithSession(db, new Date(Date.now() - 2 * 3_600_000))
	await insertEnrollment(db, { userId: student.id, courseId: course.id })
	await page.goto(`/dashboard/admin/courses/${course.id}/sessions/${sessionId}/attendance`)
	const csv = `Name (Original Name),User Email,Duration (Minutes)\n"Mal Formed,${student.email},40\n`
	await page.getByLabel('Participant report (.csv)').setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
	await page.getByRole('button', { name: 'Preview Import' }).click()
	await expect(page.getByText('Line 2: a quoted field is opened with " and never closed.')).toBeVisible()
	expect(await db.selectFrom('attendance_imports').select('id').where('live_session_id', '=', sessionId).execute()).toEqual([])
})
