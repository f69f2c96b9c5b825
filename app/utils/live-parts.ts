import type { AppEvent } from '#app/services/events/events.ts'
import { followEventStream } from './event-stream-client.ts'

/** The live events a page sent without scripts follows (its route handle names them). */
export type LiveForVisitorsHandle = { liveForVisitors: AppEvent['type'][] }

export function liveEventsOf(handle: unknown): AppEvent['type'][] | null {
	if (typeof handle !== 'object' || handle === null || !('liveForVisitors' in handle)) return null
	return (handle as LiveForVisitorsHandle).liveForVisitors
}

/**
 * Runs in the browser, as the one inline script of a page a visitor gets without React
 * (docs/decisions/039): follows the event stream (`follow`, utils/event-stream-client.ts) and,
 * when one of `eventTypes` comes (or the stream comes back after a break, as events may have
 * been missed), loads the page again and swaps in what changed of its `[data-live]` elements. An
 * element whose children all have ids, in the same order as the new copy's, is updated child by
 * child, so a card that did not change keeps its place and focus; one that changed is replaced,
 * and focus moves to the element of the new copy with the same `href`.
 *
 * It references nothing outside itself: it is sent as its own source text.
 */
function followLiveParts(follow: typeof followEventStream, eventTypes: string[], eventsUrl: string, debounceMs: number) {
	let timer: ReturnType<typeof setTimeout> | undefined

	function focusedHref(node: Element) {
		const focused = document.activeElement
		return focused && node.contains(focused) ? focused.getAttribute('href') : null
	}

	function patch(current: Element, fresh: Element) {
		if (current.outerHTML === fresh.outerHTML) return
		const currentIds = Array.from(current.children, (child) => child.id)
		const freshIds = Array.from(fresh.children, (child) => child.id)
		const sameChildren =
			currentIds.length > 0 &&
			currentIds.every(Boolean) &&
			currentIds.join('\n') === freshIds.join('\n') &&
			current.tagName === fresh.tagName
		if (sameChildren) {
			for (let index = 0; index < currentIds.length; index++) patch(current.children[index]!, fresh.children[index]!)
			return
		}
		const href = focusedHref(current)
		const replacement = document.importNode(fresh, true)
		current.replaceWith(replacement)
		if (href === null) return
		const target = Array.from(replacement.querySelectorAll<HTMLElement>('[href]')).find((link) => link.getAttribute('href') === href)
		target?.focus()
	}

	async function refresh() {
		const response = await fetch(location.href, { headers: { Accept: 'text/html' } })
		if (!response.ok) return
		const fresh = new DOMParser().parseFromString(await response.text(), 'text/html')
		for (const part of Array.from(document.querySelectorAll('[data-live]'))) {
			const next = part.id ? fresh.getElementById(part.id) : null
			if (next) patch(part, next)
		}
	}

	follow(eventsUrl, (type) => {
		if (type !== null && !eventTypes.includes(type)) return
		if (timer) clearTimeout(timer)
		timer = setTimeout(() => {
			refresh().catch(() => {
				// The next event tries again; the page stays as it was meanwhile.
			})
		}, debounceMs)
	})
}

/** The inline script that keeps a page's `[data-live]` parts current for events of these types. */
export function livePartsScript(eventTypes: AppEvent['type'][]) {
	// The page cache drops its copy when the change's own notice reaches this process; the pause
	// also gathers a burst of events into one reload.
	return `(${followLiveParts.toString()})(${followEventStream.toString()},${JSON.stringify(eventTypes)},"/events",250)`
}
