/**
 * What a student sees of live sessions (docs/decisions/031): times in their zone on the dashboard,
 * the Next live session card, weeks that open on schedule (files refused until then on every route),
 * the time-zone setting, and the private calendar feed, parsed here with ical.js (another library
 * than the one that writes it). One test moves a session across the start of DST and checks the
 * feed, the dashboard text and the reminder time together.
 */
import ICAL from 'ical.js'
import { beforeEach, describe, expect, test } from 'vitest'
import { sendEnrollmentReceipt } from '#app/models/enrollment/enrollment-emails.server.ts'
import type { CourseWeekList, MaterialListItem } from '#app/models/materials/materials.ts'
import { listCourseSessions } from '#app/models/sessions/live-sessions.server.ts'
import { changeSession } from '#app/models/sessions/live-sessions-admin.server.ts'
import { sendDueReminders } from '#app/models/sessions/session-emails.server.ts'
import { syncCourseSessions } from '#app/models/sessions/session-schedule.server.ts'
import { loader as dashboardLoader } from '#app/routes/dashboard/index.tsx'
import { loader as viewerLoader } from '#app/routes/dashboard/material-viewer.tsx'
import { action as settingsAction, loader as settingsLoader } from '#app/routes/dashboard/settings.tsx'
import { loader as calendarLoader } from '#app/routes/resources/calendar-feed.ts'
import { loader as fileLoader } from '#app/routes/resources/material-file.ts'
import { loader as previewLoader } from '#app/routes/resources/material-preview.ts'
import { materialKey } from '#app/services/storage/keys.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertLiveSession, insertMaterialItem, insertUser, insertWeek } from '#tests/support/fixtures.ts'
import { pageData } from '#tests/support/loaders.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor, toastOf } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
const files = useTestStorage()
const ZONE = 'America/New_York'
const HOUR = 3_600_000
const DAY = 24 * HOUR

beforeEach(async () => {
	await t.db.deleteFrom('live_sessions').execute()
})

async function person(role: 'student' | 'admin' = 'student', timeZone: string | null = null) {
	const id = await insertUser(t.db, { role, name: role === 'admin' ? 'Ada Admin' : 'Sam Student' })
	if (timeZone) await t.db.updateTable('profiles').set({ time_zone: timeZone }).where('id', '=', id).execute()
	return { id, cookie: await sessionCookieFor(id) }
}

/** A course with one week row and a stored PDF in it, and a live session for that week at `startsAt`. */
async function courseWithSession(startsAt: Date, { zoomLink = 'https://zoom.us/j/42' as string | null } = {}) {
	const course = await insertCourse(t.db, { time_zone: ZONE, weeks_open_days_before: 3 })
	const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: 1, topic: 'Offers', zoomLink })
	const key = materialKey(course.id, weekId, 'material', 'notes.pdf')
	await files.storage.put(key, new TextEncoder().encode('%PDF-1.4 notes %%EOF'), { contentType: 'application/pdf' })
	const itemId = await insertMaterialItem(t.db, {
		courseId: course.id,
		weekId,
		title: 'Notes',
		storageKey: key,
		mimeType: 'application/pdf',
		sizeBytes: null,
	})
	const sessionId = await insertLiveSession(t.db, {
		courseId: course.id,
		startsAt,
		endsAt: new Date(startsAt.getTime() + HOUR),
		timeZone: ZONE,
	})
	return { course, weekId, itemId, sessionId }
}

/** Tuesdays 7 pm New York, 2 to 22 March 2027 (DST starts on 14 March). */
const MARCH_2027_TUESDAYS = { startDate: '2027-03-02', endDate: '2027-03-22', weekday: 2, startTime: '19:00' }

