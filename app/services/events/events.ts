/**
 * Live events. Published inside the transaction that made the change
 * (PostgreSQL NOTIFY is delivered at commit), received by every app process
 * through LISTEN, and passed to the signed-in browsers that may see them.
 */
export type AppEvent =
	| { type: 'message.created' | 'message.deleted' | 'message.read'; messageId: number; senderId: string; receiverId: string }
	| { type: 'announcement.created' | 'announcement.deleted'; messageId: number }
	| { type: 'enrollment.changed'; courseId: number; userId?: string }
	| { type: 'course.changed'; courseId: number }
	/** A discussion started or a reply posted in a course's community; only its members hear it (docs/decisions/060). */
	| { type: 'community.posted'; courseId: number; threadId: number }
	/** Sent by database triggers when public content (courses, seats, the offer) changed; for the page cache only. */
	| { type: 'site.changed' }

export const EVENTS_CHANNEL = 'app_events'
