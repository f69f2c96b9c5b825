/**
 * Dated live sessions (docs/decisions/031, 032): the schedule keeps its wall-clock time across a
 * DST change, admins move and cancel sessions one by one (students get a notice), and reminders go
 * once per student and session, from any number of processes, never after the start.
 */
import { beforeEach, describe, expect, test } from 'vitest'
import { listCourseSessions } from '#app/models/sessions/live-sessions.server.ts'
import { describeSchedule, dueReminderLead, formatSessionTime } from '#app/models/sessions/live-sessions.ts'
import { changeSession, SessionChangeError } from '#app/models/sessions/live-sessions-admin.server.ts'
import { sendDueReminders, sendWeekOpenNotices } from '#app/models/sessions/session-emails.server.ts'
import { syncCourseSessions, weekSessionTimes } from '#app/models/sessions/session-schedule.server.ts'
import { action as coursesAction } from '#app/routes/admin/courses.tsx'
import { action as sessionEditAction, loader as sessionEditLoader } from '#app/routes/admin/session-edit.tsx'
import { loader as weekEditLoader } from '#app/routes/admin/week-edit.tsx'
import { addJob } from '#app/services/jobs/queue.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertLiveSession, insertUser, insertWeek } from '#tests/support/fixtures.ts'
import { runInTwoJobRunners } from '#tests/support/job-runners.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()
const ZONE = 'America/New_York'
const MINUTE = 60_000

// Each test counts the mails its own sessions cause: the sessions of earlier tests go.
beforeEach(async () => {
	await t.db.deleteFrom('live_sessions').execute()
})

/** A course meeting on Tuesdays at 7 pm New York time, from 20 Oct 2026 (DST ends on 1 Nov). */
async function scheduledCourse(values: { startDate?: string; endDate?: string; weekday?: number; startTime?: string } = {}) {
	const course = await insertCourse(t.db, {
		start_date: values.startDate ?? '2026-10-20',
		end_date: values.endDate ?? '2026-11-16',
		time_zone: ZONE,
		schedule_weekday: values.weekday ?? 2,
		schedule_start_time: values.startTime ?? '19:00',
		schedule_minutes: 60,
	})
	await syncCourseSessions(t.db, course.id, new Date('2026-10-01T00:00:00Z'))
	return course
}

async function mailsTo(email: string, subjectLike: string) {
	return t.db
		.selectFrom('email_outbox')
		.select(['subject', 'text_body as text'])
		.where('to_address', '=', email)
		.where('subject', 'like', subjectLike)
		.orderBy('id')
		.execute()
}

async function studentIn(courseId: number, { reminders = true, timeZone = null as string | null } = {}) {
	const email = `${crypto.randomUUID()}@example.com`
	const id = await insertUser(t.db, { email, name: 'Ada' })
	await t.db.updateTable('profiles').set({ email_reminders: reminders, time_zone: timeZone }).where('id', '=', id).execute()
	await insertEnrollment(t.db, { userId: id, courseId })
	return { id, email }
}

