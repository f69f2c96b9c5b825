import { useEffect, useState } from 'react'
import { cn } from '#app/utils/misc.ts'
import type { ToastMessage } from '#app/utils/toast.ts'

const tones = {
	success: 'border-green-300 bg-green-50 text-green-900',
	error: 'border-red-300 bg-red-50 text-red-900',
	info: 'border-slate-300 bg-white text-ink',
	warning: 'border-amber-300 bg-amber-50 text-amber-900',
}

/**
 * Shows the one pending toast (one at a time, as the spec asks). The live
 * region is always in the page so screen readers announce a toast that
 * arrives after a client-side navigation.
 */
export function Toaster({ toast }: { toast: ToastMessage | null }) {
	// The toast comes with one page load; a later revalidation (a live event, a fetcher) must not wipe it.
	const [current, setCurrent] = useState(toast)
	if (toast && toast.id !== current?.id) setCurrent(toast)
	const [dismissedId, setDismissedId] = useState<string | null>(null)
	const [hydrated, setHydrated] = useState(false)
	useEffect(() => setHydrated(true), [])
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
			className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-center p-4 sm:justify-end"
		>
			{visible ? (
				<div
					className={cn('pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg', tones[visible.type])}
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
					) : null}
				</div>
			) : null}
		</div>
	)
}
