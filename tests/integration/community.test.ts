/**
 * A course's community (issue 44, docs/decisions/060): discussions for the course's students, staff
 * and admins; alumni read; everyone else gets 404. One post per form however often it is sent at
 * once, a rate limit under parallel requests, the length limit, forged ids, moderation and its audit,
 * members without e-mail addresses for students, and the list's queries whatever its length.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { PostText } from '#app/components/community/post-text.tsx'
import {
	FILL_IN_ALL_FIELDS,
	HIDDEN_POST_TEXT,
	MAX_POST_LENGTH,
	postParts,
	REPLY_MAIL_INTERVAL_MS,
	REPLY_MAIL_TASK,
} from '#app/models/community/discussions.ts'
import { emailThreadReplies } from '#app/models/community/discussions-emails.server.ts'
import { loader as pickerLoader } from '#app/routes/dashboard/community.tsx'
import { action as courseAction, loader as courseLoader } from '#app/routes/dashboard/community-course.tsx'
import { action as threadAction, loader as threadLoader } from '#app/routes/dashboard/community-thread.tsx'
import { RATE_LIMITS } from '#app/utils/rate-limit.server.ts'
import { useTestDatabase } from '#tests/support/db.ts'
import {
	insertCommunityThread,
	insertCourse,
	insertCourseStaff,
	insertEnrollment,
	insertLiveSession,
	insertPlanPurchase,
} from '#tests/support/fixtures.ts'
import { useQueryCounter } from '#tests/support/query-counter.ts'
import { callRoute, formRequest, getRequest, signedInUser, toastOf } from '#tests/support/requests.ts'

const t = useTestDatabase()

type Person = Awaited<ReturnType<typeof signedInUser>>

/** A course with two active students, an alumna, an instructor on its staff, and a stranger enrolled elsewhere. */
async function community() {
	const course = await insertCourse(t.db, { title: `Cohort ${randomUUID().slice(0, 6)}` })
	const elsewhere = await insertCourse(t.db, { title: 'Another cohort' })
	const [ana, ben, alumna, instructor, stranger, admin] = await Promise.all([
		signedInUser(t.db, { name: 'Ana Student' }),
		signedInUser(t.db, { name: 'Ben Student' }),
		signedInUser(t.db, { name: 'Alma Alumna' }),
		signedInUser(t.db, { role: 'instructor', name: 'Ivy Instructor' }),
		signedInUser(t.db, { name: 'Sam Stranger' }),
		signedInUser(t.db, { role: 'admin', name: 'Ada Admin' }),
	])
	await insertEnrollment(t.db, { userId: ana.id, courseId: course.id })
	await insertEnrollment(t.db, { userId: ben.id, courseId: course.id })
	await insertEnrollment(t.db, { userId: alumna.id, courseId: course.id, status: 'completed' })
	await insertEnrollment(t.db, { userId: stranger.id, courseId: elsewhere.id })
	await insertCourseStaff(t.db, { courseId: course.id, userId: instructor.id })
	return { course, elsewhere, ana, ben, alumna, instructor, stranger, admin }
}

const coursePath = (courseId: number) => `/dashboard/community/${courseId}`
const threadPath = (courseId: number, threadId: number) => `/dashboard/community/${courseId}/threads/${threadId}`

function startDiscussion(courseId: number, person: Person, fields: Record<string, string>, ip = '203.0.113.9') {
	return callRoute(
		courseAction,
		formRequest(coursePath(courseId), { intent: 'start', submissionKey: randomUUID(), ...fields }, { cookie: person.cookie, ip }),
		{ courseId: String(courseId) },
	)
}

function postToThread(courseId: number, threadId: number, person: Person, fields: Record<string, string>) {
	return callRoute(threadAction, formRequest(threadPath(courseId, threadId), fields, { cookie: person.cookie }), {
		courseId: String(courseId),
		threadId: String(threadId),
	})
}

function readThread(courseId: number, threadId: number, person: Person, query = '') {
	return callRoute(threadLoader, getRequest(`${threadPath(courseId, threadId)}${query}`, { cookie: person.cookie }), {
		courseId: String(courseId),
		threadId: String(threadId),
	})
}

function readCourse(courseId: number, person: Person, query = '') {
	return callRoute(courseLoader, getRequest(`${coursePath(courseId)}${query}`, { cookie: person.cookie }), { courseId: String(courseId) })
}