describe('the weekly schedule', () => {
	test('keeps 7 pm New York time across the end of DST, and reads so in the zone', () => {
		const schedule = { startDate: '2026-10-20', weekday: 2, startTime: '19:00', minutes: 60, timeZone: ZONE }
		const before = weekSessionTimes(schedule, 2)
		const after = weekSessionTimes(schedule, 3)
		expect(before.startsAt.toISOString()).toBe('2026-10-27T23:00:00.000Z')
		expect(after.startsAt.toISOString()).toBe('2026-11-04T00:00:00.000Z')
		expect(after.endsAt.getTime() - after.startsAt.getTime()).toBe(60 * MINUTE)
		expect(formatSessionTime(before.startsAt, before.endsAt, ZONE)).toBe('Tue 27 Oct, 7:00–8:00 pm EDT')
		expect(formatSessionTime(after.startsAt, after.endsAt, ZONE)).toBe('Tue 3 Nov, 7:00–8:00 pm EST')
		// A student in Berlin reads the same instants in their own time (Berlin changed a week earlier).
		expect(formatSessionTime(after.startsAt, after.endsAt, 'Europe/Berlin')).toBe('Wed 4 Nov, 1:00–2:00 am CET')
		expect(describeSchedule(schedule, { count: 4, firstStartsAt: weekSessionTimes(schedule, 1).startsAt })).toBe(
			'Tuesdays 7 pm ET, 4 sessions from 20 Oct',
		)
	})

	test('a start date that is not the weekday begins on the next one; a wall-clock time DST skips moves forward', () => {
		const schedule = { startDate: '2027-03-10', weekday: 7, startTime: '02:30', minutes: 30, timeZone: ZONE }
		// Sunday 14 March 2027, 2:30 does not exist in New York: 3:30 EDT.
		expect(weekSessionTimes(schedule, 1).startsAt.toISOString()).toBe('2027-03-14T07:30:00.000Z')
	})

	test('gives every week of the course a session, and moves the ones ahead when the schedule changes', async () => {
		const course = await scheduledCourse()
		const sessions = await listCourseSessions(t.db, course.id)
		expect(sessions.map((session) => session.weekNumber)).toEqual([1, 2, 3, 4])
		expect(sessions.every((session) => session.sequence === 0 && session.status === 'scheduled')).toBe(true)

		await t.db.updateTable('courses').set({ schedule_start_time: '18:30' }).where('id', '=', course.id).execute()
		// Between week 2 and week 3: the past stays, the rest follows.
		await syncCourseSessions(t.db, course.id, new Date('2026-10-30T00:00:00Z'))
		const moved = await listCourseSessions(t.db, course.id)
		expect(moved.map((session) => session.sequence)).toEqual([0, 0, 1, 1])
		expect(formatSessionTime(moved[2]!.startsAt, moved[2]!.endsAt, ZONE)).toBe('Tue 3 Nov, 6:30–7:30 pm EST')

		// A shorter course cancels the sessions beyond its last week instead of deleting them.
		await t.db.updateTable('courses').set({ end_date: '2026-11-09' }).where('id', '=', course.id).execute()
		await syncCourseSessions(t.db, course.id, new Date('2026-10-30T00:00:00Z'))
		const shortened = await listCourseSessions(t.db, course.id)
		expect(shortened.map((session) => [session.status, session.sequence])).toEqual([
			['scheduled', 0],
			['scheduled', 0],
			['scheduled', 1],
			['cancelled', 2],
		])
	})
})

