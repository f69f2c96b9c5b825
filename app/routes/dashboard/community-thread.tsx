import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import { z } from 'zod'
import { PostCard } from '#app/components/community/post-card.tsx'
import { ReplyForm } from '#app/components/community/reply-form.tsx'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Pagination } from '#app/components/ui/pagination.tsx'
import {
	deleteOwnPost,
	editOwnPost,
	getOwnPost,
	getThread,
	listPosts,
	pageOfPost,
	replyToThread,
} from '#app/models/community/discussions.server.ts'
import { DELETED_POST_TEXT, EditPostSchema, HIDDEN_POST_TEXT, ReplySchema } from '#app/models/community/discussions.ts'
import { setPostHidden, setThreadFlag } from '#app/models/community/moderation.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { errorReply } from '#app/utils/form-reply.server.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import { parsePage, withPage } from '#app/utils/pagination.ts'
import { parseRowId, rowIdSchema } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { postingLimit, requireCommunityMember, requirePoster } from './+shared/community.server.ts'
import type { Route } from './+types/community-thread'

const PostIntentSchema = z.object({ intent: z.enum(['delete', 'hide', 'unhide']), postId: rowIdSchema() })
const ThreadIntentSchema = z.object({ intent: z.enum(['pin', 'unpin', 'lock', 'unlock']) })
const MODERATION = new Set(['hide', 'unhide', 'pin', 'unpin', 'lock', 'unlock'])

async function requireThread(request: Request, params: Route.LoaderArgs['params']) {
	const member = await requireCommunityMember(request, params.courseId)
	const threadId = parseRowId(params.threadId)
	const thread = threadId ? await getThread(getDb(), member.courseId, threadId) : null
	if (!thread) throw data('Discussion not found', { status: 404 })
	return { ...member, thread }
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const { user, courseId, access, thread } = await requireThread(request, params)
	const db = getDb()
	const url = new URL(request.url)
	const page = parsePage(url.searchParams)
	const editId = parseRowId(url.searchParams.get('edit'))
	const [posts, editing] = await Promise.all([
		listPosts(db, { courseId, threadId: thread.id, page }),
		editId && access.canPost ? getOwnPost(db, { threadId: thread.id, postId: editId, authorId: user.id }) : null,
	])
	return { userId: user.id, courseId, access, thread, page, ...posts, editing: editing ?? null, submissionKey: randomUUID() }
}

export async function action({ request, params }: Route.ActionArgs) {
	const { user, courseId, access, thread } = await requireThread(request, params)
	const db = getDb()
	const formData = await readFormData(request)
	const intent = String(formData.get('intent') ?? '')
	const threadPath = href('/dashboard/community/:courseId/threads/:threadId', { courseId: String(courseId), threadId: String(thread.id) })
	const toPost = async (postId: number) => `${withPage(threadPath, await pageOfPost(db, thread.id, postId))}#post-${postId}`
	if (MODERATION.has(intent) && !access.canModerate) throw data('Only the course’s staff moderate its discussions', { status: 403 })
	if (!MODERATION.has(intent)) requirePoster(access)

	if (intent === 'reply') {
		const submission = parseWithZod(formData, { schema: ReplySchema })
		if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
		const tooFast = await postingLimit(user.id)
		if (tooFast) return data({ result: errorReply(formData, tooFast) }, { status: 429 })
		const outcome = await replyToThread(db, { courseId, threadId: thread.id, authorId: user.id, ...submission.value })
		if (outcome.kind === 'locked')
			return data({ result: errorReply(formData, 'This discussion is locked: no new replies') }, { status: 409 })
		if (outcome.kind === 'not-found') throw data('Discussion not found', { status: 404 })
		return redirectWithToast(await toPost(outcome.postId), { type: 'success', title: 'Reply posted' })
	}
	if (intent === 'edit') {
		const submission = parseWithZod(formData, { schema: EditPostSchema.extend({ postId: rowIdSchema() }) })
		if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
		const { postId, content } = submission.value
		if (!(await editOwnPost(db, { courseId, threadId: thread.id, postId, authorId: user.id, content }))) {
			throw data('Post not found', { status: 404 })
		}
		return redirectWithToast(await toPost(postId), { type: 'success', title: 'Post updated' })
	}
	if (intent === 'pin' || intent === 'unpin' || intent === 'lock' || intent === 'unlock') {
		const { intent: change } = ThreadIntentSchema.parse({ intent })
		const flag = change.endsWith('pin') ? 'pinned' : 'locked'
		const on = !change.startsWith('un')
		await setThreadFlag(db, { actorId: user.id, courseId, threadId: thread.id, flag, on })
		const words = { pin: 'pinned', unpin: 'unpinned', lock: 'locked', unlock: 'unlocked' }[change]
		return redirectWithToast(threadPath, { type: 'success', title: `Discussion ${words}` })
	}
	const submission = PostIntentSchema.safeParse(Object.fromEntries(formData))
	if (!submission.success) return data({ result: errorReply(formData, 'This form is not one of the page’s forms') }, { status: 400 })
	const { intent: postIntent, postId } = submission.data
	if (postIntent === 'delete') {
		if (!(await deleteOwnPost(db, { courseId, threadId: thread.id, postId, authorId: user.id }))) {
			throw data('Post not found', { status: 404 })
		}
		return redirectWithToast(await toPost(postId), { type: 'success', title: 'Post deleted' })
	}
	const hidden = postIntent === 'hide'
	const outcome = await setPostHidden(db, { actorId: user.id, courseId, threadId: thread.id, postId, hidden })
	if (outcome === 'not-found') throw data('Post not found', { status: 404 })
	return redirectWithToast(await toPost(postId), { type: 'success', title: hidden ? 'Post removed' : 'Post restored' })
}