const postCount = (threadId: number) =>
	t.db
		.selectFrom('community_posts')
		.select((eb) => eb.fn.countAll<string>().as('n'))
		.where('thread_id', '=', threadId)
		.executeTakeFirstOrThrow()
		.then((row) => Number(row.n))

describe('posts are plain text', () => {
	test('links become links (http and https only), line breaks are kept, and nothing written becomes HTML', () => {
		expect(postParts('See https://example.com/a?b=1, then\nline two')).toEqual([
			{ kind: 'text', text: 'See ' },
			{ kind: 'link', href: 'https://example.com/a?b=1', text: 'https://example.com/a?b=1' },
			{ kind: 'text', text: ', then' },
			{ kind: 'break' },
			{ kind: 'text', text: 'line two' },
		])
		const markup = renderToStaticMarkup(
			createElement(PostText, {
				body: '<script>alert(1)</script> <img src=x onerror=alert(2)> javascript:alert(3) https://ok.example/"onmouseover="x',
			}),
		)
		expect(markup).not.toContain('<script')
		expect(markup).not.toContain('<img')
		expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
		expect(markup).not.toContain('href="javascript:')
		expect(markup).toContain('<a href="https://ok.example/"')
		expect(markup.match(/<a /g)).toHaveLength(1)
	})
})

describe('discussions', () => {
	test('Start Discussion needs a title and content, keeps the notify choice, and the thread lists newest activity first with pinned on top', async () => {
		const { course, ana, ben } = await community()
		const empty = await startDiscussion(course.id, ana, { title: ' ', content: '' })
		expect(empty.status).toBe(400)
		expect(JSON.stringify(await empty.json())).toContain(FILL_IN_ALL_FIELDS)
		const started = await startDiscussion(course.id, ana, {
			title: 'Financing a flip',
			content: 'Hard money or HELOC?',
			notifyReplies: 'on',
		})
		expect(started.status).toBe(302)
		expect(await toastOf(started)).toMatchObject({ title: 'Discussion started' })
		const threadId = Number(started.headers.get('Location')!.split('/').pop())
		expect(await t.db.selectFrom('community_threads').select('notify_replies').where('id', '=', threadId).executeTakeFirst()).toEqual({
			notify_replies: true,
		})
		const older = await insertCommunityThread(t.db, { courseId: course.id, authorId: ben.id, title: 'Older', lastActivityAt: new Date(0) })
		const pinned = await insertCommunityThread(t.db, {
			courseId: course.id,
			authorId: ben.id,
			title: 'Read me first',
			pinned: true,
			lastActivityAt: new Date(0),
		})
		const list = await (await readCourse(course.id, ben)).json()
		expect(list.discussions.threads.map((thread: { id: number }) => thread.id)).toEqual([pinned.threadId, threadId, older.threadId])
		// A reply moves its thread up.
		const reply = await postToThread(course.id, older.threadId, ana, { intent: 'reply', submissionKey: randomUUID(), content: 'Bump' })
		expect(reply.status).toBe(302)
		const after = await (await readCourse(course.id, ben)).json()
		expect(after.discussions.threads.map((thread: { id: number }) => thread.id)).toEqual([pinned.threadId, older.threadId, threadId])
		const found = await (await readCourse(course.id, ben, '?q=heloc')).json()
		expect(found.discussions.threads.map((thread: { id: number }) => thread.id)).toEqual([threadId])
	})

	test('pages of 20, and the search keeps its words across pages', async () => {
		const { course, ana } = await community()
		for (let n = 0; n < 23; n++) await insertCommunityThread(t.db, { courseId: course.id, authorId: ana.id, title: `Deal ${n}` })
		const first = await (await readCourse(course.id, ana)).json()
		expect(first.discussions.threads).toHaveLength(20)
		expect(first.discussions.pageCount).toBe(2)
		const second = await (await readCourse(course.id, ana, '?q=deal&page=2')).json()
		expect(second.discussions.threads).toHaveLength(3)
	})

	test('the same form sent five times at once makes one discussion, and one reply', async () => {
		const { course, ana, ben } = await community()
		const submissionKey = randomUUID()
		const answers = await Promise.all(
			Array.from({ length: 5 }, () =>
				callRoute(
					courseAction,
					formRequest(
						coursePath(course.id),
						{ intent: 'start', submissionKey, title: 'Once', content: 'Only once' },
						{ cookie: ana.cookie, ip: '203.0.113.20' },
					),
					{ courseId: String(course.id) },
				),
			),
		)
		expect(answers.map((answer) => answer.status)).toEqual([302, 302, 302, 302, 302])
		expect(new Set(answers.map((answer) => answer.headers.get('Location'))).size).toBe(1)
		const threads = await t.db.selectFrom('community_threads').select('id').where('course_id', '=', course.id).execute()
		expect(threads).toHaveLength(1)
		const replyKey = randomUUID()
		const replies = await Promise.all(
			Array.from({ length: 5 }, () =>
				postToThread(course.id, threads[0]!.id, ben, { intent: 'reply', submissionKey: replyKey, content: 'Me too' }),
			),
		)
		expect(replies.map((answer) => answer.status)).toEqual([302, 302, 302, 302, 302])
		expect(await postCount(threads[0]!.id)).toBe(2)
	})

	test('posting is rate limited per person, counted exactly under parallel requests', async () => {
		const { course, ana } = await community()
		const { threadId } = await insertCommunityThread(t.db, { courseId: course.id, authorId: ana.id })
		const limit = RATE_LIMITS.communityPost.points
		const answers = await Promise.all(
			Array.from({ length: limit + 5 }, (_, n) =>
				postToThread(course.id, threadId, ana, { intent: 'reply', submissionKey: randomUUID(), content: `Reply ${n}` }),
			),
		)
		const statuses = answers.map((answer) => answer.status)
		expect(statuses.filter((status) => status === 302)).toHaveLength(limit)
		expect(statuses.filter((status) => status === 429)).toHaveLength(5)
		expect(await postCount(threadId)).toBe(1 + limit)
	})

	test('a post of more than 10,000 characters is refused with a message and nothing written; 10,000 are taken', async () => {
		const { course, ana } = await community()
		const { threadId } = await insertCommunityThread(t.db, { courseId: course.id, authorId: ana.id })
		const long = await postToThread(course.id, threadId, ana, {
			intent: 'reply',
			submissionKey: randomUUID(),
			content: 'x'.repeat(MAX_POST_LENGTH + 1),
		})
		expect(long.status).toBe(400)
		expect(JSON.stringify(await long.json())).toContain('10,000 characters')
		expect(await postCount(threadId)).toBe(1)
		const fits = await postToThread(course.id, threadId, ana, {
			intent: 'reply',
			submissionKey: randomUUID(),
			content: 'x'.repeat(MAX_POST_LENGTH),
		})
		expect(fits.status).toBe(302)
	})
})

