/**
 * One meeting link per course (issue 39 point 3, docs/decisions/046): the course form keeps an https
 * link, and every place that gives students a way into a live session — the dashboard's week and
 * Next live session, the reminder e-mail, the calendar feed, the admin's materials table — uses the
 * week's own link when it has one, else the course's (`meetingLinkFor`). Students' ways in go through
 * the app's join route (docs/decisions/048), which sends them on to that link.
 */
import ICAL from 'ical.js'
import { describe, expect, test } from 'vitest'
import { joinLiveSession } from '#app/models/sessions/attendance.server.ts'
import { meetingLinkFor, sessionJoinPath } from '#app/models/sessions/live-sessions.ts'
import { sendDueReminders } from '#app/models/sessions/session-emails.server.ts'
import { action as courseEditAction, loader as courseEditLoader } from '#app/routes/admin/course-edit.tsx'
import { loader as materialsLoader } from '#app/routes/admin/course-materials.tsx'
import { action as coursesAction } from '#app/routes/admin/courses.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard/index.tsx'
import { loader as calendarLoader } from '#app/routes/resources/calendar-feed.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertEnrollment, insertLiveSession, insertUser, insertWeek } from '#tests/support/fixtures.ts'
import { mailStartingWith } from '#tests/support/outbox.ts'
import { callRoute, formRequest, getRequest, sessionCookieFor, signedInUser } from '#tests/support/requests.ts'

const t = useTestDatabase()
const COURSES = '/dashboard/admin/courses'
const COURSE_LINK = 'https://zoom.us/j/1000'
const WEEK_LINK = 'https://zoom.us/j/2000'
const MINUTE = 60_000
const validCourse = { title: 'Meeting Course', description: 'Weekly calls.', registrationFee: '0', capacity: '10' }

/** A course with the course link, week 1 without a link of its own and week 2 with one, each with a session starting in 10 minutes and a week later. */
async function courseWithSessions() {
	const course = await insertCourse(t.db, { meeting_link: COURSE_LINK, reminder_first_minutes: null, reminder_second_minutes: 30 })
	await insertWeek(t.db, { courseId: course.id, weekNumber: 1, topic: 'Finding deals' })
	await insertWeek(t.db, { courseId: course.id, weekNumber: 2, topic: 'Offers', zoomLink: WEEK_LINK })
	const soon = new Date(Date.now() + 10 * MINUTE)
	const later = new Date(soon.getTime() + 7 * 24 * 60 * MINUTE)
	const sessions = []
	for (const [weekNumber, startsAt] of [
		[1, soon],
		[2, later],
	] as const) {
		const id = await insertLiveSession(t.db, {
			courseId: course.id,
			weekNumber,
			startsAt,
			endsAt: new Date(startsAt.getTime() + 60 * MINUTE),
		})
		sessions.push({ id, starts_at: startsAt })
	}
	const email = `${crypto.randomUUID()}@example.com`
	const studentId = await insertUser(t.db, { email, name: 'Sam' })
	await insertEnrollment(t.db, { userId: studentId, courseId: course.id })
	return { course, soon, later, sessions, student: { id: studentId, email, cookie: await sessionCookieFor(studentId) } }
}

/** Where the app's join route sends the student once the session has started. */
async function joinTarget(session: { id: number; starts_at: Date | string }, userId: string) {
	const outcome = await joinLiveSession(t.db, {
		sessionId: session.id,
		user: { id: userId, isAdmin: false },
		now: new Date(session.starts_at),
	})
	return outcome?.kind === 'joined' ? outcome.meetingUrl : outcome?.kind
}

describe('the course form', () => {
	test('Add and Edit Course keep an https meeting link; emptied, the course has none', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const title = `Meeting ${crypto.randomUUID().slice(0, 6)}`
		const created = await callRoute(
			coursesAction,
			formRequest(COURSES, { ...validCourse, title, meetingLink: ` ${COURSE_LINK} ` }, { cookie: admin.cookie }),
		)
		expect(created.status).toBe(302)
		const row = await t.db.selectFrom('courses').select(['id', 'meeting_link']).where('title', '=', title).executeTakeFirstOrThrow()
		expect(row.meeting_link).toBe(COURSE_LINK)
		const params = { courseId: String(row.id) }
		const form = await callRoute(courseEditLoader, getRequest(`${COURSES}/${row.id}/edit`, { cookie: admin.cookie }), params)
		expect(((await form.json()) as { schedule: { meetingLink: string } }).schedule.meetingLink).toBe(COURSE_LINK)
		const edited = await callRoute(
			courseEditAction,
			formRequest(`${COURSES}/${row.id}/edit`, { ...validCourse, title, meetingLink: '' }, { cookie: admin.cookie }),
			params,
		)
		expect(edited.status).toBe(302)
		expect(
			(await t.db.selectFrom('courses').select('meeting_link').where('id', '=', row.id).executeTakeFirstOrThrow()).meeting_link,
		).toBeNull()
	})

	test.each(['http://zoom.us/j/1', 'zoom meeting', 'https://localhost/j/1', 'javascript:alert(1)'])(
		'refuses %s under the field and writes nothing',
		async (meetingLink) => {
			const admin = await signedInUser(t.db, { role: 'admin' })
			const title = `Refused ${crypto.randomUUID().slice(0, 6)}`
			const response = await callRoute(
				coursesAction,
				formRequest(COURSES, { ...validCourse, title, meetingLink }, { cookie: admin.cookie }),
			)
			expect(response.status).toBe(400)
			const body = (await response.json()) as { result: { error: Record<string, string[]> } }
			expect(body.result.error.meetingLink).toEqual(['Please enter a valid URL (starting with https://)'])
			expect(await t.db.selectFrom('courses').select('id').where('title', '=', title).execute()).toEqual([])
		},
	)

	test('the column refuses what the form refuses', async () => {
		for (const link of ['http://zoom.us/j/1', 'https://localhost', 'zoom meeting']) {
			await expect(insertCourse(t.db, { meeting_link: link }), link).rejects.toThrow(/check constraint/)
		}
	})
})

