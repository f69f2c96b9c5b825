import type { ReactNode } from 'react'
import { cn } from '#app/utils/misc.ts'

export function EmptyState({
	title,
	description,
	action,
	className,
}: {
	title: ReactNode
	description?: ReactNode
	action?: ReactNode
	className?: string
}) {
	return (
		<div className={cn('rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center', className)}>
			<p className="text-base font-semibold text-ink">{title}</p>
			{description ? <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">{description}</p> : null}
			{action ? <div className="mt-5 flex justify-center gap-2">{action}</div> : null}
		</div>
	)
}
