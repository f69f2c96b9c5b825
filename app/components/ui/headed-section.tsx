import type { ReactNode } from 'react'

/** A part of a card or dialog under its own h3, which names it (`id` is the heading's). */
export function HeadedSection({ id, title, className, children }: { id: string; title: string; className?: string; children: ReactNode }) {
	return (
		<section aria-labelledby={id} className={className}>
			<h3 id={id} className="font-semibold text-ink">
				{title}
			</h3>
			{children}
		</section>
	)
}
