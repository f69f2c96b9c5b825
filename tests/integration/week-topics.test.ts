/**
 * Weeks set up in one go (issue 39 point 3, docs/decisions/046): the Week Topics form lists weeks
 * 1 … N of a course and saves every topic in one post, making the weeks that do not exist yet from
 * their topic alone; a refused row writes nothing. The admin's session list names each week's topic.
 */
import { describe, expect, test } from 'vitest'
import { listWeekTopics } from '#app/models/materials/week-topics-admin.server.ts'
import { loader as materialsLoader } from '#app/routes/admin/course-materials.tsx'
import { action as weekTopicsAction, loader as weekTopicsLoader } from '#app/routes/admin/week-topics.tsx'
import { useTestDatabase } from '#tests/support/db.ts'
import { insertCourse, insertLiveSession, insertMaterialItem, insertWeek } from '#tests/support/fixtures.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()

function weeksPath(courseId: number) {
	return `/dashboard/admin/courses/${courseId}/materials/weeks`
}

/** The form's fields for these topics, week 1 first. */
function topicFields(topics: string[]) {
	return Object.fromEntries(
		topics.flatMap((topic, index) => [
			[`weeks[${index}].weekNumber`, String(index + 1)],
			[`weeks[${index}].topic`, topic],
		]),
	)
}

async function weekRows(courseId: number) {
	return t.db
		.selectFrom('course_materials')
		.select(['week_number as weekNumber', 'topic'])
		.where('course_id', '=', courseId)
		.orderBy('week_number')
		.execute()
}

type Reply = { result: { status: string; error: Record<string, string[] | null>; initialValue: Record<string, unknown> } }