describe('who reads and posts', () => {
	test('members read; a student of another course and an instructor of another course get 404; alumni read and may not post', async () => {
		const { course, elsewhere, ana, alumna, instructor, stranger, admin } = await community()
		const { threadId } = await insertCommunityThread(t.db, { courseId: course.id, authorId: ana.id, title: 'Members only' })
		const otherInstructor = await signedInUser(t.db, { role: 'instructor' })
		await insertCourseStaff(t.db, { courseId: elsewhere.id, userId: otherInstructor.id })
		for (const person of [ana, alumna, instructor, admin]) {
			expect((await readCourse(course.id, person)).status).toBe(200)
			expect((await readThread(course.id, threadId, person)).status).toBe(200)
		}
		for (const person of [stranger, otherInstructor]) {
			const page = await readCourse(course.id, person)
			expect(page.status).toBe(404)
			const thread = await readThread(course.id, threadId, person)
			expect(thread.status).toBe(404)
			expect(await thread.text()).not.toContain('Members only')
			expect((await startDiscussion(course.id, person, { title: 'Let me in', content: 'Please' })).status).toBe(404)
			expect(
				(await postToThread(course.id, threadId, person, { intent: 'reply', submissionKey: randomUUID(), content: 'Hi' })).status,
			).toBe(404)
		}
		expect((await startDiscussion(course.id, alumna, { title: 'Still here', content: 'Hello' })).status).toBe(403)
		expect((await postToThread(course.id, threadId, alumna, { intent: 'reply', submissionKey: randomUUID(), content: 'Hi' })).status).toBe(
			403,
		)
		expect(await postCount(threadId)).toBe(1)
		expect(await t.db.selectFrom('community_threads').select('id').where('course_id', '=', course.id).execute()).toHaveLength(1)
	})

	test('a student whose payment plan is paused is no member until it is settled: 404, nothing posted, no community listed', async () => {
		const { course, ana } = await community()
		const { threadId } = await insertCommunityThread(t.db, { courseId: course.id, authorId: ana.id, title: 'Before the pause' })
		const enrollment = await t.db
			.selectFrom('enrollments')
			.select('id')
			.where('user_id', '=', ana.id)
			.where('course_id', '=', course.id)
			.executeTakeFirstOrThrow()
		const { planId } = await insertPlanPurchase(t.db, {
			userId: ana.id,
			courseId: course.id,
			enrollmentId: enrollment.id,
			status: 'paused',
		})
		expect((await readCourse(course.id, ana)).status).toBe(404)
		expect((await readThread(course.id, threadId, ana)).status).toBe(404)
		expect((await startDiscussion(course.id, ana, { title: 'Paused', content: 'Still here?' })).status).toBe(404)
		expect((await postToThread(course.id, threadId, ana, { intent: 'reply', submissionKey: randomUUID(), content: 'Hi' })).status).toBe(404)
		expect(await postCount(threadId)).toBe(1)
		const picker = await callRoute(pickerLoader, getRequest('/dashboard/community', { cookie: ana.cookie }))
		expect((await picker.json()).courses).toEqual([])

		await t.db.updateTable('plan_purchases').set({ status: 'active', pause_reason: null }).where('id', '=', planId).execute()
		expect((await readCourse(course.id, ana)).status).toBe(200)
	})

	test('the picker leads to the one community, or offers several', async () => {
		const { course, ana, stranger } = await community()
		const one = await callRoute(pickerLoader, getRequest('/dashboard/community', { cookie: ana.cookie }))
		expect(one.headers.get('Location')).toBe(coursePath(course.id))
		await insertEnrollment(t.db, { userId: stranger.id, courseId: course.id })
		const several = await callRoute(pickerLoader, getRequest('/dashboard/community', { cookie: stranger.cookie }))
		expect((await several.json()).courses).toHaveLength(2)
	})

	test('forged ids: a thread of another course under this course, and posts of other threads, answer 404 and change nothing', async () => {
		const { course, elsewhere, ana, ben, instructor, stranger } = await community()
		const mine = await insertCommunityThread(t.db, { courseId: course.id, authorId: ana.id, replies: [ben.id] })
		const theirs = await insertCommunityThread(t.db, {
			courseId: elsewhere.id,
			authorId: stranger.id,
			title: 'Their secret',
			replies: [stranger.id],
		})
		// Their thread's id under our course's path.
		const read = await readThread(course.id, theirs.threadId, ana)
		expect(read.status).toBe(404)
		expect(await read.text()).not.toContain('Their secret')
		expect(
			(await postToThread(course.id, theirs.threadId, ana, { intent: 'reply', submissionKey: randomUUID(), content: 'x' })).status,
		).toBe(404)
		// Their post's id in the body of a form of our thread.
		const foreignPost = String(theirs.replyIds[0])
		expect((await postToThread(course.id, mine.threadId, ana, { intent: 'edit', postId: foreignPost, content: 'Changed' })).status).toBe(
			404,
		)
		expect((await postToThread(course.id, mine.threadId, ana, { intent: 'delete', postId: foreignPost })).status).toBe(404)
		expect((await postToThread(course.id, mine.threadId, instructor, { intent: 'hide', postId: foreignPost })).status).toBe(404)
		// Another member's post of our own thread: not theirs to edit or delete.
		const bensPost = String(mine.replyIds[0])
		expect((await postToThread(course.id, mine.threadId, ana, { intent: 'edit', postId: bensPost, content: 'Changed' })).status).toBe(404)
		expect((await postToThread(course.id, mine.threadId, ana, { intent: 'delete', postId: bensPost })).status).toBe(404)
		const posts = await t.db
			.selectFrom('community_posts')
			.select(['body', 'hidden_at', 'deleted_at'])
			.where('id', 'in', [theirs.replyIds[0]!, mine.replyIds[0]!])
			.execute()
		expect(posts).toEqual([
			{ body: 'Reply 1', hidden_at: null, deleted_at: null },
			{ body: 'Reply 1', hidden_at: null, deleted_at: null },
		])
	})

	test("events: the course's sessions in the reader's zone, past ones ended, cancelled ones said; the join link only while open and only for its students and admins", async () => {
		const { course, ana, alumna, instructor, admin } = await community()
		const HOUR = 3_600_000
		const at = (offset: number) => new Date(Date.now() + offset)
		const past = await insertLiveSession(t.db, { courseId: course.id, weekNumber: 1, startsAt: at(-26 * HOUR), endsAt: at(-25 * HOUR) })
		const open = await insertLiveSession(t.db, { courseId: course.id, weekNumber: 2, startsAt: at(-HOUR / 12), endsAt: at(HOUR) })
		const later = await insertLiveSession(t.db, { courseId: course.id, weekNumber: 3, startsAt: at(72 * HOUR), endsAt: at(73 * HOUR) })
		const cancelled = await insertLiveSession(t.db, { courseId: course.id, weekNumber: 4, startsAt: at(96 * HOUR), endsAt: at(97 * HOUR) })
		await t.db.updateTable('live_sessions').set({ status: 'cancelled' }).where('id', '=', cancelled).execute()
		await t.db.updateTable('profiles').set({ time_zone: 'Europe/London' }).where('id', '=', ana.id).execute()
		const eventsOf = async (person: Person) => (await (await readCourse(course.id, person, '?tab=events')).json()).events
		const joinOf = (id: number) => `/dashboard/sessions/${id}/join`

		const forAna = await eventsOf(ana)
		expect(forAna.map((event: { id: number }) => event.id)).toEqual([past, open, later, cancelled])
		expect(forAna).toMatchObject([
			{ weekNumber: 1, ended: true, cancelled: false, joinPath: null },
			{ weekNumber: 2, ended: false, cancelled: false, joinPath: joinOf(open) },
			{ weekNumber: 3, ended: false, cancelled: false, joinPath: null },
			{ weekNumber: 4, ended: false, cancelled: true, joinPath: null },
		])
		expect(forAna[0].when).toMatch(/GMT|BST/)
		const forAdmin = await eventsOf(admin)
		expect(forAdmin[0].when).toMatch(/EST|EDT/)
		expect(forAdmin.map((event: { joinPath: string | null }) => event.joinPath)).toEqual([null, joinOf(open), null, null])
		for (const reader of [alumna, instructor]) {
			expect((await eventsOf(reader)).map((event: { joinPath: string | null }) => event.joinPath)).toEqual([null, null, null, null])
		}
		const page = await (await readCourse(course.id, ana, '?tab=events')).json()
		expect(page.discussions).toBeNull()
	})

	test('members: names and roles; e-mail addresses for the staff, never for students', async () => {
		const { course, ana, alumna, instructor } = await community()
		const asStudent = await (await readCourse(course.id, ana, '?tab=members')).json()
		const roles = Object.fromEntries(asStudent.members.map((member: { name: string; role: string }) => [member.name, member.role]))
		expect(roles).toEqual({ 'Ivy Instructor': 'Instructor', 'Ana Student': 'Student', 'Ben Student': 'Student', 'Alma Alumna': 'Alumnus' })
		expect(JSON.stringify(asStudent)).not.toContain(alumna.email)
		expect(asStudent.members.every((member: { email: string | null }) => member.email === null)).toBe(true)
		const asStaff = await (await readCourse(course.id, instructor, '?tab=members')).json()
		expect(JSON.stringify(asStaff)).toContain(alumna.email)
	})
})

