import { type ReactNode, useEffect, useId, useRef } from 'react'
import { Link, useNavigate } from 'react-router'
import { cn } from '#app/utils/misc.ts'

const focusableSelector =
	'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * A dialog that is a route (or a `?dialog=` state of one). The server renders
 * it as an overlay, so it works without JavaScript and closes with a link; with
 * JavaScript it also takes focus, keeps it inside and closes on Escape.
 */
export function RouteDialog({
	title,
	description,
	closeTo,
	children,
	size = 'md',
}: {
	title: ReactNode
	description?: ReactNode
	closeTo: string
	children: ReactNode
	size?: 'sm' | 'md' | 'lg' | 'xl'
}) {
	const titleId = useId()
	const descriptionId = useId()
	const panelRef = useRef<HTMLDivElement>(null)
	const navigate = useNavigate()

	useEffect(() => {
		const panel = panelRef.current
		if (!panel) return
		// Someone already in the dialog (typing before the scripts arrived, on a slow phone) stays where they are.
		const alreadyInside = panel.contains(document.activeElement)
		const previouslyFocused = alreadyInside ? null : (document.activeElement as HTMLElement | null)
		if (!alreadyInside) {
			// Fields out of the tab order (a form's spam trap) are not where a person starts.
			const first =
				panel.querySelector<HTMLElement>(
					'[autofocus], input:not([type=hidden]):not([tabindex="-1"]), select:not([tabindex="-1"]), textarea:not([tabindex="-1"])',
				) ?? panel
			first.focus()
		}
		const onKeyDown = (event: KeyboardEvent) => {
			if (event.key === 'Escape') {
				event.preventDefault()
				void navigate(closeTo, { preventScrollReset: true })
				return
			}
			if (event.key !== 'Tab') return
			const focusable = Array.from(panel.querySelectorAll<HTMLElement>(focusableSelector))
			if (focusable.length === 0) return
			const firstItem = focusable[0]!
			const lastItem = focusable[focusable.length - 1]!
			if (event.shiftKey && document.activeElement === firstItem) {
				event.preventDefault()
				lastItem.focus()
			} else if (!event.shiftKey && document.activeElement === lastItem) {
				event.preventDefault()
				firstItem.focus()
			}
		}
		document.addEventListener('keydown', onKeyDown)
		const { overflow } = document.body.style
		document.body.style.overflow = 'hidden'
		return () => {
			document.removeEventListener('keydown', onKeyDown)
			document.body.style.overflow = overflow
			previouslyFocused?.focus?.()
		}
	}, [closeTo, navigate])

	return (
		<div className="fixed inset-0 z-50 m-0 flex items-end justify-center p-0 sm:items-center sm:p-4">
			{/*
			 * A click beside the dialog closes it. Screen readers and the keyboard have the Close at its
			 * top; the words are for a text browser, which would show an empty link. Before the dialog,
			 * not after it: NetSurf paints a later backdrop over the dialog, whatever its z-index.
			 */}
			<Link to={closeTo} preventScrollReset aria-hidden="true" tabIndex={-1} className="absolute inset-0 bg-slate-900/50">
				<span className="sr-only">Close</span>
			</Link>
			<div
				ref={panelRef}
				role="dialog"
				aria-modal="true"
				aria-labelledby={titleId}
				aria-describedby={description ? descriptionId : undefined}
				tabIndex={-1}
				className={cn(
					'relative max-h-[92vh] w-full overflow-y-auto rounded-t-2xl bg-white p-5 shadow-xl sm:rounded-2xl sm:p-6',
					{ sm: 'sm:max-w-sm', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl', xl: 'sm:max-w-4xl' }[size],
				)}
			>
				<div className="mb-4 flex items-start justify-between gap-4">
					<div>
						<h2 id={titleId} className="text-lg font-semibold text-ink">
							{title}
						</h2>
						{description ? (
							<p id={descriptionId} className="mt-1 text-sm text-slate-600">
								{description}
							</p>
						) : null}
					</div>
					<Link to={closeTo} preventScrollReset className="rounded-md p-1 text-slate-600 hover:bg-slate-100 hover:text-ink">
						<span aria-hidden="true" className="block text-xl leading-none">
							×
						</span>{' '}
						{/* Words rather than an aria-label, which a text browser does not show. */}
						<span className="sr-only">Close</span>
					</Link>
				</div>
				{children}
			</div>
		</div>
	)
}
