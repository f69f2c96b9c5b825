import type { ReactNode } from 'react'
import { LocalDate } from '#app/components/local-date.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { DELETED_POST_TEXT, HIDDEN_POST_TEXT, type PostView } from '#app/models/community/discussions.ts'
import { PostText } from './post-text.tsx'

/** One post of a thread: who wrote it and when, its text (or why it is gone, in its place), and the actions given. */
export function PostCard({ post, actions }: { post: PostView; actions: ReactNode[] }) {
	return (
		<Card id={`post-${post.id}`} className="space-y-2 p-4">
			<p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
				<span className="font-semibold text-ink">{post.authorName}</span>{' '}
				<Badge tone={post.authorRole === 'Instructor' || post.authorRole === 'Admin' ? 'brand' : 'gray'}>{post.authorRole}</Badge>{' '}
				<LocalDate value={post.createdAt} time />
				{post.editedAt ? <span>(edited)</span> : null}
			</p>
			{post.body === null ? (
				<p className="italic text-slate-600">{post.removed === 'hidden' ? HIDDEN_POST_TEXT : DELETED_POST_TEXT}</p>
			) : (
				<PostText body={post.body} />
			)}
			{actions.some(Boolean) ? <ActionList className="flex flex-wrap gap-2 border-t border-slate-100 pt-2">{actions}</ActionList> : null}
		</Card>
	)
}
