import type { ReactNode } from 'react'
import { cn } from '#app/utils/misc.ts'

/** The coloured band at the top of every inner marketing page; holds the page's only h1. */
export function PageHero({
	eyebrow,
	title,
	description,
	children,
}: {
	eyebrow?: ReactNode
	title: ReactNode
	description?: ReactNode
	children?: ReactNode
}) {
	return (
		<section className="relative overflow-hidden bg-brand-900 text-white">
			<div
				aria-hidden="true"
				className="absolute inset-0 bg-[radial-gradient(circle_at_85%_20%,rgba(251,191,36,0.08),transparent_40%),radial-gradient(circle_at_10%_90%,rgba(47,143,107,0.45),transparent_50%)]"
			/>
			<div className="relative mx-auto max-w-6xl px-4 py-14 sm:py-20">
				{eyebrow ? <p className="text-sm font-semibold tracking-wide text-amber-300 uppercase">{eyebrow}</p> : null}
				<h1 className="mt-2 max-w-3xl text-3xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
				{description ? <p className="mt-4 max-w-2xl text-lg text-brand-100">{description}</p> : null}
				{children ? <div className="mt-8">{children}</div> : null}
			</div>
		</section>
	)
}

export function SectionHeading({
	eyebrow,
	title,
	description,
	align = 'center',
	id,
	className,
}: {
	eyebrow?: ReactNode
	title: ReactNode
	description?: ReactNode
	align?: 'center' | 'left'
	id?: string
	className?: string
}) {
	return (
		<div className={cn('max-w-2xl', align === 'center' && 'mx-auto text-center', className)}>
			{eyebrow ? <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{eyebrow}</p> : null}
			<h2 id={id} className="mt-2 text-2xl font-bold tracking-tight text-ink text-balance sm:text-3xl">
				{title}
			</h2>
			{description ? <p className="mt-3 text-base text-slate-600 sm:text-lg">{description}</p> : null}
		</div>
	)
}
