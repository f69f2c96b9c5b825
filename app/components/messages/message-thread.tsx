import { useEffect, useRef } from 'react'
import { Link } from 'react-router'
import { LocalDate } from '#app/components/local-date.tsx'
import { cn } from '#app/utils/misc.ts'
import { type AttachmentItem, AttachmentView } from './attachment-view.tsx'
import { OlderLink } from './older-link.tsx'

export type ThreadMessage = {
	id: number
	sender: string
	senderId: string | null
	content: string
	timestamp: Date | string
	read: boolean
	attachments: AttachmentItem[]
}

/**
 * A conversation, oldest first. A role="log" region announces new messages
 * to screen readers; only the sender gets a delete link (a confirmation dialog).
 */
export function MessageThread({
	messages,
	currentUserId,
	partnerName,
	olderUrl,
	deleteUrl,
}: {
	messages: ThreadMessage[]
	currentUserId: string
	partnerName: string
	olderUrl: string | null
	/** Absent where nothing may be deleted (messages from deleted accounts). */
	deleteUrl?: (messageId: number) => string
}) {
	const scrollRef = useRef<HTMLDivElement>(null)
	const lastId = messages.at(-1)?.id
	// biome-ignore lint/correctness/useExhaustiveDependencies: scrolls to the bottom each time a new message arrives
	useEffect(() => {
		const element = scrollRef.current
		if (element) element.scrollTop = element.scrollHeight
	}, [lastId])

	return (
		<div
			ref={scrollRef}
			role="log"
			aria-label={`Messages with ${partnerName}`}
			tabIndex={0}
			className="max-h-[32rem] min-h-48 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-3 sm:p-4"
		>
			{olderUrl ? (
				<OlderLink to={olderUrl} className="mb-3 text-center">
					Show older messages
				</OlderLink>
			) : null}
			{messages.length === 0 ? (
				<p className="py-8 text-center text-sm text-slate-600">No messages yet. Say hello!</p>
			) : (
				<ol className="space-y-3">
					{messages.map((message) => {
						const mine = message.senderId === currentUserId
						return (
							<li key={message.id} className={cn('flex', mine ? 'justify-end' : 'justify-start')} data-message-id={message.id}>
								<div
									className={cn(
										'max-w-[85%] rounded-2xl px-4 py-2 shadow-sm sm:max-w-[70%]',
										mine ? 'bg-brand-700 text-white' : 'border border-slate-200 bg-white text-ink',
									)}
								>
									<p className={cn('text-xs font-semibold', mine ? 'text-white' : 'text-slate-700')}>{mine ? 'You' : message.sender}</p>
									{message.content ? <p className="whitespace-pre-wrap">{message.content}</p> : null}
									{message.attachments.map((attachment) => (
										<AttachmentView key={attachment.id} attachment={attachment} onDark={mine} />
									))}
									<p className={cn('mt-1 flex flex-wrap items-center gap-x-2 text-xs', mine ? 'text-white' : 'text-slate-600')}>
										{/* Spaces between the parts for a text browser; a flex row shows none. */}
										<LocalDate value={message.timestamp} time /> {mine ? <span>{message.read ? 'Read' : 'Sent'}</span> : null}{' '}
										{mine && deleteUrl ? (
											<Link to={deleteUrl(message.id)} preventScrollReset className="font-medium underline underline-offset-2">
												Delete
											</Link>
										) : null}
									</p>
								</div>
							</li>
						)
					})}
				</ol>
			)}
		</div>
	)
}