export default function CommunityThreadPage({ loaderData, actionData }: Route.ComponentProps) {
	const { userId, courseId, access, thread, page, posts, pageCount, editing, submissionKey } = loaderData
	useLiveRevalidation(['community.posted'])
	const coursePath = href('/dashboard/community/:courseId', { courseId: String(courseId) })
	const threadPath = href('/dashboard/community/:courseId/threads/:threadId', { courseId: String(courseId), threadId: String(thread.id) })
	const editPath = (postId: number) => `${withPage(threadPath, page)}${page > 1 ? '&' : '?'}edit=${postId}#edit`
	const title = thread.removed === 'hidden' ? HIDDEN_POST_TEXT : thread.removed === 'deleted' ? DELETED_POST_TEXT : thread.title
	return (
		<>
			<p>
				<Link to={coursePath} className="text-sm font-medium text-brand-700 underline">
					Back to the discussions
				</Link>
			</p>
			<h1 id="thread-title" className="break-words text-2xl font-bold text-ink">
				{title}
			</h1>
			<p className="flex flex-wrap gap-2">
				{thread.pinned ? <Badge tone="brand">Pinned</Badge> : null} {thread.locked ? <Badge tone="gray">Locked</Badge> : null}
			</p>
			{access.canModerate ? (
				<Form method="post" action={threadPath}>
					<ActionList className="flex flex-wrap gap-2">
						<Button type="submit" name="intent" value={thread.pinned ? 'unpin' : 'pin'} variant="outline" size="sm">
							{thread.pinned ? 'Unpin discussion' : 'Pin discussion'}
						</Button>
						<Button type="submit" name="intent" value={thread.locked ? 'unlock' : 'lock'} variant="outline" size="sm">
							{thread.locked ? 'Unlock discussion' : 'Lock discussion'}
						</Button>
					</ActionList>
				</Form>
			) : null}
			<ol className="space-y-3">
				{posts.map((post) => (
					<li key={post.id}>
						<PostCard
							post={post}
							actions={[
								access.canPost && post.authorId === userId && post.body !== null ? (
									<ButtonLink key="edit" to={editPath(post.id)} variant="outline" size="sm">
										Edit<span className="sr-only"> your post</span>
									</ButtonLink>
								) : null,
								access.canPost && post.authorId === userId && post.body !== null ? (
									<Form key="delete" method="post" action={threadPath}>
										<input type="hidden" name="postId" value={post.id} />
										<Button type="submit" name="intent" value="delete" variant="outline" size="sm">
											Delete<span className="sr-only"> your post</span>
										</Button>
									</Form>
								) : null,
								access.canModerate && post.removed !== 'deleted' ? (
									<Form key="moderate" method="post" action={threadPath}>
										<input type="hidden" name="postId" value={post.id} />
										<Button type="submit" name="intent" value={post.removed === 'hidden' ? 'unhide' : 'hide'} variant="ghost" size="sm">
											{post.removed === 'hidden' ? 'Restore' : 'Remove'}
											<span className="sr-only"> post by {post.authorName}</span>
										</Button>
									</Form>
								) : null,
							]}
						/>
					</li>
				))}
			</ol>
			<Pagination label="Pages of this discussion" path={threadPath} page={page} pageCount={pageCount} anchor="thread-title" />
			{editing ? (
				<ReplyForm
					id="edit"
					title="Edit your post"
					action={threadPath}
					intent="edit"
					fields={{ postId: String(editing.id) }}
					defaultContent={editing.body}
					lastResult={actionData?.result}
					submitLabel="Save"
				/>
			) : null}
			{access.canPost && !thread.locked && !editing ? (
				<ReplyForm
					// A new key for each posted reply (the loader's next submission key) empties the form after it.
					key={submissionKey}
					id="reply"
					title="Reply"
					action={threadPath}
					intent="reply"
					fields={{ submissionKey }}
					lastResult={actionData?.result}
					submitLabel="Post Reply"
				/>
			) : null}
			{thread.locked ? <Alert tone="info">This discussion is locked: no new replies.</Alert> : null}
			{access.role === 'alumnus' ? <Alert tone="info">You finished this course: you can read its discussions.</Alert> : null}
		</>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.thread.title || 'Discussion'} | ${SITE_NAME}` }]

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
