import type { ReactNode } from 'react'
import { Link } from 'react-router'

/** The link to the next older page of a list, keeping the reader's scroll position. */
export function OlderLink({ to, className, children }: { to: string; className: string; children: ReactNode }) {
	return (
		<p className={className}>
			<Link to={to} preventScrollReset className="text-sm font-medium text-brand-800 underline underline-offset-2">
				{children}
			</Link>
		</p>
	)
}
