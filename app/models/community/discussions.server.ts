import { type ExpressionBuilder, type Kysely, sql } from 'kysely'
import { planBlocksEnrollment } from '#app/models/payments/plan-access.server.ts'
import { listCourseSessions } from '#app/models/sessions/live-sessions.server.ts'
import { formatSessionTime, joinLinkOpen, sessionJoinPath } from '#app/models/sessions/live-sessions.ts'
import { publishEvent } from '#app/services/events/publish.server.ts'
import { addJob } from '#app/services/jobs/queue.server.ts'
import type { Database } from '#db/types.ts'
import {
	accessOf,
	type CommunityAccess,
	type Member,
	type MemberRole,
	POSTS_PER_PAGE,
	type PostView,
	REPLY_MAIL_INTERVAL_MS,
	REPLY_MAIL_TASK,
	THREADS_PER_PAGE,
	type ThreadListItem,
} from './discussions.ts'

export type CommunityReader = { id: string; isAdmin: boolean }

/**
 * What the person may do in the course's community (docs/decisions/060), or null when they are
 * not one of its members (answered 404): its staff and the admins moderate, its active students
 * post, its alumni read (docs/decisions/035); a student whose payment plan stops their course is
 * not a member until it is settled. One query.
 */
export async function communityAccess(db: Kysely<Database>, user: CommunityReader, courseId: number): Promise<CommunityAccess | null> {
	const row = await db
		.selectFrom('courses')
		.leftJoin('course_staff', (join) => join.onRef('course_staff.course_id', '=', 'courses.id').on('course_staff.user_id', '=', user.id))
		.leftJoin('enrollments', (join) => join.onRef('enrollments.course_id', '=', 'courses.id').on('enrollments.user_id', '=', user.id))
		.select(['course_staff.user_id as staffId', 'enrollments.status', planBlocksEnrollment.as('planBlocks')])
		.where('courses.id', '=', courseId)
		.executeTakeFirst()
	if (!row) return null
	if (user.isAdmin || row.staffId) return accessOf('moderator')
	// A payment plan paused for an overdue payment stops the community too, as it stops the course (docs/decisions/059).
	if (row.planBlocks) return null
	if (row.status === 'active') return accessOf('member')
	if (row.status === 'completed') return accessOf('alumnus')
	return null
}

/** The courses whose community the person belongs to: every course for an admin; newest start first. */
export async function listCommunityCourses(db: Kysely<Database>, user: CommunityReader) {
	let query = db.selectFrom('courses').select(['courses.id', 'courses.title', 'courses.start_date'])
	if (!user.isAdmin) {
		query = query.where((eb) =>
			eb.or([
				eb.exists(
					eb
						.selectFrom('course_staff')
						.select('course_staff.course_id')
						.whereRef('course_staff.course_id', '=', 'courses.id')
						.where('course_staff.user_id', '=', user.id),
				),
				eb.exists(
					eb
						.selectFrom('enrollments')
						.select('enrollments.id')
						.whereRef('enrollments.course_id', '=', 'courses.id')
						.where('enrollments.user_id', '=', user.id)
						.where('enrollments.status', 'in', ['active', 'completed'])
						.where((inner) => inner.not(planBlocksEnrollment)),
				),
			]),
		)
	}
	return query
		.orderBy('courses.start_date', (order) => order.desc().nullsLast())
		.orderBy('courses.id', 'desc')
		.execute()
}

export async function getCourseTitle(db: Kysely<Database>, courseId: number) {
	const row = await db.selectFrom('courses').select('title').where('id', '=', courseId).executeTakeFirst()
	return row?.title ?? null
}