describe('changing one session', () => {
	test('moving it across the DST change keeps the wall clock typed, mails a notice, and the schedule leaves it alone', async () => {
		const course = await scheduledCourse()
		const student = await studentIn(course.id, { timeZone: 'Europe/London' })
		const admin = await insertUser(t.db, { role: 'admin' })
		const [week1] = await listCourseSessions(t.db, course.id)
		const now = new Date('2026-10-01T00:00:00Z')
		await changeSession(t.db, {
			adminId: admin,
			courseId: course.id,
			sessionId: week1!.id,
			change: { kind: 'move', date: '2026-11-05', startTime: '19:00', minutes: 90, note: 'Guest speaker' },
			now,
		})
		const [moved] = await listCourseSessions(t.db, course.id)
		expect(moved!.startsAt.toISOString()).toBe('2026-11-06T00:00:00.000Z')
		expect(moved!.endsAt.toISOString()).toBe('2026-11-06T01:30:00.000Z')
		expect(moved).toMatchObject({ sequence: 1, rescheduled: true, note: 'Guest speaker', status: 'scheduled' })
		const [notice] = await mailsTo(student.email, '%live session moved')
		expect(notice!.text).toContain('is now on Fri 6 Nov, 12:00–1:30 am GMT (it was Wed 21 Oct, 12:00–1:00 am BST)')
		expect(notice!.text).toContain('Guest speaker')

		await syncCourseSessions(t.db, course.id, now)
		expect((await listCourseSessions(t.db, course.id))[0]!.startsAt.toISOString()).toBe('2026-11-06T00:00:00.000Z')

		await changeSession(t.db, {
			adminId: admin,
			courseId: course.id,
			sessionId: week1!.id,
			change: { kind: 'cancel', note: 'Instructor ill' },
			now,
		})
		expect((await listCourseSessions(t.db, course.id))[0]).toMatchObject({ status: 'cancelled', sequence: 2, note: 'Instructor ill' })
		const [cancelled] = await mailsTo(student.email, '%live session cancelled')
		expect(cancelled!.text).toContain('Instructor ill')
	})

	test('a session that is over cannot be changed, and a move into the past is refused', async () => {
		const course = await scheduledCourse()
		const admin = await insertUser(t.db, { role: 'admin' })
		const [week1] = await listCourseSessions(t.db, course.id)
		await expect(
			changeSession(t.db, { adminId: admin, courseId: course.id, sessionId: week1!.id, change: { kind: 'cancel', note: null } }),
		).rejects.toBeInstanceOf(SessionChangeError)
		await expect(
			changeSession(t.db, {
				adminId: admin,
				courseId: course.id,
				sessionId: week1!.id,
				change: { kind: 'move', date: '2026-09-01', startTime: '19:00', minutes: 60, note: null },
				now: new Date('2026-10-01T00:00:00Z'),
			}),
		).rejects.toBeInstanceOf(SessionChangeError)
		expect((await listCourseSessions(t.db, course.id))[0]).toMatchObject({ sequence: 0, status: 'scheduled' })
	})
})

