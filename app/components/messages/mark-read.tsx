import { useEffect, useRef } from 'react'
import { Form, useFetcher } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Button } from '#app/components/ui/button.tsx'

/**
 * Opening a thread marks the partner's messages read, but a GET never
 * changes anything: with JavaScript a fetcher posts 'mark-read' while the
 * thread is on screen; without it the thread offers a 'Mark as read' button
 * (and replying marks the thread read too).
 */
export function MarkRead({ partnerId, unreadCount, redirectTo }: { partnerId: string; unreadCount: number; redirectTo: string }) {
	const hydrated = useHydrated()
	const fetcher = useFetcher()
	const submitRef = useRef(fetcher.submit)
	submitRef.current = fetcher.submit

	useEffect(() => {
		if (unreadCount === 0) return
		const mark = () => {
			if (document.visibilityState !== 'visible') return
			void submitRef.current({ intent: 'mark-read', partnerId }, { method: 'post' })
		}
		mark()
		document.addEventListener('visibilitychange', mark)
		return () => document.removeEventListener('visibilitychange', mark)
	}, [partnerId, unreadCount])

	if (unreadCount === 0 || hydrated) return null
	return (
		<Form method="post" className="flex flex-wrap items-center gap-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
			<input type="hidden" name="intent" value="mark-read" />
			<input type="hidden" name="partnerId" value={partnerId} />
			<input type="hidden" name="redirectTo" value={redirectTo} />
			<span>
				{unreadCount} unread {unreadCount === 1 ? 'message' : 'messages'}
			</span>
			<Button type="submit" size="sm" variant="outline">
				Mark as read
			</Button>
		</Form>
	)
}
