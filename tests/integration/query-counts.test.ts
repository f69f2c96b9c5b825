import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { loader as adminCoursesLoader } from '#app/routes/admin/courses.tsx'
import { loader as adminEnrollmentsLoader } from '#app/routes/admin/enrollments.tsx'
import { loader as adminUsersLoader } from '#app/routes/admin/users.tsx'
import { loader as myCoursesLoader } from '#app/routes/dashboard/courses.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard/index.tsx'
import { loader as viewerLoader } from '#app/routes/dashboard/material-viewer.tsx'
import { loader as messagesLoader } from '#app/routes/dashboard/messages.tsx'
import { loader as coursesLoader } from '#app/routes/public/courses.tsx'
import { loader as calendarFeedLoader } from '#app/routes/resources/calendar-feed.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertUsers } from '#tests/support/fixtures.ts'
import { useQueryCounter } from '#tests/support/query-counter.ts'
import { callRoute, getRequest, sessionCookieFor } from '#tests/support/requests.ts'
import { useTestStorage } from '#tests/support/storage.ts'

const t = useTestDatabase()
useTestStorage()
const counter = useQueryCounter(t)

/**
 * A student who sees `n` rows of every kind: courses (all enrolled), weeks, live sessions and files
 * of the first course (and the sessions in their calendar feed), contacts with unread messages, messages with attachments in one thread.
 */
async function createWorld(n: number) {
	const studentId = (await insertUsers(t.db, 1))[0]!.id
	await insertUsers(t.db, n)
	const staff = (await insertUsers(t.db, n, { role: 'instructor' })).map((user) => user.id)
	const courses = await t.db
		.insertInto('courses')
		.values(Array.from({ length: n }, (_, index) => ({ title: `Course ${n}-${index}`, capacity: 1000 })))
		.returning('id')
		.execute()
	await t.db
		.insertInto('enrollments')
		.values(courses.map((course) => ({ user_id: studentId, course_id: course.id, enrollment_date: new Date() })))
		.execute()
	const weeks = await t.db
		.insertInto('course_materials')
		.values(Array.from({ length: n }, (_, index) => ({ course_id: courses[0]!.id, week_number: index + 1, topic: `Week ${index + 1}` })))
		.returning('id')
		.execute()
	// A live session per week, weekly from a week ago (the first weeks open, later ones not yet), and a calendar feed.
	await t.db
		.insertInto('live_sessions')
		.values(
			weeks.map((_, index) => ({
				course_id: courses[0]!.id,
				week_number: index + 1,
				starts_at: new Date(Date.now() + (index - 1) * 7 * 86_400_000),
				ends_at: new Date(Date.now() + (index - 1) * 7 * 86_400_000 + 3_600_000),
				time_zone: 'America/New_York',
				status: index % 5 === 4 ? ('cancelled' as const) : ('scheduled' as const),
			})),
		)
		.execute()
	const calendarToken = randomUUID().replaceAll('-', '')
	await t.db.updateTable('profiles').set({ calendar_token: calendarToken }).where('id', '=', studentId).execute()
	const items = await t.db
		.insertInto('material_items')
		.values(
			weeks.map((week, index) => ({
				material_id: week.id,
				title: `Handout ${index}.pdf`,
				type: 'document' as const,
				category: 'material' as const,
				storage_key: `counts/${randomUUID()}.pdf`,
				mime_type: 'application/pdf',
				size_bytes: 100,
			})),
		)
		.returning('id')
		.execute()
	await t.db
		.insertInto('messages')
		.values(staff.map((id) => ({ sender_id: id, receiver_id: studentId, content: 'Hello' })))
		.execute()
	const thread = await t.db
		.insertInto('messages')
		.values(Array.from({ length: n }, (_, index) => ({ sender_id: studentId, receiver_id: staff[0]!, content: `Message ${index}` })))
		.returning('id')
		.execute()
	await t.db
		.insertInto('message_attachments')
		.values(
			thread.map((message) => ({
				message_id: message.id,
				name: 'notes.pdf',
				type: 'application/pdf',
				size_bytes: 100,
				storage_key: `counts/${randomUUID()}.pdf`,
			})),
		)
		.execute()
	return { cookie: await sessionCookieFor(studentId), itemId: items[0]!.id, partnerId: staff[0]!, calendarToken }
}

type World = Awaited<ReturnType<typeof createWorld>>

/** The number of statements each page's loader issues for a student of this world and an admin. */
async function countStatements(world: World, adminCookie: string) {
	const pages: Record<string, () => Promise<Response>> = {
		'/dashboard': () => callRoute(dashboardLoader, getRequest('/dashboard', { cookie: world.cookie })),
		'/dashboard?weeks=all': () => callRoute(dashboardLoader, getRequest('/dashboard?weeks=all', { cookie: world.cookie })),
		'/dashboard/materials/:itemId': () =>
			callRoute(viewerLoader, getRequest(`/dashboard/materials/${world.itemId}`, { cookie: world.cookie }), {
				itemId: String(world.itemId),
			}),
		'/dashboard/messages': () => callRoute(messagesLoader, getRequest('/dashboard/messages', { cookie: world.cookie })),
		'/dashboard/messages?with=': () =>
			callRoute(messagesLoader, getRequest(`/dashboard/messages?with=${world.partnerId}`, { cookie: world.cookie })),
		'/dashboard/courses': () => callRoute(myCoursesLoader, getRequest('/dashboard/courses', { cookie: world.cookie })),
		'/courses': () => callRoute(coursesLoader, getRequest('/courses')),
		'/calendar/:feed': () =>
			callRoute(calendarFeedLoader, getRequest(`/calendar/${world.calendarToken}.ics`), { feed: `${world.calendarToken}.ics` }),
		'/dashboard/admin/courses': () => callRoute(adminCoursesLoader, getRequest('/dashboard/admin/courses', { cookie: adminCookie })),
		'/dashboard/admin/users': () => callRoute(adminUsersLoader, getRequest('/dashboard/admin/users', { cookie: adminCookie })),
		'/dashboard/admin/enrollments': () =>
			callRoute(adminEnrollmentsLoader, getRequest('/dashboard/admin/enrollments', { cookie: adminCookie })),
	}
	const counts: Record<string, number> = {}
	for (const [page, load] of Object.entries(pages)) {
		let status = 0
		const statements = await counter.record(async () => {
			status = (await load()).status
		})
		expect(status, page).toBe(200)
		counts[page] = statements.length
	}
	return counts
}

test('every page issues the same number of statements with 1 and with 100 rows of each kind', async () => {
	const adminCookie = await sessionCookieFor((await insertUsers(t.db, 1, { role: 'admin' }))[0]!.id)

	const small = await countStatements(await createWorld(1), adminCookie)
	const large = await countStatements(await createWorld(100), adminCookie)

	expect(large).toEqual(small)
	// A loader that issues statements in proportion to its rows would need far more than this.
	for (const [page, count] of Object.entries(small)) {
		expect(count, page).toBeGreaterThan(0)
		expect(count, page).toBeLessThanOrEqual(8)
	}
})