describe('reminders', () => {
	test('the due lead time is the one passed most recently, and none after the start', () => {
		const start = new Date('2026-11-04T00:00:00Z')
		const at = (minutesBefore: number) => new Date(start.getTime() - minutesBefore * MINUTE)
		expect(dueReminderLead(start, [1440, 60], at(1500))).toBeNull()
		expect(dueReminderLead(start, [1440, 60], at(1440))).toBe(1440)
		expect(dueReminderLead(start, [1440, 60], at(61))).toBe(1440)
		expect(dueReminderLead(start, [1440, 60], at(30))).toBe(60)
		expect(dueReminderLead(start, [1440, null], at(30))).toBe(1440)
		expect(dueReminderLead(start, [1440, 60], at(0))).toBeNull()
	})

	test('24 h and 1 h before, each once, in the student’s zone, after a DST change; not to those who turned them off', async () => {
		const course = await scheduledCourse()
		const week3 = (await listCourseSessions(t.db, course.id))[2]!
		await insertWeek(t.db, { courseId: course.id, weekNumber: 3, topic: 'Financing', zoomLink: 'https://zoom.us/j/333' })
		const student = await studentIn(course.id)
		const quiet = await studentIn(course.id, { reminders: false })
		const gone = await studentIn(course.id)
		await t.db.updateTable('enrollments').set({ status: 'inactive' }).where('user_id', '=', gone.id).execute()
		const minutesBefore = (minutes: number) => new Date(week3.startsAt.getTime() - minutes * MINUTE)

		expect((await sendDueReminders(t.db, minutesBefore(1441))).sent).toBe(0)
		expect((await sendDueReminders(t.db, minutesBefore(1440))).sent).toBe(1)
		expect((await sendDueReminders(t.db, minutesBefore(1000))).sent).toBe(0)
		expect((await sendDueReminders(t.db, minutesBefore(60))).sent).toBe(1)
		expect((await sendDueReminders(t.db, minutesBefore(1))).sent).toBe(0)
		const mails = await mailsTo(student.email, 'Reminder:%')
		expect(mails.map((mail) => mail.subject)).toEqual([
			`Reminder: ${course.title}, week 3 live session in 24 hours`,
			`Reminder: ${course.title}, week 3 live session in 1 hour`,
		])
		expect(mails[1]!.text).toContain('Tue 3 Nov, 7:00–8:00 pm EST')
		// Through the app, which records the join before sending the student on (docs/decisions/048).
		expect(mails[1]!.text).toContain(`http://localhost:3000/dashboard/sessions/${week3.id}/join`)
		expect(mails[1]!.text).not.toContain('https://zoom.us/j/333')
		expect(await mailsTo(quiet.email, 'Reminder:%')).toEqual([])
		expect(await mailsTo(gone.email, 'Reminder:%')).toEqual([])
	})

	test('one missed while nothing ran goes late only before the start, naming the time left; a longer one passed over is not sent', async () => {
		const course = await scheduledCourse()
		const [week1, week2] = await listCourseSessions(t.db, course.id)
		const student = await studentIn(course.id)
		// Down from two days before week 1 until 30 minutes before it: only the 1-hour reminder goes.
		expect((await sendDueReminders(t.db, new Date(week1!.startsAt.getTime() - 30 * MINUTE))).sent).toBe(1)
		// Down until after week 2 started: nothing.
		expect((await sendDueReminders(t.db, new Date(week2!.startsAt.getTime() + MINUTE))).sent).toBe(0)
		const mails = await mailsTo(student.email, 'Reminder:%')
		expect(mails.map((mail) => mail.subject)).toEqual([`Reminder: ${course.title}, week 1 live session in 30 minutes`])
		expect(mails[0]!.text).toMatch(/week 1 meets in 30 minutes/i)
	})

	test('a student who enrols 13½ hours before class is told the time left, not "24 hours"; up to 5 minutes late still names the lead', async () => {
		const course = await scheduledCourse()
		const [week1, week2] = await listCourseSessions(t.db, course.id)
		const student = await studentIn(course.id)
		expect((await sendDueReminders(t.db, new Date(week1!.startsAt.getTime() - (13 * 60 + 32) * MINUTE))).sent).toBe(1)
		expect((await sendDueReminders(t.db, new Date(week1!.startsAt.getTime() - 20 * 60 * MINUTE))).sent).toBe(0)
		expect((await sendDueReminders(t.db, new Date(week1!.startsAt.getTime() - 60 * MINUTE))).sent).toBe(1)
		expect((await sendDueReminders(t.db, new Date(week2!.startsAt.getTime() - 1435 * MINUTE))).sent).toBe(1)
		expect((await mailsTo(student.email, 'Reminder:%')).map((mail) => mail.subject)).toEqual([
			`Reminder: ${course.title}, week 1 live session in 13 hours 30 minutes`,
			`Reminder: ${course.title}, week 1 live session in 1 hour`,
			`Reminder: ${course.title}, week 2 live session in 24 hours`,
		])
	})

	test('a session moved after its reminders gets its notice, not a second reminder of a lead time already passed', async () => {
		const course = await scheduledCourse()
		const admin = await insertUser(t.db, { role: 'admin' })
		const [week1, week2] = await listCourseSessions(t.db, course.id)
		const student = await studentIn(course.id)
		const dayBefore = new Date(week1!.startsAt.getTime() - 1440 * MINUTE)
		expect((await sendDueReminders(t.db, dayBefore)).sent).toBe(1)
		// Moved 30 minutes earlier, 20 minutes after the reminder: the next minutes send nothing more
		// until the 1-hour reminder at the new time.
		const movedAt = new Date(dayBefore.getTime() + 20 * MINUTE)
		await changeSession(t.db, {
			adminId: admin,
			courseId: course.id,
			sessionId: week1!.id,
			change: { kind: 'move', date: '2026-10-20', startTime: '18:30', minutes: 60, note: null },
			now: movedAt,
		})
		for (const minutesAfter of [1, 2, 5]) {
			expect((await sendDueReminders(t.db, new Date(movedAt.getTime() + minutesAfter * MINUTE))).sent).toBe(0)
		}
		expect((await sendDueReminders(t.db, new Date(week1!.startsAt.getTime() - 90 * MINUTE))).sent).toBe(1)
		// Week 2 moved to 40 minutes from now, before any of its reminders: the notice stands for both.
		await changeSession(t.db, {
			adminId: admin,
			courseId: course.id,
			sessionId: week2!.id,
			change: { kind: 'move', date: '2026-10-24', startTime: '18:00', minutes: 60, note: null },
			now: new Date('2026-10-24T21:20:00Z'),
		})
		for (const at of ['2026-10-24T21:21:00Z', '2026-10-24T21:30:00Z', '2026-10-24T21:59:00Z']) {
			expect((await sendDueReminders(t.db, new Date(at))).sent).toBe(0)
		}
		expect((await mailsTo(student.email, 'Reminder:%')).map((mail) => mail.subject)).toEqual([
			`Reminder: ${course.title}, week 1 live session in 24 hours`,
			`Reminder: ${course.title}, week 1 live session in 1 hour`,
		])
		expect(await mailsTo(student.email, '%moved%')).toHaveLength(2)
	})

	test('a cancelled session gets no reminder; a moved one gets reminders for its new time', async () => {
		const course = await scheduledCourse()
		const admin = await insertUser(t.db, { role: 'admin' })
		const [week1, week2] = await listCourseSessions(t.db, course.id)
		const student = await studentIn(course.id)
		const early = new Date(week1!.startsAt.getTime() - 60 * MINUTE)
		expect((await sendDueReminders(t.db, early)).sent).toBe(1)
		await changeSession(t.db, {
			adminId: admin,
			courseId: course.id,
			sessionId: week1!.id,
			change: { kind: 'move', date: '2026-10-22', startTime: '19:00', minutes: 60, note: null },
			now: early,
		})
		await changeSession(t.db, {
			adminId: admin,
			courseId: course.id,
			sessionId: week2!.id,
			change: { kind: 'cancel', note: null },
			now: early,
		})
		expect((await sendDueReminders(t.db, new Date('2026-10-22T22:00:00Z'))).sent).toBe(1)
		expect((await sendDueReminders(t.db, new Date(week2!.startsAt.getTime() - 30 * MINUTE))).sent).toBe(0)
		expect(await mailsTo(student.email, 'Reminder:%')).toHaveLength(2)
	})

	test('many runs at once, in two job runners (two app processes), send each reminder once', async () => {
		const course = await insertCourse(t.db)
		const startsAt = new Date(Date.now() + 30 * MINUTE)
		await insertLiveSession(t.db, { courseId: course.id, startsAt, endsAt: new Date(startsAt.getTime() + 60 * MINUTE), timeZone: ZONE })
		const students = await Promise.all(Array.from({ length: 8 }, () => studentIn(course.id)))
		await runInTwoJobRunners({ databaseUrl: t.url, db: t.db, tasks: ['send-session-reminders'] }, () =>
			Promise.all(Array.from({ length: 12 }, () => addJob(t.db, 'send-session-reminders'))),
		)
		for (const student of students) expect(await mailsTo(student.email, 'Reminder:%')).toHaveLength(1)
	})
})