/** A course in New York with a weekly hour-long schedule, its sessions made as of `syncedAt`. */
async function scheduledCourse(
	{ startDate, endDate, weekday, startTime }: { startDate: string; endDate: string; weekday: number; startTime: string },
	syncedAt: Date,
) {
	const course = await insertCourse(t.db, {
		start_date: startDate,
		end_date: endDate,
		time_zone: ZONE,
		schedule_weekday: weekday,
		schedule_start_time: startTime,
		schedule_minutes: 60,
	})
	await syncCourseSessions(t.db, course.id, syncedAt)
	return course
}

/** Gives a student a known calendar token; returns what fetches their feed at it. */
async function feedAt(userId: string, token: string) {
	await t.db.updateTable('profiles').set({ calendar_token: token }).where('id', '=', userId).execute()
	return () => callRoute(calendarLoader, getRequest(`/calendar/${token}.ics`), { feed: `${token}.ics` })
}

/** Enrolls the student, sends the enrolment receipt and returns the attachments of the mail it queued. */
async function receiptAttachments(userId: string, course: { id: number; title: string }) {
	const enrollment = await insertEnrollment(t.db, { userId, courseId: course.id })
	await sendEnrollmentReceipt(t.db, { courseId: course.id, enrollmentId: enrollment.id })
	const mail = await t.db
		.selectFrom('email_outbox')
		.select('attachments')
		.where('subject', '=', `Enrollment confirmed: ${course.title}`)
		.executeTakeFirstOrThrow()
	return mail.attachments
}

type Dashboard = {
	weeks: CourseWeekList
	nextSession: {
		when: string
		status: string
		note: string | null
		joinUrl: string | null
		following: { weekNumber: number; when: string } | null
	} | null
}

async function dashboardOf(cookie: string, courseId: number) {
	return pageData<Dashboard>(dashboardLoader, `/dashboard?course=${courseId}`, cookie)
}