describe('the Week Topics form', () => {
	test('lists weeks 1 … N: the course’s weeks from its dates, the program’s 8 without them, more when a week is saved further on', async () => {
		const dated = await insertCourse(t.db, { start_date: '2031-01-06', end_date: '2031-03-02' })
		expect((await listWeekTopics(t.db, dated.id))!.map((line) => line.weekNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
		const short = await insertCourse(t.db, { start_date: '2031-01-06', end_date: '2031-01-26' })
		await insertWeek(t.db, { courseId: short.id, weekNumber: 2, topic: 'Offers' })
		expect(await listWeekTopics(t.db, short.id)).toEqual([
			{ weekNumber: 1, topic: '', saved: false },
			{ weekNumber: 2, topic: 'Offers', saved: true },
			{ weekNumber: 3, topic: '', saved: false },
		])
		const undated = await insertCourse(t.db)
		await insertWeek(t.db, { courseId: undated.id, weekNumber: 10, topic: 'Extra' })
		expect((await listWeekTopics(t.db, undated.id))!.map((line) => line.weekNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])

		const admin = await signedInUser(t.db, { role: 'admin' })
		const page = await callRoute(weekTopicsLoader, getRequest(weeksPath(short.id), { cookie: admin.cookie }), {
			courseId: String(short.id),
		})
		expect(page.status).toBe(200)
		expect(((await page.json()) as { lines: unknown[] }).lines).toHaveLength(3)
	})

	test('one save makes the missing weeks from their topics, changes the saved ones, leaves empty rows alone; files stay', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db, { start_date: '2031-01-06', end_date: '2031-01-26' })
		const weekId = await insertWeek(t.db, { courseId: course.id, weekNumber: 2, topic: 'Offers' })
		await insertMaterialItem(t.db, { courseId: course.id, weekId, title: 'Notes' })
		const response = await callRoute(
			weekTopicsAction,
			formRequest(weeksPath(course.id), topicFields(['Finding deals', 'Making offers', '']), { cookie: admin.cookie }),
			{ courseId: String(course.id) },
		)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe(`/dashboard/admin/courses/${course.id}/materials`)
		expect(await toastOf(response)).toMatchObject({ type: 'success', title: 'Week topics saved: 1 week added, 1 topic changed.' })
		expect(await weekRows(course.id)).toEqual([
			{ weekNumber: 1, topic: 'Finding deals' },
			{ weekNumber: 2, topic: 'Making offers' },
		])
		const items = await t.db.selectFrom('material_items').select('title').where('material_id', '=', weekId).execute()
		expect(items).toEqual([{ title: 'Notes' }])
		const audit = await t.db
			.selectFrom('audit_log')
			.select('details')
			.where('action', '=', 'weeks.topics')
			.where('entity_id', '=', String(course.id))
			.executeTakeFirstOrThrow()
		expect(audit.details).toMatchObject({ added: [{ weekNumber: 1 }], changed: [{ weekNumber: 2, from: 'Offers', to: 'Making offers' }] })

		const again = await callRoute(
			weekTopicsAction,
			formRequest(weeksPath(course.id), topicFields(['Finding deals', 'Making offers', '']), { cookie: admin.cookie }),
			{ courseId: String(course.id) },
		)
		expect(await toastOf(again)).toMatchObject({ type: 'info', title: 'Nothing to save: the week topics are unchanged.' })
	})

	test.each([
		['a topic too long', ['Finding deals', 'x'.repeat(301), 'Rehab'], 'weeks[1].topic', 'Topic must be at most 300 characters'],
		[
			'a saved week emptied',
			['Finding deals', '', 'Rehab'],
			'weeks[1].topic',
			'Topic is required: this week is saved. To remove it, use Delete Week under Current Materials',
		],
	])('%s: the message sits beside its row, the typed values come back, and nothing is written', async (_case, topics, field, message) => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db, { start_date: '2031-01-06', end_date: '2031-01-26' })
		await insertWeek(t.db, { courseId: course.id, weekNumber: 2, topic: 'Offers' })
		const response = await callRoute(weekTopicsAction, formRequest(weeksPath(course.id), topicFields(topics), { cookie: admin.cookie }), {
			courseId: String(course.id),
		})
		expect(response.status).toBe(400)
		const { result } = (await response.json()) as Reply
		expect(result.error[field]).toEqual([message])
		expect(result.error['']).toEqual(['Nothing was saved: please correct the highlighted weeks.'])
		expect(result.initialValue).toMatchObject({ weeks: [{ topic: 'Finding deals' }, {}, { topic: 'Rehab' }] })
		expect(await weekRows(course.id)).toEqual([{ weekNumber: 2, topic: 'Offers' }])
		const audit = t.db.selectFrom('audit_log').select('id').where('action', '=', 'weeks.topics')
		expect(await audit.where('entity_id', '=', String(course.id)).execute()).toEqual([])
	})

	test('a week number listed twice is refused; another course’s id answers 404', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db)
		const twice = { 'weeks[0].weekNumber': '1', 'weeks[0].topic': 'A', 'weeks[1].weekNumber': '1', 'weeks[1].topic': 'B' }
		const response = await callRoute(weekTopicsAction, formRequest(weeksPath(course.id), twice, { cookie: admin.cookie }), {
			courseId: String(course.id),
		})
		expect(response.status).toBe(400)
		expect(((await response.json()) as Reply).result.error['weeks[1].topic']).toEqual(['This week number is listed twice'])
		expect(await weekRows(course.id)).toEqual([])
		const missing = await callRoute(weekTopicsAction, formRequest(weeksPath(999_999), topicFields(['A']), { cookie: admin.cookie }), {
			courseId: '999999',
		})
		expect(missing.status).toBe(404)
	})

	test('two saves at once make each week once', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db)
		const save = () =>
			callRoute(weekTopicsAction, formRequest(weeksPath(course.id), topicFields(['Finding deals', 'Offers']), { cookie: admin.cookie }), {
				courseId: String(course.id),
			})
		const responses = await Promise.all([save(), save()])
		expect(responses.map((response) => response.status)).toEqual([302, 302])
		expect(await weekRows(course.id)).toEqual([
			{ weekNumber: 1, topic: 'Finding deals' },
			{ weekNumber: 2, topic: 'Offers' },
		])
	})
})

describe('the admin’s session list', () => {
	test('names each week’s topic beside its session, and says when a week has none yet', async () => {
		const admin = await signedInUser(t.db, { role: 'admin' })
		const course = await insertCourse(t.db)
		await insertWeek(t.db, { courseId: course.id, weekNumber: 1, topic: 'Finding deals' })
		await insertLiveSession(t.db, { courseId: course.id, weekNumber: 1 })
		await insertLiveSession(t.db, { courseId: course.id, weekNumber: 2, startsAt: '2020-01-14T00:00:00Z', endsAt: '2020-01-14T01:00:00Z' })
		const response = await callRoute(
			materialsLoader,
			getRequest(`/dashboard/admin/courses/${course.id}/materials`, { cookie: admin.cookie }),
			{
				courseId: String(course.id),
			},
		)
		const { sessions } = (await response.json()) as { sessions: Array<{ weekNumber: number; topic: string | null }> }
		expect(sessions.map(({ weekNumber, topic }) => ({ weekNumber, topic }))).toEqual([
			{ weekNumber: 1, topic: 'Finding deals' },
			{ weekNumber: 2, topic: null },
		])
	})
})