function likePattern(text: string) {
	return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/** Posts a reader sees the text of: not hidden by a moderator, not deleted by their author. */
function visiblePost(eb: ExpressionBuilder<Database, 'community_posts'>) {
	return eb.and([eb('community_posts.hidden_at', 'is', null), eb('community_posts.deleted_at', 'is', null)])
}

/**
 * One page of a course's discussions, pinned ones first, then by newest activity; `search`
 * matches titles and the visible text of posts. Two queries, whatever the number of threads.
 */
export async function listThreads(
	db: Kysely<Database>,
	{ courseId, search, page }: { courseId: number; search: string; page: number },
): Promise<{ threads: ThreadListItem[]; total: number; pageCount: number }> {
	let base = db.selectFrom('community_threads as thread').where('thread.course_id', '=', courseId)
	if (search) {
		const pattern = likePattern(search)
		base = base.where((eb) =>
			eb.or([
				eb('thread.title', 'ilike', pattern),
				eb.exists(
					eb
						.selectFrom('community_posts')
						.select('community_posts.id')
						.whereRef('community_posts.thread_id', '=', 'thread.id')
						.where('community_posts.body', 'ilike', pattern)
						.where((inner) => visiblePost(inner)),
				),
			]),
		)
	}
	const { total } = await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow()
	const count = Number(total)
	const pageCount = Math.max(1, Math.ceil(count / THREADS_PER_PAGE))
	const rows = await base
		.leftJoin('profiles as author', 'author.id', 'thread.author_id')
		.innerJoin('community_posts as opening', (join) => join.onRef('opening.thread_id', '=', 'thread.id').on('opening.opening', '=', true))
		.select((eb) => [
			'thread.id',
			'thread.title',
			'thread.pinned',
			'thread.locked',
			'thread.last_activity_at as lastActivityAt',
			'thread.created_at as createdAt',
			'author.name as authorName',
			'opening.hidden_at as hiddenAt',
			'opening.deleted_at as deletedAt',
			eb
				.selectFrom('community_posts as reply')
				.select((inner) => inner.fn.countAll<string>().as('n'))
				.whereRef('reply.thread_id', '=', 'thread.id')
				.where('reply.opening', '=', false)
				.as('replyCount'),
		])
		.orderBy('thread.pinned', 'desc')
		.orderBy('thread.last_activity_at', 'desc')
		.orderBy('thread.id', 'desc')
		.limit(THREADS_PER_PAGE)
		.offset((Math.min(page, pageCount) - 1) * THREADS_PER_PAGE)
		.execute()
	return {
		threads: rows.map((row) => {
			const removed = row.hiddenAt ? 'hidden' : row.deletedAt ? 'deleted' : null
			return {
				id: row.id,
				title: removed ? '' : row.title,
				authorName: removed ? '' : (row.authorName ?? 'Former member'),
				pinned: row.pinned,
				locked: row.locked,
				removed,
				replyCount: Number(row.replyCount ?? 0),
				lastActivityAt: row.lastActivityAt,
				createdAt: row.createdAt,
			}
		}),
		total: count,
		pageCount,
	}
}

/** A thread of the course, or null when there is none (or it belongs to another course). */
export async function getThread(db: Kysely<Database>, courseId: number, threadId: number) {
	const row = await db
		.selectFrom('community_threads')
		.innerJoin('community_posts as opening', (join) =>
			join.onRef('opening.thread_id', '=', 'community_threads.id').on('opening.opening', '=', true),
		)
		.select([
			'community_threads.id',
			'community_threads.course_id as courseId',
			'community_threads.author_id as authorId',
			'community_threads.title',
			'community_threads.pinned',
			'community_threads.locked',
			'community_threads.notify_replies as notifyReplies',
			'opening.hidden_at as hiddenAt',
			'opening.deleted_at as deletedAt',
		])
		.where('community_threads.id', '=', threadId)
		.where('community_threads.course_id', '=', courseId)
		.executeTakeFirst()
	if (!row) return null
	const removed = row.hiddenAt ? ('hidden' as const) : row.deletedAt ? ('deleted' as const) : null
	return { ...row, title: removed ? '' : row.title, removed }
}

/** The role a person has in the course, for the name beside their posts and in the members list. */
function roleOf(row: { profileRole: string | null; staffId: string | null; status: string | null }): MemberRole {
	if (row.staffId) return 'Instructor'
	if (row.profileRole === 'admin') return 'Admin'
	return row.status === 'completed' ? 'Alumnus' : 'Student'
}

/** One page of a thread's posts, the opening post first; hidden and deleted ones keep their place without their text. */
export async function listPosts(db: Kysely<Database>, { courseId, threadId, page }: { courseId: number; threadId: number; page: number }) {
	const { total } = await db
		.selectFrom('community_posts')
		.select((eb) => eb.fn.countAll<string>().as('total'))
		.where('thread_id', '=', threadId)
		.executeTakeFirstOrThrow()
	const pageCount = Math.max(1, Math.ceil(Number(total) / POSTS_PER_PAGE))
	const rows = await db
		.selectFrom('community_posts as post')
		.leftJoin('profiles', 'profiles.id', 'post.author_id')
		.leftJoin('course_staff', (join) =>
			join.onRef('course_staff.user_id', '=', 'post.author_id').on('course_staff.course_id', '=', courseId),
		)
		.leftJoin('enrollments', (join) => join.onRef('enrollments.user_id', '=', 'post.author_id').on('enrollments.course_id', '=', courseId))
		.select([
			'post.id',
			'post.author_id as authorId',
			'post.body',
			'post.opening',
			'post.created_at as createdAt',
			'post.edited_at as editedAt',
			'post.hidden_at as hiddenAt',
			'post.deleted_at as deletedAt',
			'profiles.name',
			'profiles.role as profileRole',
			'course_staff.user_id as staffId',
			'enrollments.status',
		])
		.where('post.thread_id', '=', threadId)
		.orderBy('post.opening', 'desc')
		.orderBy('post.id')
		.limit(POSTS_PER_PAGE)
		.offset((Math.min(page, pageCount) - 1) * POSTS_PER_PAGE)
		.execute()
	const posts: PostView[] = rows.map((row) => {
		const removed = row.hiddenAt ? ('hidden' as const) : row.deletedAt ? ('deleted' as const) : null
		return {
			id: row.id,
			authorId: row.authorId,
			authorName: row.name ?? 'Former member',
			authorRole: roleOf(row),
			opening: row.opening,
			body: removed ? null : row.body,
			removed,
			createdAt: row.createdAt,
			editedAt: row.editedAt,
		}
	})
	return { posts, total: Number(total), pageCount }
}

/** The post as its author wrote it, for the edit form; only the author's own, visible post. */
export async function getOwnPost(
	db: Kysely<Database>,
	{ threadId, postId, authorId }: { threadId: number; postId: number; authorId: string },
) {
	return db
		.selectFrom('community_posts')
		.select(['id', 'body'])
		.where('id', '=', postId)
		.where('thread_id', '=', threadId)
		.where('author_id', '=', authorId)
		.where('hidden_at', 'is', null)
		.where('deleted_at', 'is', null)
		.executeTakeFirst()
}

/**
 * Starts a discussion: the thread and its opening post in one transaction. The form's key makes
 * a second submit of the same form (sent at the same time or again) find the first thread
 * instead of making another: the unique index holds the second insert until the first commits.
 */
export async function startDiscussion(
	db: Kysely<Database>,
	input: { courseId: number; authorId: string; submissionKey: string; title: string; content: string; notifyReplies: boolean },
) {
	return db.transaction().execute(async (trx) => {
		const thread = await trx
			.insertInto('community_threads')
			.values({
				course_id: input.courseId,
				author_id: input.authorId,
				title: input.title,
				notify_replies: input.notifyReplies,
				submission_key: input.submissionKey,
			})
			.onConflict((conflict) => conflict.columns(['author_id', 'submission_key']).doNothing())
			.returning('id')
			.executeTakeFirst()
		if (!thread) {
			const existing = await trx
				.selectFrom('community_threads')
				.select(['id', 'course_id'])
				.where('author_id', '=', input.authorId)
				.where('submission_key', '=', input.submissionKey)
				.executeTakeFirstOrThrow()
			return { threadId: existing.id, courseId: existing.course_id, created: false }
		}
		await trx
			.insertInto('community_posts')
			.values({ thread_id: thread.id, author_id: input.authorId, body: input.content, opening: true, submission_key: input.submissionKey })
			.execute()
		await publishEvent(trx, { type: 'community.posted', courseId: input.courseId, threadId: thread.id })
		return { threadId: thread.id, courseId: input.courseId, created: true }
	})
}

export type ReplyOutcome = { kind: 'posted' | 'already-posted'; postId: number } | { kind: 'locked' } | { kind: 'not-found' }

/**
 * Replies to a thread of the course, unless it is locked (checked under the thread's row lock, so
 * a reply never lands after a lock). The form's key makes the same form sent twice one reply.
 */
export async function replyToThread(
	db: Kysely<Database>,
	input: { courseId: number; threadId: number; authorId: string; submissionKey: string; content: string },
): Promise<ReplyOutcome> {
	return db.transaction().execute(async (trx) => {
		const thread = await trx
			.selectFrom('community_threads')
			.select(['id', 'locked', 'author_id', 'notify_replies', 'replies_mailed_at'])
			.where('id', '=', input.threadId)
			.where('course_id', '=', input.courseId)
			.forUpdate()
			.executeTakeFirst()
		if (!thread) return { kind: 'not-found' }
		const earlier = await trx
			.selectFrom('community_posts')
			.select('id')
			.where('author_id', '=', input.authorId)
			.where('submission_key', '=', input.submissionKey)
			.executeTakeFirst()
		if (earlier) return { kind: 'already-posted', postId: earlier.id }
		if (thread.locked) return { kind: 'locked' }
		const post = await trx
			.insertInto('community_posts')
			.values({ thread_id: thread.id, author_id: input.authorId, body: input.content, submission_key: input.submissionKey })
			.returning('id')
			.executeTakeFirstOrThrow()
		await trx.updateTable('community_threads').set({ last_activity_at: sql`now()` }).where('id', '=', thread.id).execute()
		await publishEvent(trx, { type: 'community.posted', courseId: input.courseId, threadId: thread.id })
		if (thread.notify_replies && thread.author_id && thread.author_id !== input.authorId) {
			await requestReplyMail(trx, thread.id, thread.replies_mailed_at, new Date())
		}
		return { kind: 'posted', postId: post.id }
	})
}

/** A post's thread is of the course: a post id forged from another course's thread finds nothing. */
function postInCourse(eb: ExpressionBuilder<Database, 'community_posts'>, courseId: number) {
	return eb.exists(
		eb
			.selectFrom('community_threads')
			.select('community_threads.id')
			.whereRef('community_threads.id', '=', 'community_posts.thread_id')
			.where('community_threads.course_id', '=', courseId),
	)
}

/** The author's change of their own visible post in a thread of the course; false when there is no such post. */
export async function editOwnPost(
	db: Kysely<Database>,
	input: { courseId: number; threadId: number; postId: number; authorId: string; content: string },
) {
	const updated = await db
		.updateTable('community_posts')
		.set({ body: input.content, edited_at: new Date() })
		.where('id', '=', input.postId)
		.where('thread_id', '=', input.threadId)
		.where('author_id', '=', input.authorId)
		.where('hidden_at', 'is', null)
		.where('deleted_at', 'is', null)
		.where((eb) => postInCourse(eb, input.courseId))
		.returning('id')
		.executeTakeFirst()
	return updated !== undefined
}

/** The author deletes their own post: it keeps its place, reading that its author deleted it. */
export async function deleteOwnPost(db: Kysely<Database>, input: { courseId: number; threadId: number; postId: number; authorId: string }) {
	const deleted = await db
		.updateTable('community_posts')
		.set({ deleted_at: new Date(), body: '-' })
		.where('id', '=', input.postId)
		.where('thread_id', '=', input.threadId)
		.where('author_id', '=', input.authorId)
		.where('deleted_at', 'is', null)
		.where((eb) => postInCourse(eb, input.courseId))
		.returning('id')
		.executeTakeFirst()
	return deleted !== undefined
}

/**
 * The course's students (active and alumni) and staff, by name. E-mail addresses only when
 * `withEmails` (the course's staff and the admins ask for them; students never see them).
 */
export async function listMembers(db: Kysely<Database>, courseId: number, { withEmails }: { withEmails: boolean }): Promise<Member[]> {
	const staff = db
		.selectFrom('course_staff')
		.select(['user_id', sql<string>`'staff'`.as('kind')])
		.where('course_id', '=', courseId)
	const students = db
		.selectFrom('enrollments')
		.select(['user_id', 'status as kind'])
		.where('course_id', '=', courseId)
		.where('status', 'in', ['active', 'completed'])
	const rows = await db
		.selectFrom(staff.unionAll(students).as('member'))
		.innerJoin('users', 'users.id', 'member.user_id')
		.innerJoin('profiles', 'profiles.id', 'member.user_id')
		.select(['users.id', 'users.email', 'profiles.name', 'member.kind'])
		.orderBy(sql`member.kind = 'staff'`, 'desc')
		.orderBy('profiles.name')
		.orderBy('users.id')
		.execute()
	const seen = new Set<string>()
	const members: Member[] = []
	for (const row of rows) {
		if (seen.has(row.id)) continue
		seen.add(row.id)
		const role: MemberRole = row.kind === 'staff' ? 'Instructor' : row.kind === 'completed' ? 'Alumnus' : 'Student'
		members.push({ id: row.id, name: row.name ?? 'Member', role, email: withEmails ? row.email : null })
	}
	return members
}

/**
 * The course's live sessions for the Events tab, in the reader's zone (else the course's). The join
 * link is the app's join route, given while it is open and only to those the route lets join
 * (active students and admins: docs/decisions/035, 048).
 */
export async function listCourseEvents(
	db: Kysely<Database>,
	courseId: number,
	{ canJoin, timeZone, now }: { canJoin: boolean; timeZone: string | null; now: Date },
) {
	const sessions = await listCourseSessions(db, courseId)
	return sessions.map((session) => ({
		id: session.id,
		weekNumber: session.weekNumber,
		when: formatSessionTime(session.startsAt, session.endsAt, timeZone ?? session.timeZone),
		cancelled: session.status === 'cancelled',
		ended: session.status !== 'cancelled' && session.endsAt.getTime() <= now.getTime(),
		joinPath: canJoin && joinLinkOpen(session, now) ? sessionJoinPath(session.id) : null,
	}))
}

/** The page of its thread a post is on (posts are in the order they were written). */
export async function pageOfPost(db: Kysely<Database>, threadId: number, postId: number) {
	const { before } = await db
		.selectFrom('community_posts')
		.select((eb) => eb.fn.countAll<string>().as('before'))
		.where('thread_id', '=', threadId)
		.where('id', '<=', postId)
		.executeTakeFirstOrThrow()
	return Math.max(1, Math.ceil(Number(before) / POSTS_PER_PAGE))
}

/**
 * Asks for the mail of a discussion's new replies: at once after a quiet hour, else an hour after
 * the last one. One pending job per discussion (its key), so replies that come meanwhile are
 * gathered into it; the time depends only on the last mail, so asking again does not delay it.
 */
export async function requestReplyMail(db: Kysely<Database>, threadId: number, lastMailedAt: Date | null, now: Date) {
	const due = lastMailedAt ? new Date(Math.max(now.getTime(), lastMailedAt.getTime() + REPLY_MAIL_INTERVAL_MS)) : now
	await addJob(db, REPLY_MAIL_TASK, { threadId }, { runAt: due, jobKey: `${REPLY_MAIL_TASK}:${threadId}` })
}