describe('the dashboard', () => {
	test('a week card says when its session is in the student’s zone, defaulting to the course’s', async () => {
		const { course } = await courseWithSession(new Date('2027-01-13T00:00:00Z'))
		const local = await person()
		const londoner = await person('student', 'Europe/London')
		for (const student of [local, londoner]) await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
		expect((await dashboardOf(local.cookie, course.id)).weeks.weeks[0]!.session).toMatchObject({
			when: 'Tue 12 Jan, 7:00–8:00 pm EST',
			status: 'scheduled',
			joinOpen: false,
		})
		expect((await dashboardOf(londoner.cookie, course.id)).weeks.weeks[0]!.session!.when).toBe('Wed 13 Jan, 12:00–1:00 am GMT')
	})

	test('a week not open yet lists no files for a student, says when it opens, and its files are refused on every route', async () => {
		const startsAt = new Date(Date.now() + 10 * DAY)
		const { course, itemId } = await courseWithSession(startsAt)
		const student = await person()
		const admin = await person('admin')
		await insertEnrollment(t.db, { userId: student.id, courseId: course.id })

		const week = (await dashboardOf(student.cookie, course.id)).weeks.weeks[0]!
		expect(week).toMatchObject({ filesHidden: true, materials: [], recordings: [] })
		expect(week.opensOn).toMatch(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}$/)
		const adminWeek = (await dashboardOf(admin.cookie, course.id)).weeks.weeks[0]!
		expect(adminWeek.filesHidden).toBe(false)
		expect(adminWeek.materials.map((item: MaterialListItem) => item.id)).toEqual([itemId])

		const params = { itemId: String(itemId) }
		for (const [loader, path] of [
			[fileLoader, `/files/materials/${itemId}`],
			[fileLoader, `/files/materials/${itemId}?download=1`],
			[previewLoader, `/files/materials/${itemId}/preview`],
		] as const) {
			const refused = await callRoute(loader, getRequest(path, { cookie: student.cookie }), params)
			expect(refused.status, path).toBe(403)
			expect(await refused.text()).toBe('This week is not open yet')
		}
		expect((await callRoute(viewerLoader, getRequest(`/dashboard/materials/${itemId}`, { cookie: student.cookie }), params)).status).toBe(
			403,
		)
		expect((await callRoute(fileLoader, getRequest(`/files/materials/${itemId}`, { cookie: admin.cookie }), params)).status).toBe(200)
		expect((await callRoute(viewerLoader, getRequest(`/dashboard/materials/${itemId}`, { cookie: admin.cookie }), params)).status).toBe(200)

		// 'Open now': the same student reads it at once.
		await t.db.updateTable('live_sessions').set({ opens_at: new Date() }).where('course_id', '=', course.id).execute()
		expect((await dashboardOf(student.cookie, course.id)).weeks.weeks[0]).toMatchObject({ filesHidden: false, opensOn: null })
		expect((await callRoute(fileLoader, getRequest(`/files/materials/${itemId}`, { cookie: student.cookie }), params)).status).toBe(200)
	})

	test('the Next live session card: the join link from 15 minutes before, a cancelled one with its note and the one after', async () => {
		const soon = await courseWithSession(new Date(Date.now() + 10 * 60_000))
		const student = await person()
		await insertEnrollment(t.db, { userId: student.id, courseId: soon.course.id })
		// The app's join link, which records the join and then sends the student to the call (docs/decisions/048).
		expect((await dashboardOf(student.cookie, soon.course.id)).nextSession).toMatchObject({
			joinUrl: `/dashboard/sessions/${soon.sessionId}/join`,
		})

		await t.db
			.updateTable('live_sessions')
			.set({ starts_at: new Date(Date.now() + 20 * 60_000) })
			.where('id', '=', soon.sessionId)
			.execute()
		expect((await dashboardOf(student.cookie, soon.course.id)).nextSession).toMatchObject({ joinUrl: null, status: 'scheduled' })

		await t.db.updateTable('live_sessions').set({ status: 'cancelled', note: 'Snow day' }).where('id', '=', soon.sessionId).execute()
		const later = new Date(Date.now() + 7 * DAY)
		await insertLiveSession(t.db, {
			courseId: soon.course.id,
			weekNumber: 2,
			startsAt: later,
			endsAt: new Date(later.getTime() + HOUR),
			timeZone: ZONE,
		})
		const next = (await dashboardOf(student.cookie, soon.course.id)).nextSession!
		expect(next).toMatchObject({ status: 'cancelled', note: 'Snow day', joinUrl: null, following: { weekNumber: 2 } })
	})
})