describe('the link students join by', () => {
	test('meetingLinkFor: the week’s own, else the course’s, never a link that is not a web address', () => {
		expect(meetingLinkFor({ weekLink: WEEK_LINK, courseLink: COURSE_LINK })).toBe(WEEK_LINK)
		expect(meetingLinkFor({ weekLink: null, courseLink: COURSE_LINK })).toBe(COURSE_LINK)
		expect(meetingLinkFor({ weekLink: 'javascript:alert(1)', courseLink: COURSE_LINK })).toBe(COURSE_LINK)
		expect(meetingLinkFor({ weekLink: null, courseLink: null })).toBeNull()
	})

	test('the dashboard: the week without a link of its own and the Next live session give the course’s link; a week’s own wins', async () => {
		const { course, sessions, student } = await courseWithSessions()
		const response = await callRoute(dashboardLoader, getRequest(`/dashboard?course=${course.id}`, { cookie: student.cookie }))
		const body = (await response.json()) as {
			weeks: { weeks: Array<{ weekNumber: number; zoomLink: string | null }> }
			nextSession: { weekNumber: number; joinUrl: string | null }
		}
		expect(body.nextSession).toMatchObject({ weekNumber: 1, joinUrl: sessionJoinPath(sessions[0]!.id) })
		expect(await joinTarget(sessions[0]!, student.id)).toBe(COURSE_LINK)
		const links = Object.fromEntries(body.weeks.weeks.map((week) => [week.weekNumber, week.zoomLink]))
		expect(links).toEqual({ 1: COURSE_LINK, 2: WEEK_LINK })
	})

	test('a session whose week has no row yet still gives the course’s link', async () => {
		const course = await insertCourse(t.db, { meeting_link: COURSE_LINK })
		const startsAt = new Date(Date.now() + 5 * MINUTE)
		const session = {
			id: await insertLiveSession(t.db, { courseId: course.id, startsAt, endsAt: new Date(startsAt.getTime() + 60 * MINUTE) }),
			starts_at: startsAt,
		}
		const studentId = await insertUser(t.db, {})
		await insertEnrollment(t.db, { userId: studentId, courseId: course.id })
		const response = await callRoute(
			dashboardLoader,
			getRequest(`/dashboard?course=${course.id}`, { cookie: await sessionCookieFor(studentId) }),
		)
		expect(((await response.json()) as { nextSession: { joinUrl: string | null } }).nextSession.joinUrl).toBe(sessionJoinPath(session.id))
		expect(await joinTarget(session, studentId)).toBe(COURSE_LINK)
	})

	test('the reminder e-mail carries the course’s link for a week without its own', async () => {
		const { soon, sessions, student } = await courseWithSessions()
		await sendDueReminders(t.db, new Date(soon.getTime() - 20 * MINUTE))
		const mail = await mailStartingWith(t.db, student.email, 'Reminder:')
		const joinAddress = `${new URL(sessionJoinPath(sessions[0]!.id), 'http://localhost').pathname}`
		expect(mail.text_body).toContain(joinAddress)
		expect(mail.html_body).toMatch(new RegExp(`href="[^"]*${joinAddress}"`))
		expect(await joinTarget(sessions[0]!, student.id)).toBe(COURSE_LINK)
	})

	test('the calendar feed: the course’s link for week 1, the week’s own for week 2', async () => {
		const { sessions, student } = await courseWithSessions()
		const token = 'c'.repeat(64)
		await t.db.updateTable('profiles').set({ calendar_token: token }).where('id', '=', student.id).execute()
		const feed = await callRoute(calendarLoader, getRequest(`/calendar/${token}.ics`), { feed: `${token}.ics` })
		expect(feed.status).toBe(200)
		const events = new ICAL.Component(ICAL.parse(await feed.text())).getAllSubcomponents('vevent')
		const joinAddresses = events.map((event) => new URL(String(event.getFirstPropertyValue('url'))).pathname)
		expect(joinAddresses).toEqual(sessions.map((session) => sessionJoinPath(session.id)))
		expect([await joinTarget(sessions[0]!, student.id), await joinTarget(sessions[1]!, student.id)]).toEqual([COURSE_LINK, WEEK_LINK])
	})

	test('the admin’s materials table shows the link each week is joined by, and whether it is the course’s', async () => {
		const { course } = await courseWithSessions()
		const admin = await signedInUser(t.db, { role: 'admin' })
		const response = await callRoute(materialsLoader, getRequest(`${COURSES}/${course.id}/materials`, { cookie: admin.cookie }), {
			courseId: String(course.id),
		})
		const { weeks } = (await response.json()) as {
			weeks: Array<{ weekNumber: number; zoomLink: string | null; meetingLink: string | null }>
		}
		expect(weeks.map(({ weekNumber, zoomLink, meetingLink }) => ({ weekNumber, zoomLink, meetingLink }))).toEqual([
			{ weekNumber: 1, zoomLink: null, meetingLink: COURSE_LINK },
			{ weekNumber: 2, zoomLink: WEEK_LINK, meetingLink: WEEK_LINK },
		])
	})
})
