import type { ReactNode } from 'react'
import type { LinkBuilder } from '#app/utils/search-links.ts'
import { InitialsAvatar } from './avatar.tsx'
import { Composer, composerReplyFor } from './composer.tsx'
import { MarkRead } from './mark-read.tsx'
import { MessageThread, type ThreadMessage } from './message-thread.tsx'

type Partner = { id: string; name: string; avatar: string; unreadCount: number }

/** What a messages page's loader gives the open conversation. */
type ConversationData = {
	selected: Partner | null
	thread: { messages: ThreadMessage[]; olderBefore: number | null } | null
	userId: string
	maxUploadMb: number
}

/**
 * The open conversation of a messages page (student and admin alike): who it is with,
 * the thread and the composer; `empty` stands in when no conversation is open.
 */
export function ConversationPanel({
	conversation: { selected: partner, thread, userId, maxUploadMb },
	actionData,
	threadUrl,
	link,
	empty,
}: {
	conversation: ConversationData
	actionData: unknown
	threadUrl: (partnerId: string) => string
	link: LinkBuilder
	empty: ReactNode
}) {
	const reply = composerReplyFor(actionData, partner?.id)
	return (
		<section aria-labelledby="thread-heading" className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
			{partner && thread ? (
				<>
					<div className="mb-3 flex items-center gap-3">
						<InitialsAvatar initials={partner.avatar} />
						<h2 id="thread-heading" className="text-lg font-semibold text-ink">
							{partner.name}
						</h2>
					</div>
					<MarkRead partnerId={partner.id} unreadCount={partner.unreadCount} redirectTo={threadUrl(partner.id)} />
					<MessageThread
						messages={thread.messages}
						currentUserId={userId}
						partnerName={partner.name}
						olderUrl={thread.olderBefore ? link({ before: thread.olderBefore, confirm: null }) : null}
						deleteUrl={(id) => link({ confirm: `delete-${id}` })}
					/>
					<Composer
						key={partner.id}
						receiverId={partner.id}
						recipientName={partner.name}
						error={reply.error}
						sentContent={reply.content}
						maxUploadMb={maxUploadMb}
					/>
				</>
			) : (
				<>
					<h2 id="thread-heading" className="sr-only">
						Conversation
					</h2>
					{empty}
				</>
			)}
		</section>
	)
}