describe('moderation', () => {
	test('staff pin, lock and hide; a hidden post keeps its place and reads "Removed by a moderator"; each change is audited; students may not', async () => {
		const { course, ana, ben, instructor, admin } = await community()
		const { threadId, replyIds } = await insertCommunityThread(t.db, { courseId: course.id, authorId: ana.id, replies: [ben.id, ana.id] })
		const hideAttempt = await postToThread(course.id, threadId, ana, { intent: 'hide', postId: String(replyIds[0]) })
		expect(hideAttempt.status).toBe(403)
		expect((await postToThread(course.id, threadId, ana, { intent: 'pin' })).status).toBe(403)
		expect((await postToThread(course.id, threadId, instructor, { intent: 'hide', postId: String(replyIds[0]) })).status).toBe(302)
		expect((await postToThread(course.id, threadId, instructor, { intent: 'pin' })).status).toBe(302)
		expect((await postToThread(course.id, threadId, admin, { intent: 'lock' })).status).toBe(302)
		const page = await (await readThread(course.id, threadId, ben)).json()
		expect(page.posts.map((post: { removed: string | null; body: string | null }) => [post.removed, post.body])).toEqual([
			[null, 'The opening post'],
			['hidden', null],
			[null, 'Reply 2'],
		])
		expect(page.thread).toMatchObject({ pinned: true, locked: true })
		const markup = JSON.stringify(page)
		expect(markup).not.toContain('Reply 1')
		expect(HIDDEN_POST_TEXT).toBe('Removed by a moderator')
		const locked = await postToThread(course.id, threadId, ben, { intent: 'reply', submissionKey: randomUUID(), content: 'Too late' })
		expect(locked.status).toBe(409)
		const audit = await t.db
			.selectFrom('audit_log')
			.select(['action', 'actor_id'])
			.where('action', 'like', 'community.%')
			.where('actor_id', 'in', [instructor.id, admin.id])
			.orderBy('id')
			.execute()
		expect(audit).toEqual([
			{ action: 'community.hide', actor_id: instructor.id },
			{ action: 'community.pin', actor_id: instructor.id },
			{ action: 'community.lock', actor_id: admin.id },
		])
	})

	test('authors edit and delete their own posts; a deleted post keeps its place without its text', async () => {
		const { course, ana, ben } = await community()
		const { threadId, replyIds } = await insertCommunityThread(t.db, { courseId: course.id, authorId: ana.id, replies: [ben.id] })
		const edit = await postToThread(course.id, threadId, ben, { intent: 'edit', postId: String(replyIds[0]), content: 'Edited text' })
		expect(edit.status).toBe(302)
		const form = await (await readThread(course.id, threadId, ben, `?edit=${replyIds[0]}`)).json()
		expect(form.editing).toEqual({ id: replyIds[0], body: 'Edited text' })
		expect((await postToThread(course.id, threadId, ben, { intent: 'delete', postId: String(replyIds[0]) })).status).toBe(302)
		const page = await (await readThread(course.id, threadId, ana)).json()
		expect(page.posts[1]).toMatchObject({ id: replyIds[0], removed: 'deleted', body: null })
		expect(JSON.stringify(page)).not.toContain('Edited text')
	})
})

