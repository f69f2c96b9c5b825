import { useEffect, useRef } from 'react'
import { useNavigation, useRevalidator } from 'react-router'
import type { AppEvent } from '#app/services/events/events.ts'
import { followEventStream } from '#app/utils/event-stream-client.ts'

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

function subscribe(listener: Listener) {
	listeners.add(listener)
	if (closeTimer) clearTimeout(closeTimer)
	closeTimer = undefined
	stopFollowing ??= followEventStream(EVENTS_URL, (type) => {
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
