import { useEffect, useRef } from 'react'
import { useFetchers, useNavigation, useRevalidator } from 'react-router'
import type { AppEvent } from '#app/services/events/events.ts'
import { followEventStream } from '#app/utils/event-stream-client.ts'
import { useRootData } from '#app/utils/root-data.ts'

type EventType = AppEvent['type']
/** 'reconnected' tells listeners that events may have been missed while the stream was down. */
type Listener = (type: EventType | 'reconnected') => void

const EVENTS_URL = '/events'
const DEBOUNCE_MS = 250
/** A page that replaces another keeps the connection instead of reopening it. */
const CLOSE_GRACE_MS = 1000

/**
 * One stream per tab, shared by every hook instance (browsers limit connections per host),
 * followed through utils/event-stream-client.ts; it closes a moment after the last listener goes.
 */
const listeners = new Set<Listener>()
let stopFollowing: (() => void) | undefined
let closeTimer: ReturnType<typeof setTimeout> | undefined

/** `since`: when the page's data was loaded (server time), so the stream sends what came after. */
function subscribe(listener: Listener, since: number | undefined) {
	listeners.add(listener)
	if (closeTimer) clearTimeout(closeTimer)
	closeTimer = undefined
	stopFollowing ??= followEventStream(since === undefined ? EVENTS_URL : `${EVENTS_URL}?since=${since}`, (type) => {
		for (const each of listeners) each(type === null ? 'reconnected' : (type as EventType))
	})
	return () => {
		listeners.delete(listener)
		if (listeners.size > 0 || closeTimer) return
		closeTimer = setTimeout(() => {
			closeTimer = undefined
			if (listeners.size > 0) return
			stopFollowing?.()
			stopFollowing = undefined
		}, CLOSE_GRACE_MS)
	}
}

/**
 * Pages that show an action's answer as a step of their own (a refund's review, a promotion code's
 * price): React Router drops every route's action data on a revalidation, so a live event would send
 * the person back a step. While any holds, events are kept for later; the page revalidates once the
 * last hold goes.
 */
let holds = 0
const holdsReleased = new Set<() => void>()

/** Holds live revalidation while `held` (the page shows its action's answer). */
export function useHoldLiveRevalidation(held: boolean) {
	useEffect(() => {
		if (!held) return
		holds += 1
		return () => {
			holds -= 1
			if (holds === 0) for (const release of holdsReleased) release()
		}
	}, [held])
}

/**
 * When a form was last submitted. React shows a submission (a fetcher or a navigation no longer
 * idle) only at its next render; a revalidation in that moment would still start, and React Router
 * drops the redirect a fetcher's action answers once a newer load has begun (the purchase form's
 * way to the checkout was lost so). A submission is taken as busy for a short while, until React
 * has rendered it.
 */
let submittedAt = Number.NEGATIVE_INFINITY
const SUBMIT_SETTLE_MS = 500
if (typeof document !== 'undefined') {
	document.addEventListener('submit', () => (submittedAt = performance.now()), { capture: true })
}

/**
 * Reloads the page's data when the signed-in user's event stream reports one
 * of `eventTypes` (and after a reconnection, as events may have been missed). The stream also
 * replays what came between the page's data and its opening (the root loader's `renderedAt`).
 * Runs only in the browser: without JavaScript the page is correct on reload.
 */
export function useLiveRevalidation(eventTypes: EventType[]) {
	const { revalidate } = useRevalidator()
	const renderedAt = useRootData()?.renderedAt ?? undefined
	const renderedAtRef = useRef(renderedAt)
	renderedAtRef.current = renderedAt
	const revalidateRef = useRef(revalidate)
	revalidateRef.current = revalidate
	const navigationState = useNavigation().state
	const fetchers = useFetchers()
	// A navigation loading, or a form posting through a fetcher (its answer may be a redirect that
	// navigates): revalidating then would cancel that load, its toast or the redirect (the purchase
	// form's way to the checkout was lost so, as the seat it held announced itself).
	const busy = navigationState !== 'idle' || fetchers.some((fetcher) => fetcher.state !== 'idle')
	const busyRef = useRef(busy)
	busyRef.current = busy
	/** An event that came while busy: the page is revalidated once it is not. */
	const deferredRef = useRef(false)
	const key = [...eventTypes].sort().join(',')

	useEffect(() => {
		// A hold taken by the answer this submission rendered counts already: a child's effects run first.
		if (busy || !deferredRef.current || holds > 0) return
		deferredRef.current = false
		void revalidateRef.current()
	}, [busy])

	useEffect(() => {
		const release = () => {
			if (busyRef.current || !deferredRef.current) return
			deferredRef.current = false
			void revalidateRef.current()
		}
		holdsReleased.add(release)
		return () => void holdsReleased.delete(release)
	}, [])

	useEffect(() => {
		const wanted = new Set(key.split(','))
		let timer: ReturnType<typeof setTimeout> | undefined
		const unsubscribe = subscribe((type) => {
			if (type !== 'reconnected' && !wanted.has(type)) return
			const tryRevalidate = () => {
				timer = undefined
				if (busyRef.current || holds > 0) {
					deferredRef.current = true
					return
				}
				const sinceSubmit = performance.now() - submittedAt
				if (sinceSubmit < SUBMIT_SETTLE_MS) timer = setTimeout(tryRevalidate, SUBMIT_SETTLE_MS - sinceSubmit)
				else void revalidateRef.current()
			}
			if (timer) clearTimeout(timer)
			timer = setTimeout(tryRevalidate, DEBOUNCE_MS)
		}, renderedAtRef.current)
		return () => {
			if (timer) clearTimeout(timer)
			unsubscribe()
		}
	}, [key])
}
