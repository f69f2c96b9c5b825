/**
 * Follows the live-event stream (`/events`) in the browser: the one place that opens it, tells an
 * event from a reconnection or the server's `missed` (`null`: events may have been missed while the
 * stream was down, or before it opened), and
 * reopens, with a growing delay, a stream the browser gave up on (an error status, a restart
 * answered by a proxy); the browser itself retries a dropped connection. Returns the function that
 * stops following. Used by the React pages (components/live-revalidation.tsx) and, sent as its own
 * source text, by the inline script of pages without React (utils/live-parts.ts): so it references
 * nothing outside itself.
 */
export function followEventStream(url: string, onEvent: (type: string | null) => void) {
	let source: EventSource | undefined
	let reopenTimer: ReturnType<typeof setTimeout> | undefined
	let failures = 0
	let interrupted = false
	let stopped = false

	function open() {
		const next = new EventSource(url)
		source = next
		next.addEventListener('open', () => {
			failures = 0
			if (interrupted) onEvent(null)
			interrupted = false
		})
		next.addEventListener('missed', () => onEvent(null))
		next.addEventListener('message', (event: MessageEvent<string>) => {
			try {
				const type = JSON.parse(event.data).type
				if (typeof type === 'string') onEvent(type)
			} catch {
				// A malformed payload carries nothing to act on.
			}
		})
		next.addEventListener('error', () => {
			interrupted = true
			if (next.readyState !== EventSource.CLOSED) return
			next.close()
			reopenTimer = setTimeout(
				() => {
					reopenTimer = undefined
					if (!stopped) open()
				},
				Math.min(30_000, 1000 * 2 ** failures),
			)
			failures += 1
		})
	}

	open()
	return () => {
		stopped = true
		source?.close()
		if (reopenTimer) clearTimeout(reopenTimer)
	}
}