describe('Settings', () => {
	test('the time zone is chosen from the list; an unknown one is refused and nothing is saved', async () => {
		const student = await person()
		const page = await (await callRoute(settingsLoader, getRequest('/dashboard/settings', { cookie: student.cookie }))).json()
		expect(page.timeZone).toBeNull()
		expect(page.timeZones).toContain('Europe/London')

		const saved = await callRoute(
			settingsAction,
			formRequest('/dashboard/settings', { intent: 'time-zone', timeZone: 'Europe/London' }, { cookie: student.cookie }),
		)
		expect(saved.status).toBe(302)
		expect(await toastOf(saved)).toMatchObject({ type: 'success', title: 'Time zone saved' })
		const zoneOf = async () =>
			(await t.db.selectFrom('profiles').select('time_zone').where('id', '=', student.id).executeTakeFirstOrThrow()).time_zone
		expect(await zoneOf()).toBe('Europe/London')

		const refused = await callRoute(
			settingsAction,
			formRequest('/dashboard/settings', { intent: 'time-zone', timeZone: 'Atlantis/Capital' }, { cookie: student.cookie }),
		)
		expect(refused.status).toBe(400)
		expect(await zoneOf()).toBe('Europe/London')

		await callRoute(settingsAction, formRequest('/dashboard/settings', { intent: 'time-zone', timeZone: '' }, { cookie: student.cookie }))
		expect(await zoneOf()).toBeNull()
	})

	test('the calendar address stays the same until reset (confirmed); then the old one finds nothing', async () => {
		const { course } = await courseWithSession(new Date('2027-01-13T00:00:00Z'))
		const student = await person()
		await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
		const feedUrl = async () =>
			(await (await callRoute(settingsLoader, getRequest('/dashboard/settings', { cookie: student.cookie }))).json()).feedUrl as string
		const first = await feedUrl()
		expect(first).toMatch(/\/calendar\/[0-9a-f]{64}\.ics$/)
		expect(await feedUrl()).toBe(first)
		const feed = (url: string) => {
			const name = url.slice(url.lastIndexOf('/') + 1)
			return callRoute(calendarLoader, getRequest(`/calendar/${name}`), { feed: name })
		}
		expect((await feed(first)).status).toBe(200)

		const unconfirmed = await callRoute(
			settingsAction,
			formRequest('/dashboard/settings', { intent: 'reset-calendar' }, { cookie: student.cookie }),
		)
		expect(unconfirmed.status).toBe(400)
		expect(await feedUrl()).toBe(first)

		const reset = await callRoute(
			settingsAction,
			formRequest('/dashboard/settings', { intent: 'reset-calendar', confirm: 'on' }, { cookie: student.cookie }),
		)
		expect(reset.status).toBe(302)
		const second = await feedUrl()
		expect(second).not.toBe(first)
		expect((await feed(first)).status).toBe(404)
		expect((await feed(second)).status).toBe(200)
		expect((await feed('https://x/calendar/short.ics')).status).toBe(404)
	})
})

function parseFeed(text: string) {
	const calendar = new ICAL.Component(ICAL.parse(text))
	for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
	return calendar.getAllSubcomponents('vevent').map((vevent) => {
		const event = new ICAL.Event(vevent)
		return {
			uid: event.uid,
			sequence: event.sequence,
			status: vevent.getFirstPropertyValue('status'),
			tzid: vevent.getFirstProperty('dtstart')?.getParameter('tzid'),
			localStart: event.startDate.toString(),
			start: event.startDate.toJSDate().toISOString(),
			end: event.endDate.toJSDate().toISOString(),
			description: event.description,
			summary: event.summary,
		}
	})
}

