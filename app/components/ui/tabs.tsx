import { Link } from 'react-router'
import { cn } from '#app/utils/misc.ts'

export type TabLink = { id: string; label: string; to: string; count?: number }

/**
 * Tabs are links (`?tab=`), so they work without JavaScript and each tab has
 * its own URL; the current one is marked with aria-current.
 */
export function TabLinks({ tabs, current, label, className }: { tabs: TabLink[]; current: string; label: string; className?: string }) {
	return (
		<nav aria-label={label} className={cn('border-b border-slate-200', className)}>
			<ul className="-mb-px flex gap-1 overflow-x-auto">
				{tabs.map((tab) => {
					const active = tab.id === current
					return (
						<li key={tab.id}>
							<Link
								to={tab.to}
								preventScrollReset
								replace
								aria-current={active ? 'page' : undefined}
								className={cn(
									'inline-flex items-center gap-2 whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
									active ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-ink',
								)}
							>
								{tab.label}
								{tab.count !== undefined ? (
									<span className="rounded-full bg-slate-100 px-2 text-xs text-slate-700">{tab.count}</span>
								) : null}
							</Link>
						</li>
					)
				})}
			</ul>
		</nav>
	)
}
