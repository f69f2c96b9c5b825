import { useEffect, useRef } from 'react'
import { useNavigation, useRevalidator } from 'react-router'
import type { AppEvent } from '#app/services/events/events.ts'

type EventType = AppEvent['type']
/** 'reconnected' tells listeners that events may have been missed while the stream was down. */
type Listener = (type: EventType | 'reconnected') => void

const EVENTS_URL = '/events'
const MAX_REOPEN_DELAY_MS = 30_000
const DEBOUNCE_MS = 250
/** A page that replaces another keeps the connection instead of reopening it. */
const CLOSE_GRACE_MS = 1000

/**
 * One EventSource per tab, shared by every hook instance (browsers limit
 * connections per host). EventSource retries a dropped connection by itself;
 * a stream it gives up on (an error status, a restart answered by a proxy) is
 * reopened here with a growing delay.
 */
const listeners = new Set<Listener>()
let source: EventSource | undefined
let reopenTimer: ReturnType<typeof setTimeout> | undefined
let closeTimer: ReturnType<typeof setTimeout> | undefined
let failures = 0
let interrupted = false

function notify(type: EventType | 'reconnected') {
	for (const listener of listeners) listener(type)
}

function open() {
	const next = new EventSource(EVENTS_URL)
	source = next
	next.addEventListener('open', () => {
		failures = 0
		if (interrupted) notify('reconnected')
		interrupted = false
	})
	next.addEventListener('message', (event: MessageEvent<string>) => {
		try {
			const parsed = JSON.parse(event.data) as Partial<AppEvent>
			if (typeof parsed.type === 'string') notify(parsed.type)
		} catch {
			// A malformed payload carries nothing to act on.
		}
	})
	next.addEventListener('error', () => {
		interrupted = true
		if (next.readyState !== EventSource.CLOSED) return
		next.close()
		if (source === next) source = undefined
		const delay = Math.min(MAX_REOPEN_DELAY_MS, 1000 * 2 ** failures)
		failures += 1
		reopenTimer = setTimeout(() => {
			reopenTimer = undefined
			if (listeners.size > 0 && !source) open()
		}, delay)
	})
}

function subscribe(listener: Listener) {
	listeners.add(listener)
	if (closeTimer) clearTimeout(closeTimer)
	closeTimer = undefined
	if (!source && !reopenTimer) open()
	return () => {
		listeners.delete(listener)
		if (listeners.size > 0 || closeTimer) return
		closeTimer = setTimeout(() => {
			closeTimer = undefined
			if (listeners.size > 0) return
			source?.close()
			source = undefined
			if (reopenTimer) clearTimeout(reopenTimer)
			reopenTimer = undefined
			failures = 0
			interrupted = false
		}, CLOSE_GRACE_MS)
	}
}

/**
 * Reloads the page's data when the signed-in user's event stream reports one
 * of `eventTypes` (and after a reconnection, as events may have been missed).
 * Runs only in the browser: without JavaScript the page is correct on reload.
 */
export function useLiveRevalidation(eventTypes: EventType[]) {
	const { revalidate } = useRevalidator()
	const revalidateRef = useRef(revalidate)
	revalidateRef.current = revalidate
	const navigationState = useNavigation().state
	const navigatingRef = useRef(navigationState !== 'idle')
	navigatingRef.current = navigationState !== 'idle'
	/** An event that came while a navigation was loading: revalidating then would cancel that load (and its toast). */
	const deferredRef = useRef(false)
	const key = [...eventTypes].sort().join(',')

	useEffect(() => {
		if (navigationState !== 'idle' || !deferredRef.current) return
		deferredRef.current = false
		void revalidateRef.current()
	}, [navigationState])

	useEffect(() => {
		const wanted = new Set(key.split(','))
		let timer: ReturnType<typeof setTimeout> | undefined
		const unsubscribe = subscribe((type) => {
			if (type !== 'reconnected' && !wanted.has(type)) return
			if (timer) clearTimeout(timer)
			timer = setTimeout(() => {
				timer = undefined
				if (navigatingRef.current) deferredRef.current = true
				else void revalidateRef.current()
			}, DEBOUNCE_MS)
		})
		return () => {
			if (timer) clearTimeout(timer)
			unsubscribe()
		}
	}, [key])
}
