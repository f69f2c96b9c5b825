import type { ReactNode } from 'react'
import { cn } from '#app/utils/misc.ts'

/** Facts as a definition list in two columns, each label over its value (a course card's, a member's profile). */
export function FactGrid({ facts, className }: { facts: ReadonlyArray<{ label: string; value: ReactNode }>; className?: string }) {
	return (
		<dl className={cn('grid grid-cols-2 text-sm', className)}>
			{facts.map((fact) => (
				<div key={fact.label}>
					<dt className="text-slate-600">{fact.label}</dt>
					<dd className="font-medium text-ink">{fact.value}</dd>
				</div>
			))}
		</dl>
	)
}
