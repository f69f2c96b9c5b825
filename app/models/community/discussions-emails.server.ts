import type { Kysely } from 'kysely'
import { href } from 'react-router'
import { CommunityRepliesEmail, communityRepliesSubject } from '#app/emails/community-replies.tsx'
import {
	oneClickUnsubscribeUrlWithToken,
	unsubscribeToken,
	unsubscribeUrlWithToken,
} from '#app/models/accounts/email-preferences.server.ts'
import { enqueueSiteEmail } from '#app/models/messaging/emails.server.ts'
import type { Database } from '#db/types.ts'
import { communityAccess, requestReplyMail } from './discussions.server.ts'
import { REPLY_MAIL_INTERVAL_MS } from './discussions.ts'

/** Replies listed in one mail; the rest are counted. */
const LISTED_REPLIES = 10
const EXCERPT_LENGTH = 280

/**
 * The `email-community-replies` job: the replies to a discussion since its author's last mail,
 * gathered into one, at most one an hour (docs/decisions/060). Run under the thread's row lock, so
 * two runs never mail the same replies. Hidden and deleted replies are left out, and so are the
 * author's own. The author must still be of the course and have course e-mails on (the
 * announcements switch); otherwise the replies are passed over unmailed. Returns the mails queued.
 */
export async function emailThreadReplies(db: Kysely<Database>, threadId: number, now = new Date()) {
	return db.transaction().execute(async (trx) => {
		const thread = await trx
			.selectFrom('community_threads')
			.innerJoin('courses', 'courses.id', 'community_threads.course_id')
			.leftJoin('users', 'users.id', 'community_threads.author_id')
			.leftJoin('profiles', 'profiles.id', 'community_threads.author_id')
			.select([
				'community_threads.id',
				'community_threads.course_id as courseId',
				'community_threads.author_id as authorId',
				'community_threads.title',
				'community_threads.notify_replies as notifyReplies',
				'community_threads.replies_mailed_at as mailedAt',
				'community_threads.replies_mailed_through as mailedThrough',
				'courses.title as courseTitle',
				'users.email',
				'profiles.name',
				'profiles.role',
				'profiles.email_announcements as wantsMail',
			])
			.where('community_threads.id', '=', threadId)
			.forUpdate('community_threads')
			.executeTakeFirst()
		if (!thread?.authorId || !thread.email || !thread.notifyReplies) return 0
		const dueAt = thread.mailedAt ? new Date(thread.mailedAt.getTime() + REPLY_MAIL_INTERVAL_MS) : now
		if (dueAt > now) {
			await requestReplyMail(trx, threadId, thread.mailedAt, now)
			return 0
		}
		const replies = await trx
			.selectFrom('community_posts')
			.leftJoin('profiles', 'profiles.id', 'community_posts.author_id')
			.select(['community_posts.id', 'community_posts.body', 'profiles.name'])
			.where('community_posts.thread_id', '=', threadId)
			.where('community_posts.opening', '=', false)
			.where('community_posts.id', '>', thread.mailedThrough)
			.where('community_posts.author_id', 'is distinct from', thread.authorId)
			.where('community_posts.hidden_at', 'is', null)
			.where('community_posts.deleted_at', 'is', null)
			.orderBy('community_posts.id')
			.execute()
		if (replies.length === 0) return 0
		const through = replies.at(-1)!.id
		const member = await communityAccess(trx, { id: thread.authorId, isAdmin: thread.role === 'admin' }, thread.courseId)
		if (!member || !thread.wantsMail) {
			await trx.updateTable('community_threads').set({ replies_mailed_through: through }).where('id', '=', threadId).execute()
			return 0
		}
		const token = unsubscribeToken(thread.authorId)
		const threadPath = href('/dashboard/community/:courseId/threads/:threadId', {
			courseId: String(thread.courseId),
			threadId: String(threadId),
		})
		await enqueueSiteEmail(trx, CommunityRepliesEmail, {
			to: thread.email,
			subject: communityRepliesSubject(replies.length, thread.title),
			props: (site) => ({
				name: thread.name,
				courseTitle: thread.courseTitle,
				threadTitle: thread.title,
				replies: replies.slice(0, LISTED_REPLIES).map((reply) => ({
					authorName: reply.name ?? 'A former member',
					excerpt: reply.body.length > EXCERPT_LENGTH ? `${reply.body.slice(0, EXCERPT_LENGTH)}…` : reply.body,
				})),
				more: Math.max(0, replies.length - LISTED_REPLIES),
				threadUrl: `${site.url}${threadPath}`,
				unsubscribeUrl: unsubscribeUrlWithToken(token),
			}),
			headers: {
				'List-Unsubscribe': `<${oneClickUnsubscribeUrlWithToken(token)}>`,
				'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
			},
		})
		await trx
			.updateTable('community_threads')
			.set({ replies_mailed_at: now, replies_mailed_through: through })
			.where('id', '=', threadId)
			.execute()
		return 1
	})
}