describe('moving a session across the start of DST', () => {
	test('the feed, the dashboard and the reminder all follow the wall clock in the new zone offset', async () => {
		const admin = await person('admin')
		const student = await person()
		// Tuesdays 7 pm New York from 2 March 2027; DST starts on 14 March.
		const course = await scheduledCourse(MARCH_2027_TUESDAYS, new Date('2027-01-01T00:00:00Z'))
		await insertWeek(t.db, { courseId: course.id, weekNumber: 2, topic: 'Appraisals', zoomLink: 'https://zoom.us/j/2' })
		await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
		const [, week2] = await listCourseSessions(t.db, course.id)
		const fetchFeed = await feedAt(student.id, 'a'.repeat(40))
		const readFeed = async () => {
			const response = await fetchFeed()
			expect(response.headers.get('Content-Type')).toBe('text/calendar; charset=utf-8')
			return parseFeed(await response.text())
		}

		const before = await readFeed()
		expect(before.map((event) => event.localStart)).toEqual(['2027-03-02T19:00:00', '2027-03-09T19:00:00', '2027-03-16T19:00:00'])
		expect(before.map((event) => event.start)).toEqual(['2027-03-03T00:00:00.000Z', '2027-03-10T00:00:00.000Z', '2027-03-16T23:00:00.000Z'])
		const uid = before[1]!.uid
		expect(before[1]).toMatchObject({ tzid: ZONE, sequence: 0, status: 'CONFIRMED' })
		expect(before[1]!.description).toContain(`Join: http://localhost:3000/dashboard/sessions/${week2!.id}/join`)

		const changeWeek2 = (change: Parameters<typeof changeSession>[1]['change']) =>
			changeSession(t.db, { adminId: admin.id, courseId: course.id, sessionId: week2!.id, change, now: new Date('2027-01-01T00:00:00Z') })

		// Week 2 moves from Tue 9 March (EST) to Thu 18 March (EDT), same 7 pm.
		await changeWeek2({ kind: 'move', date: '2027-03-18', startTime: '19:00', minutes: 60, note: null })
		const after = await readFeed()
		const moved = after.find((event) => event.uid === uid)!
		expect(moved).toMatchObject({
			tzid: ZONE,
			localStart: '2027-03-18T19:00:00',
			start: '2027-03-18T23:00:00.000Z',
			end: '2027-03-19T00:00:00.000Z',
			sequence: 1,
		})
		expect(after.map((event) => event.uid).sort()).toEqual(before.map((event) => event.uid).sort())

		expect((await dashboardOf(student.cookie, course.id)).weeks.weeks[0]!.session!.when).toBe('Thu 18 Mar, 7:00–8:00 pm EDT')

		const reminders = () =>
			t.db
				.selectFrom('session_reminders')
				.select(['lead_minutes', 'starts_at'])
				.where('session_id', '=', week2!.id)
				.orderBy('lead_minutes')
				.execute()
		await sendDueReminders(t.db, new Date('2027-03-18T21:59:00Z'))
		expect(await reminders()).toHaveLength(1) // the 24-hour one only
		await sendDueReminders(t.db, new Date('2027-03-18T22:00:00Z'))
		expect((await reminders()).map((row) => row.lead_minutes)).toEqual([60, 1440])

		await changeWeek2({ kind: 'cancel', note: 'Holiday' })
		const cancelled = (await readFeed()).find((event) => event.uid === uid)!
		expect(cancelled).toMatchObject({ status: 'CANCELLED', sequence: 2 })
		expect(cancelled.description).toContain('Holiday')
	})

	test('a late enrollee’s feed has the whole series, past sessions included; an inactive enrolment has none', async () => {
		const student = await person()
		const course = await scheduledCourse(
			{ startDate: '2026-09-01', endDate: '2027-02-01', weekday: 1, startTime: '18:00' },
			new Date('2026-08-01T00:00:00Z'),
		)
		const enrollment = await insertEnrollment(t.db, { userId: student.id, courseId: course.id })
		const fetchFeed = await feedAt(student.id, 'b'.repeat(40))
		const events = async () => parseFeed(await (await fetchFeed()).text())
		const all = await events()
		expect(all).toHaveLength((await listCourseSessions(t.db, course.id)).length)
		expect(all.some((event) => new Date(event.start) < new Date())).toBe(true)
		await t.db.updateTable('enrollments').set({ status: 'inactive' }).where('id', '=', enrollment.id).execute()
		expect(await events()).toEqual([])
	})
})

describe('the enrolment receipt', () => {
	test('carries the course’s whole series as an .ics file with the feed’s UIDs; a course without sessions attaches nothing', async () => {
		const student = await insertUser(t.db, { email: `${crypto.randomUUID()}@example.com` })
		const course = await scheduledCourse(MARCH_2027_TUESDAYS, new Date('2027-01-01T00:00:00Z'))
		const attachments = await receiptAttachments(student, course)
		expect(attachments).toHaveLength(1)
		expect(attachments[0]).toMatchObject({ filename: 'live-sessions.ics', contentType: expect.stringMatching(/^text\/calendar/) })
		const events = parseFeed(attachments[0]!.content)
		const sessions = await listCourseSessions(t.db, course.id)
		expect(events.map((event) => event.uid)).toEqual(sessions.map((session) => `live-session-${session.id}@localhost`))
		expect(events.map((event) => event.start)).toEqual(sessions.map((session) => session.startsAt.toISOString()))

		const plain = await insertCourse(t.db)
		expect(await receiptAttachments(student, plain)).toEqual([])
	})
})
