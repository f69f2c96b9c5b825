import { useEffect, useId, useState } from 'react'
import { useMatches } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { cn } from '#app/utils/misc.ts'
import { useRootData } from '#app/utils/root-data.ts'
import type { ToastMessage } from '#app/utils/toast.ts'

const tones = {
	success: 'border-green-300 bg-green-50 text-green-900',
	error: 'border-red-300 bg-red-50 text-red-900',
	info: 'border-slate-300 bg-white text-ink',
	warning: 'border-amber-300 bg-amber-50 text-amber-900',
}

/**
 * The pending toast: the root loader's (from a redirect or an action's cookie), else one the
 * page's loader reports as `pageToast` (an outcome with no action to redirect from).
 */
function usePendingToast() {
	const rootToast = useRootData()?.toast ?? null
	const data = useMatches().at(-1)?.loaderData
	const pageToast = data && typeof data === 'object' && 'pageToast' in data ? (data.pageToast as ToastMessage | null) : null
	return rootToast ?? pageToast ?? null
}

/**
 * Shows the one pending toast (one at a time, as the spec asks). Layouts render it first in
 * their main content (`className` places the banner there). Without JavaScript it is a banner there, in the flow, where the reader
 * lands and where it cannot cover a control; its × is the label of a hidden checkbox that hides
 * it without a reload. The checkbox has a second label right beside it, hidden but in text
 * browsers: they show a control where it stands and its label where that stands, so they read
 * "[ ] Dismiss notification" before the banner rather than a bare box there and the × after it.
 * Once scripts run it floats at the bottom, hides itself after a while, and its live region stays
 * in the page so a toast that arrives after a client-side navigation is announced.
 */
export function Toaster({ className }: { className?: string }) {
	const toast = usePendingToast()
	// The toast comes with one page load; a later revalidation (a live event, a fetcher) must not wipe it.
	const [current, setCurrent] = useState(toast)
	if (toast && toast.id !== current?.id) setCurrent(toast)
	const [dismissedId, setDismissedId] = useState<string | null>(null)
	const hydrated = useHydrated()
	const dismissId = useId()
	useEffect(() => {
		if (!current) return
		const timer = setTimeout(() => setDismissedId(current.id), 6000)
		return () => clearTimeout(timer)
	}, [current])

	const visible = current && current.id !== dismissedId ? current : null
	return (
		<div
			aria-live={visible?.type === 'error' ? 'assertive' : 'polite'}
			role="status"
			className={
				hydrated
					? 'pointer-events-none fixed inset-x-0 bottom-0 z-[60] m-0 flex justify-center p-4 sm:justify-end'
					: visible
						? className
						: 'sr-only'
			}
		>
			{visible ? (
				<>
					{hydrated ? null : (
						<>
							<input type="checkbox" id={dismissId} className="peer sr-only" />
							<label htmlFor={dismissId} className="sr-only">
								Dismiss notification
							</label>
						</>
					)}
					<div
						className={cn(
							'flex w-full items-start gap-3 rounded-lg border p-4',
							hydrated
								? 'pointer-events-auto max-w-sm shadow-lg'
								: 'peer-checked:hidden peer-focus-visible:ring-2 peer-focus-visible:ring-brand-600',
							tones[visible.type],
						)}
						data-toast={visible.type}
					>
						<div className="flex-1">
							<p className="text-sm font-semibold">{visible.title}</p>
							{visible.description ? <p className="mt-1 text-sm">{visible.description}</p> : null}
						</div>
						{hydrated ? (
							<button
								type="button"
								onClick={() => setDismissedId(visible.id)}
								className="rounded p-1 text-current opacity-70 hover:opacity-100"
								aria-label="Dismiss notification"
							>
								<span aria-hidden="true">×</span>
							</button>
						) : (
							// Named by the label beside the checkbox: screen readers hear the one name.
							<label htmlFor={dismissId} className="cursor-pointer rounded p-1 text-current opacity-70 hover:opacity-100">
								<span aria-hidden="true">×</span>
							</label>
						)}
					</div>
				</>
			) : null}
		</div>
	)
}