describe('the discussions list', () => {
	const counter = useQueryCounter(t)

	test('issues the same statements with 5 and with 500 discussions', async () => {
		const count = async (threads: number) => {
			const { course, ana, ben } = await community()
			await sql`WITH made AS (
				INSERT INTO community_threads (course_id, author_id, title, submission_key, last_activity_at)
				SELECT ${course.id}, ${ana.id}::uuid, 'Thread ' || n, gen_random_uuid(), now() - n * interval '1 minute'
				FROM generate_series(1, ${threads}) AS n RETURNING id
			)
			INSERT INTO community_posts (thread_id, author_id, body, opening, submission_key)
			SELECT id, ${ana.id}::uuid, 'Opening', true, gen_random_uuid() FROM made
			UNION ALL SELECT id, ${ben.id}::uuid, 'Reply', false, gen_random_uuid() FROM made`.execute(t.db)
			let status = 0
			const statements = await counter.record(async () => {
				const response = await readCourse(course.id, ben)
				status = response.status
				expect((await response.json()).discussions.total).toBe(threads)
			})
			expect(status).toBe(200)
			return statements.length
		}
		const small = await count(5)
		const large = await count(500)
		expect(large).toBe(small)
	})
})

describe('reply e-mails', () => {
	const mailsTo = (address: string) =>
		t.db.selectFrom('email_outbox').select(['subject', 'text_body']).where('to_address', '=', address).orderBy('id').execute()
	const replyJobs = (threadId: number) =>
		sql<{
			run_at: Date
		}>`SELECT run_at FROM graphile_worker.jobs WHERE task_identifier = ${REPLY_MAIL_TASK} AND key = ${`${REPLY_MAIL_TASK}:${threadId}`}`
			.execute(t.db)
			.then((result) => result.rows)
	const replyAs = (courseId: number, threadId: number, person: Person, content: string) =>
		postToThread(courseId, threadId, person, { intent: 'reply', submissionKey: randomUUID(), content })

	test("one mail gathers the replies; the next waits an hour; the author's own, hidden ones and those of a thread without the choice are left out", async () => {
		const { course, ana, ben, instructor } = await community()
		const started = await startDiscussion(course.id, ana, { title: 'Mail me', content: 'Replies please', notifyReplies: 'on' })
		const threadId = Number(started.headers.get('Location')!.split('/').pop())
		expect(await replyJobs(threadId)).toEqual([])
		await replyAs(course.id, threadId, ben, 'First from Ben')
		await replyAs(course.id, threadId, ana, 'My own reply')
		await replyAs(course.id, threadId, instructor, 'Then the instructor')
		// One pending job for the thread, however many replies asked for it.
		expect(await replyJobs(threadId)).toHaveLength(1)
		const now = new Date()
		expect(await emailThreadReplies(t.db, threadId, now)).toBe(1)
		const [first, ...others] = await mailsTo(ana.email)
		expect(others).toEqual([])
		expect(first!.subject).toBe('2 new replies to "Mail me"')
		expect(first!.text_body).toContain('Ben Student wrote: First from Ben')
		expect(first!.text_body).toContain('Ivy Instructor wrote: Then the instructor')
		expect(first!.text_body).not.toContain('My own reply')
		// Run again at once: nothing new.
		expect(await emailThreadReplies(t.db, threadId, now)).toBe(0)

		// A reply within the hour is asked for an hour after the last mail, and a run before then sends nothing.
		const hidden = await replyAs(course.id, threadId, ben, 'Spam from Ben')
		const hiddenId = Number(new URL(hidden.headers.get('Location')!, 'http://localhost').hash.replace('#post-', ''))
		await postToThread(course.id, threadId, instructor, { intent: 'hide', postId: String(hiddenId) })
		await replyAs(course.id, threadId, ben, 'Second from Ben')
		const [job] = await replyJobs(threadId)
		const mailedAt = (
			await t.db.selectFrom('community_threads').select('replies_mailed_at').where('id', '=', threadId).executeTakeFirstOrThrow()
		).replies_mailed_at!
		expect(job!.run_at.getTime()).toBe(mailedAt.getTime() + REPLY_MAIL_INTERVAL_MS)
		expect(await emailThreadReplies(t.db, threadId, new Date(now.getTime() + 30 * 60_000))).toBe(0)
		expect(await mailsTo(ana.email)).toHaveLength(1)
		expect(await emailThreadReplies(t.db, threadId, new Date(now.getTime() + REPLY_MAIL_INTERVAL_MS))).toBe(1)
		const second = (await mailsTo(ana.email))[1]!
		expect(second.subject).toBe('A new reply to "Mail me"')
		expect(second.text_body).toContain('Second from Ben')
		expect(second.text_body).not.toContain('Spam from Ben')

		// A thread whose author did not ask gets no job and no mail.
		const quiet = await startDiscussion(course.id, ben, { title: 'No mail', content: 'Quiet' })
		const quietId = Number(quiet.headers.get('Location')!.split('/').pop())
		await replyAs(course.id, quietId, ana, 'Hello')
		expect(await replyJobs(quietId)).toEqual([])
		expect(await emailThreadReplies(t.db, quietId)).toBe(0)
		expect(await mailsTo(ben.email)).toEqual([])
	})

	test('an author who turned course e-mails off gets none; the replies are passed over', async () => {
		const { course, ana, ben } = await community()
		await t.db.updateTable('profiles').set({ email_announcements: false }).where('id', '=', ana.id).execute()
		const { threadId } = await insertCommunityThread(t.db, { courseId: course.id, authorId: ana.id, notifyReplies: true })
		await replyAs(course.id, threadId, ben, 'Are you there?')
		expect(await emailThreadReplies(t.db, threadId)).toBe(0)
		expect(await mailsTo(ana.email)).toEqual([])
		await t.db.updateTable('profiles').set({ email_announcements: true }).where('id', '=', ana.id).execute()
		expect(await emailThreadReplies(t.db, threadId)).toBe(0)
	})
})