describe('week opening notices', () => {
	test('go once, to active students of a course that announces openings, when the week opens', async () => {
		const course = await scheduledCourse()
		await t.db.updateTable('courses').set({ announce_week_open: true, weeks_open_days_before: 3 }).where('id', '=', course.id).execute()
		const student = await studentIn(course.id)
		const week2 = (await listCourseSessions(t.db, course.id))[1]!
		const opens = new Date(week2.startsAt.getTime() - 3 * 86_400_000)
		const week1 = (await listCourseSessions(t.db, course.id))[0]!
		expect((await sendWeekOpenNotices(t.db, new Date(week1.startsAt.getTime() - 3 * 86_400_000))).sent).toBe(1)
		expect((await sendWeekOpenNotices(t.db, new Date(opens.getTime() - MINUTE))).sent).toBe(0)
		const results = await Promise.all([sendWeekOpenNotices(t.db, opens), sendWeekOpenNotices(t.db, opens)])
		expect(results.map((result) => result.sent).sort()).toEqual([0, 1])
		expect((await mailsTo(student.email, '%is open')).map((mail) => mail.subject)).toEqual([
			`${course.title}: week 1 is open`,
			`${course.title}: week 2 is open`,
		])
	})
})

describe('the admin screens', () => {
	const course = {
		title: 'Scheduled course',
		description: 'Weekly classes',
		startDate: '2031-01-10',
		endDate: '2031-03-06',
		registrationFee: '0',
		capacity: '10',
		timeZone: 'Europe/Berlin',
		scheduleWeekday: '2',
		scheduleStartTime: '19:00',
		scheduleMinutes: '90',
		weeksOpenDaysBefore: '3',
		reminderFirstHours: '48',
		reminderSecondMinutes: '0',
		announceWeekOpen: 'on',
	}

	test('the course form saves the schedule and gives each week its session', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const response = await callRoute(coursesAction, formRequest('/dashboard/admin/courses', course, { cookie: admin.cookie }))
		expect(response.status).toBe(302)
		const stored = await t.db.selectFrom('courses').selectAll().where('title', '=', 'Scheduled course').executeTakeFirstOrThrow()
		expect(stored).toMatchObject({
			time_zone: 'Europe/Berlin',
			schedule_weekday: 2,
			schedule_start_time: '19:00:00',
			schedule_minutes: 90,
			weeks_open_days_before: 3,
			reminder_first_minutes: 2880,
			reminder_second_minutes: null,
			announce_week_open: true,
		})
		const sessions = await listCourseSessions(t.db, stored.id)
		expect(sessions).toHaveLength(8)
		expect(formatSessionTime(sessions[0]!.startsAt, sessions[0]!.endsAt, 'Europe/Berlin')).toBe('Tue 14 Jan, 7:00–8:30 pm CET')
	})

	test.each([
		[{ scheduleStartTime: '' }, 'scheduleStartTime', 'Enter the start time of the weekly session, e.g. 19:00'],
		[{ startDate: '' }, 'startDate', 'A weekly schedule needs the course start date'],
		[{ timeZone: 'Mars/Olympus' }, 'timeZone', 'Choose a time zone from the list'],
		[{ scheduleMinutes: '2000' }, 'scheduleMinutes', 'Length must be a whole number of minutes from 5 to 720'],
		[{ reminderFirstHours: '-1' }, 'reminderFirstHours', 'First reminder cannot be negative'],
	])('refuses %o with a message under the field and writes nothing', async (change, field, message) => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const title = `Refused ${crypto.randomUUID()}`
		const response = await callRoute(
			coursesAction,
			formRequest('/dashboard/admin/courses', { ...course, ...change, title }, { cookie: admin.cookie }),
		)
		expect(response.status).toBe(400)
		const reply = (await response.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
		expect(reply.result.error[field]).toEqual([message])
		expect(reply.result.initialValue.title).toBe(title)
		expect(await t.db.selectFrom('courses').select('id').where('title', '=', title).execute()).toEqual([])
	})

	test('the session editor moves, cancels (confirmed), restores and opens the week', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const created = await insertCourse(t.db, {
			start_date: '2031-01-10',
			end_date: '2031-01-20',
			time_zone: ZONE,
			schedule_weekday: 2,
			schedule_start_time: '19:00',
			schedule_minutes: 60,
		})
		await syncCourseSessions(t.db, created.id)
		const [session] = await listCourseSessions(t.db, created.id)
		const path = `/dashboard/admin/courses/${created.id}/materials/sessions/${session!.id}`
		const params = { courseId: String(created.id), liveSessionId: String(session!.id) }
		const post = (fields: Record<string, string>) =>
			callRoute(sessionEditAction, formRequest(path, fields, { cookie: admin.cookie }), params)

		const page = await callRoute(sessionEditLoader, getRequest(path, { cookie: admin.cookie }), params)
		expect((await page.json()).session).toMatchObject({ when: 'Tue 14 Jan, 7:00–8:00 pm EST', date: '2031-01-14', startTime: '19:00' })

		const moved = await post({ intent: 'move', date: '2031-01-15', startTime: '18:00', minutes: '45', note: 'Wednesday this week' })
		expect(moved.status).toBe(302)
		expect(await toastOf(moved)).toMatchObject({ type: 'success' })
		expect((await listCourseSessions(t.db, created.id))[0]).toMatchObject({
			startsAt: new Date('2031-01-15T23:00:00Z'),
			endsAt: new Date('2031-01-15T23:45:00Z'),
			sequence: 1,
		})

		const unconfirmed = await post({ intent: 'cancel', note: 'Snow' })
		expect(unconfirmed.status).toBe(400)
		expect((await listCourseSessions(t.db, created.id))[0]!.status).toBe('scheduled')
		expect((await post({ intent: 'cancel', note: 'Snow', confirm: 'on' })).status).toBe(302)
		expect((await listCourseSessions(t.db, created.id))[0]).toMatchObject({ status: 'cancelled', note: 'Snow', sequence: 2 })
		expect((await post({ intent: 'restore' })).status).toBe(302)
		expect((await listCourseSessions(t.db, created.id))[0]).toMatchObject({ status: 'scheduled', note: null, sequence: 3 })

		const before = Date.now()
		expect((await post({ intent: 'open-now' })).status).toBe(302)
		expect((await listCourseSessions(t.db, created.id))[0]!.opensAt!.getTime()).toBeGreaterThanOrEqual(before - 1000)
		expect((await post({ intent: 'open-at', opensDate: '2031-01-12', opensTime: '09:00' })).status).toBe(302)
		expect((await listCourseSessions(t.db, created.id))[0]!.opensAt).toEqual(new Date('2031-01-12T14:00:00Z'))
		expect((await post({ intent: 'open-default' })).status).toBe(302)
		expect((await listCourseSessions(t.db, created.id))[0]!.opensAt).toBeNull()

		const invalid = await post({ intent: 'move', date: 'soon', startTime: '25:00', minutes: '60' })
		expect(invalid.status).toBe(400)

		// A note with a control character (PostgreSQL text cannot hold NUL) is refused under the field, as typed, and nothing is sent.
		const unchanged = await listCourseSessions(t.db, created.id)
		const mails = await t.db.selectFrom('email_outbox').select('id').execute()
		const refusedForms: Record<string, string>[] = [
			{ intent: 'move', date: '2031-01-16', startTime: '18:00', minutes: '45', note: 'Moved\u0000' },
			{ intent: 'cancel', note: 'Snow\u001b[31m', confirm: 'on' },
		]
		for (const fields of refusedForms) {
			const refused = await post(fields)
			expect(refused.status).toBe(400)
			const reply = (await refused.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
			expect(reply.result.error.note).toEqual(['The note must not contain control characters'])
			expect(reply.result.initialValue.note).toBe(fields.note)
		}
		expect(await listCourseSessions(t.db, created.id)).toEqual(unchanged)
		expect(await t.db.selectFrom('email_outbox').select('id').execute()).toEqual(mails)

		// The week editor names the week's session and links to this editor.
		const weekId = await insertWeek(t.db, { courseId: created.id, weekNumber: 1 })
		const weekPage = await callRoute(
			weekEditLoader,
			getRequest(`/dashboard/admin/courses/${created.id}/materials/${weekId}/edit`, { cookie: admin.cookie }),
			{ courseId: String(created.id), weekId: String(weekId) },
		)
		expect((await weekPage.json()).session).toMatchObject({ id: session!.id, when: 'Wed 15 Jan, 6:00–6:45 pm EST' })
	})
})
