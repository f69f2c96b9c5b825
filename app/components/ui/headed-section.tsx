import type { ReactNode } from 'react'

const headingClasses = { 2: 'text-xl font-semibold text-ink', 3: 'font-semibold text-ink' } as const

/**
 * A part of a page (an h2) or of a card or dialog (an h3, the default) under its own heading,
 * which names it (`id` is the heading's).
 */
export function HeadedSection({
	id,
	title,
	level = 3,
	className,
	children,
}: {
	id: string
	title: string
	level?: 2 | 3
	className?: string
	children: ReactNode
}) {
	const Heading = level === 2 ? 'h2' : 'h3'
	return (
		<section aria-labelledby={id} className={className}>
			<Heading id={id} className={headingClasses[level]}>
				{title}
			</Heading>
			{children}
		</section>
	)
}
