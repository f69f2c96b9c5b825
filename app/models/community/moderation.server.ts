import type { Kysely } from 'kysely'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import type { Database } from '#db/types.ts'

/**
 * Moderation of a course's community by its staff and the admins (docs/decisions/060): each change
 * is made with its audit entry in one transaction, and only when it changes something.
 */
export type ThreadFlag = 'pinned' | 'locked'

const FLAG_ACTIONS = {
	pinned: { on: 'community.pin', off: 'community.unpin' },
	locked: { on: 'community.lock', off: 'community.unlock' },
} as const

/** Pins or unpins, locks or unlocks a thread of the course; false when there is no such thread or it already was. */
export async function setThreadFlag(
	db: Kysely<Database>,
	input: { actorId: string; courseId: number; threadId: number; flag: ThreadFlag; on: boolean },
) {
	return db.transaction().execute(async (trx) => {
		const thread = await trx
			.updateTable('community_threads')
			.set(input.flag === 'pinned' ? { pinned: input.on } : { locked: input.on })
			.where('id', '=', input.threadId)
			.where('course_id', '=', input.courseId)
			.where(input.flag, '=', !input.on)
			.returning(['id', 'title'])
			.executeTakeFirst()
		if (!thread) return false
		await recordAudit(trx, {
			actorId: input.actorId,
			action: FLAG_ACTIONS[input.flag][input.on ? 'on' : 'off'],
			entity: 'community_thread',
			entityId: thread.id,
			details: { course: input.courseId, title: thread.title },
		})
		return true
	})
}

/**
 * Hides a post of a thread of the course (it keeps its place and reads "Removed by a moderator")
 * or shows it again. 'unchanged' when it already was; 'not-found' when the thread has no such post.
 */
export async function setPostHidden(
	db: Kysely<Database>,
	input: { actorId: string; courseId: number; threadId: number; postId: number; hidden: boolean },
): Promise<'changed' | 'unchanged' | 'not-found'> {
	return db.transaction().execute(async (trx) => {
		const post = await trx
			.selectFrom('community_posts')
			.innerJoin('community_threads', 'community_threads.id', 'community_posts.thread_id')
			.leftJoin('profiles', 'profiles.id', 'community_posts.author_id')
			.select(['community_posts.id', 'community_posts.body', 'profiles.name as authorName'])
			.where('community_posts.id', '=', input.postId)
			.where('community_posts.thread_id', '=', input.threadId)
			.where('community_threads.course_id', '=', input.courseId)
			.forUpdate('community_posts')
			.executeTakeFirst()
		if (!post) return 'not-found'
		const changed = await trx
			.updateTable('community_posts')
			.set(input.hidden ? { hidden_at: new Date(), hidden_by: input.actorId } : { hidden_at: null, hidden_by: null })
			.where('id', '=', post.id)
			.where('hidden_at', input.hidden ? 'is' : 'is not', null)
			.returning('id')
			.executeTakeFirst()
		if (!changed) return 'unchanged'
		await recordAudit(trx, {
			actorId: input.actorId,
			action: input.hidden ? 'community.hide' : 'community.unhide',
			entity: 'community_post',
			entityId: post.id,
			details: { course: input.courseId, thread: input.threadId, author: post.authorName ?? null, excerpt: post.body.slice(0, 120) },
		})
		return 'changed'
	})
}
