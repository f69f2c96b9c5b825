import { Link } from 'react-router'
import { LocalDate } from '#app/components/local-date.tsx'
import { type AttachmentItem, AttachmentView } from './attachment-view.tsx'
import { OlderLink } from './older-link.tsx'

export type AnnouncementItem = {
	id: number
	subject: string
	body: string
	sender: string
	senderId: string | null
	/** The course whose students it is for; null: for every student. */
	course: { id: number; title: string } | null
	timestamp: Date | string
	attachments: AttachmentItem[]
}

/** Announcements as subject and body, newest first. */
export function AnnouncementList({
	announcements,
	olderUrl,
	currentUserId,
	deleteUrl,
	headingLevel = 'h3',
}: {
	announcements: AnnouncementItem[]
	olderUrl: string | null
	currentUserId?: string
	deleteUrl?: (id: number) => string
	headingLevel?: 'h3' | 'h4'
}) {
	const Heading = headingLevel
	return (
		<>
			<ul className="space-y-3">
				{announcements.map((announcement) => (
					<li key={announcement.id} data-announcement-id={announcement.id}>
						<article className="rounded-lg border border-slate-200 bg-white p-4">
							<Heading className="font-semibold text-ink">{announcement.subject || 'Announcement'}</Heading>
							{announcement.body ? <p className="mt-1 whitespace-pre-wrap text-slate-800">{announcement.body}</p> : null}
							{announcement.attachments.map((attachment) => (
								<AttachmentView key={attachment.id} attachment={attachment} />
							))}
							<p className="mt-2 flex flex-wrap gap-x-2 text-xs text-slate-600">
								{/* Spaces between the parts for a text browser; a flex row shows none. */}
								<span>From {announcement.sender}</span> <span aria-hidden="true">·</span>{' '}
								<span>{announcement.course ? `For students of ${announcement.course.title}` : 'For all students'}</span>{' '}
								<span aria-hidden="true">·</span> <LocalDate value={announcement.timestamp} time />{' '}
								{deleteUrl && announcement.senderId === currentUserId ? (
									<Link
										to={deleteUrl(announcement.id)}
										preventScrollReset
										className="font-medium text-red-800 underline underline-offset-2"
									>
										Delete
									</Link>
								) : null}
							</p>
						</article>
					</li>
				))}
			</ul>
			{olderUrl ? (
				<OlderLink to={olderUrl} className="mt-3 text-center">
					Show older announcements
				</OlderLink>
			) : null}
		</>
	)
}
