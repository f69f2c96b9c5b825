import { Link } from 'react-router'
import { LocalDate } from '#app/components/local-date.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { DELETED_POST_TEXT, HIDDEN_POST_TEXT, type ThreadListItem } from '#app/models/community/discussions.ts'

/** A page of discussions, newest activity first (pinned ones on top), each a link to its thread. */
export function ThreadList({ threads, threadPath }: { threads: ThreadListItem[]; threadPath: (threadId: number) => string }) {
	return (
		<ul className="space-y-3">
			{threads.map((thread) => (
				<li key={thread.id}>
					<Card className="space-y-1 p-4">
						<p className="flex flex-wrap items-center gap-2">
							{thread.pinned ? <Badge tone="brand">Pinned</Badge> : null} {thread.locked ? <Badge tone="gray">Locked</Badge> : null}{' '}
							<Link to={threadPath(thread.id)} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
								{thread.removed === 'hidden' ? HIDDEN_POST_TEXT : thread.removed === 'deleted' ? DELETED_POST_TEXT : thread.title}
							</Link>
						</p>
						<p className="text-sm text-slate-600">
							{thread.removed ? null : <>By {thread.authorName} · </>}
							{thread.replyCount === 1 ? '1 reply' : `${thread.replyCount} replies`} · last activity{' '}
							<LocalDate value={thread.lastActivityAt} time />
						</p>
					</Card>
				</li>
			))}
		</ul>
	)
}
