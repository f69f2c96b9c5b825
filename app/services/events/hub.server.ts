import { z } from 'zod'
import { type DatabaseHandle, getDatabaseHandle } from '#app/utils/db.server.ts'
import { processWide } from '#app/utils/process-wide.server.ts'
import { type AppEvent, EVENTS_CHANNEL } from './events.ts'

export type EventListener = (event: AppEvent) => void

/**
 * Fans the events of one LISTEN subscription out to this process's subscribers, and keeps the
 * last few minutes of them: a page rendered at some moment opens its stream a moment later, and
 * `eventsSince` tells it what it missed in between (null: the hub cannot tell, as it started later
 * or has let those events go).
 */
export type EventHub = {
	subscribe: (listener: EventListener) => () => void
	eventsSince: (time: number) => AppEvent[] | null
	close: () => Promise<void>
}

/** How long the hub keeps events, and at most how many, for streams that open after their page. */
export const RECENT_EVENTS_MS = 5 * 60_000
const RECENT_EVENTS_MAX = 5000

const id = z.number().int()
const userId = z.string().min(1)
const AppEventSchema = z.discriminatedUnion('type', [
	z.object({
		type: z.enum(['message.created', 'message.deleted', 'message.read']),
		messageId: id,
		senderId: userId,
		receiverId: userId,
	}),
	z.object({ type: z.enum(['announcement.created', 'announcement.deleted']), messageId: id }),
	z.object({ type: z.literal('enrollment.changed'), courseId: id, userId: userId.optional() }),
	z.object({ type: z.literal('course.changed'), courseId: id }),
	z.object({ type: z.literal('community.posted'), courseId: id, threadId: id }),
	z.object({ type: z.literal('site.changed') }),
]) satisfies z.ZodType<AppEvent>

/** Reads a NOTIFY payload; anything that is not a known event is ignored (null). */
export function parseEvent(payload: string): AppEvent | null {
	try {
		const result = AppEventSchema.safeParse(JSON.parse(payload))
		return result.success ? result.data : null
	} catch {
		return null
	}
}

export async function createEventHub(handle: Pick<DatabaseHandle, 'listen'>, now: () => number = () => Date.now()): Promise<EventHub> {
	const listeners = new Set<EventListener>()
	const recent: { at: number; event: AppEvent }[] = []
	/** Every event received from this time on is in `recent`. */
	let completeFrom = now()
	const unlisten = await handle.listen(EVENTS_CHANNEL, (payload) => {
		const event = parseEvent(payload)
		if (!event) return
		const at = now()
		recent.push({ at, event })
		while (recent.length > 0 && (recent.length > RECENT_EVENTS_MAX || recent[0]!.at < at - RECENT_EVENTS_MS)) {
			completeFrom = recent.shift()!.at + 1
		}
		for (const listener of listeners) {
			try {
				listener(event)
			} catch (error) {
				// One broken subscriber must not keep the event from the others.
				console.error('[events] subscriber failed', error)
			}
		}
	})
	return {
		subscribe: (listener) => {
			listeners.add(listener)
			return () => void listeners.delete(listener)
		},
		eventsSince: (time) => (time < completeFrom ? null : recent.filter((entry) => entry.at >= time).map((entry) => entry.event)),
		close: async () => {
			listeners.clear()
			await unlisten()
		},
	}
}

type Registry = { handle?: DatabaseHandle; hub?: Promise<EventHub> }

/** One hub (one LISTEN connection) per process, kept on globalThis so dev reloads reuse it. */
const registry = processWide<Registry>('__appEventHub', () => ({}))

/** The process's hub, started on first use for the current database handle. */
export function getEventHub(): Promise<EventHub> {
	const handle = getDatabaseHandle()
	if (registry.hub && registry.handle === handle) return registry.hub
	const previous = registry.hub
	registry.handle = handle
	const starting = createEventHub(handle)
	registry.hub = starting
	// A failed start is retried by the next caller rather than cached.
	starting.catch(() => {
		if (registry.hub === starting) {
			registry.hub = undefined
			registry.handle = undefined
		}
	})
	void previous?.then((hub) => hub.close()).catch(() => {})
	return starting
}

export async function stopEventHub() {
	const hub = registry.hub
	registry.hub = undefined
	registry.handle = undefined
	await hub?.then((started) => started.close()).catch(() => {})
}
