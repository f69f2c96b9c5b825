import { eventStream } from 'remix-utils/sse/server'
import { processWide } from '#app/utils/process-wide.server.ts'
import type { SessionUser } from '#app/utils/session.server.ts'
import type { AppEvent } from './events.ts'
import type { EventHub } from './hub.server.ts'

/** Often enough that proxies keep the connection and dead clients are found. */
export const HEARTBEAT_MS = 25_000

/**
 * A page's data and the stream it opens may come from two processes whose clocks differ a little,
 * and the page's loaders read a moment before or after the root loader takes its time:
 * events from this long before the page's time are replayed too (one reload too many at worst).
 */
const CLOCK_SLACK_MS = 5000

/** `open` ends each stream; `perClient` counts them by client key. */
type StreamRegistry = { accepting: boolean; open: Set<() => void>; perClient: Map<string, number> }

const registry = processWide<StreamRegistry>('__appEventStreams', () => ({ accepting: true, open: new Set(), perClient: new Map() }))

/** Whose streams count together: a signed-in user's from anywhere, a visitor's by address. */
export function streamClientKey(user: Pick<SessionUser, 'id'> | null, address: string) {
	return user ? `user:${user.id}` : `address:${address}`
}

/**
 * What of an event this viewer's stream carries, or null for nothing. Message events go to
 * their two parties and announcements to signed-in users. Seat and course changes go to
 * everyone, but only their public part: an enrolment change names its student to that student
 * alone (a visitor or classmate learns that seats changed, not whose). A community post goes to
 * the members of its course (`communityCourseIds`, the viewer's communities when the stream opened).
 */
export function eventForViewer(
	user: Pick<SessionUser, 'id'> | null,
	event: AppEvent,
	communityCourseIds: ReadonlySet<number> = new Set(),
): AppEvent | null {
	switch (event.type) {
		case 'message.created':
		case 'message.deleted':
		case 'message.read':
			return user !== null && (event.senderId === user.id || event.receiverId === user.id) ? event : null
		case 'announcement.created':
		case 'announcement.deleted':
			return user === null ? null : event
		case 'enrollment.changed':
			return event.userId !== undefined && event.userId === user?.id ? event : { type: event.type, courseId: event.courseId }
		case 'course.changed':
			return event
		case 'community.posted':
			return communityCourseIds.has(event.courseId) ? event : null
		case 'site.changed':
			return null
	}
}

/**
 * A visitor's event stream (user null for a signed-out visitor). Every send is guarded: a client that
 * went away without aborting the request makes `send` throw (from a timer or a
 * NOTIFY callback), which would otherwise crash the process; the stream is
 * then cleaned up instead. Each process holds at most `limit` streams per client (a browser
 * needs one per tab), so one client cannot tie up the memory of thousands.
 *
 * `since` is when the page that opens the stream got its data: the events the viewer may read
 * that came after it are sent at once, after `ready`, so nothing that happened while the page was
 * loading is lost; when the hub no longer knows (it started later, or has let them go), a
 * `missed` event tells the page to load its data again.
 */
export function openUserEventStream(
	request: Request,
	user: Pick<SessionUser, 'id'> | null,
	hub: EventHub,
	{ client, limit, communityCourseIds, since }: { client: string; limit: number; communityCourseIds?: ReadonlySet<number>; since?: number },
) {
	if (!registry.accepting) {
		return new Response('The server is restarting.', { status: 503, headers: { 'Retry-After': '2' } })
	}
	const openForClient = registry.perClient.get(client) ?? 0
	if (openForClient >= limit) {
		return new Response('Too many live connections are open for you. Close a tab and reload.', {
			status: 429,
			headers: { 'Retry-After': '30' },
		})
	}
	registry.perClient.set(client, openForClient + 1)
	return eventStream(request.signal, (send, close) => {
		let finished = false
		const finish = () => {
			if (finished) return
			finished = true
			unsubscribe()
			clearInterval(heartbeat)
			registry.open.delete(closeStream)
			const remaining = (registry.perClient.get(client) ?? 1) - 1
			if (remaining > 0) registry.perClient.set(client, remaining)
			else registry.perClient.delete(client)
		}
		const closeStream = () => {
			finish()
			try {
				close()
			} catch {
				// Already closed by the other side.
			}
		}
		const safeSend = (message: { event?: string; data: string }) => {
			if (finished) return
			try {
				send(message)
			} catch {
				closeStream()
			}
		}
		const unsubscribe = hub.subscribe((event) => {
			const visible = eventForViewer(user, event, communityCourseIds)
			if (visible) safeSend({ data: JSON.stringify(visible) })
		})
		const heartbeat = setInterval(() => safeSend({ event: 'ping', data: '' }), HEARTBEAT_MS)
		registry.open.add(closeStream)
		safeSend({ event: 'ready', data: '' })
		if (since !== undefined) {
			// After subscribing: an event in between comes twice, which costs one reload, never a loss.
			const missed = hub.eventsSince(since - CLOCK_SLACK_MS)
			if (missed === null) safeSend({ event: 'missed', data: '' })
			for (const event of missed ?? []) {
				const visible = eventForViewer(user, event, communityCourseIds)
				if (visible) safeSend({ data: JSON.stringify(visible) })
			}
		}
		return finish
	})
}

/** Ends every open stream and refuses new ones (shutdown: clients reconnect to the next process). */
export function closeAllStreams() {
	registry.accepting = false
	for (const closeStream of [...registry.open]) closeStream()
}

/** Accepts streams again (a test, or a dev server that restarts in the same process). */
export function acceptStreams() {
	registry.accepting = true
}
