import { Link } from 'react-router'
import type { CommunityTab } from '#app/models/community/discussions.ts'
import { cn } from '#app/utils/misc.ts'

const LABELS: Record<CommunityTab, string> = { discussions: 'Discussions', members: 'Members', events: 'Events' }

/** The spec's tabs as links (`?tab=`), so each is an address and works without JavaScript. */
export function CommunityTabs({ path, current }: { path: string; current: CommunityTab }) {
	return (
		<nav aria-label="Community sections">
			<ul className="flex flex-wrap gap-2 border-b border-slate-200 pb-2">
				{(Object.keys(LABELS) as CommunityTab[]).map((tab) => (
					<li key={tab}>
						<Link
							to={tab === 'discussions' ? path : `${path}?tab=${tab}`}
							aria-current={tab === current ? 'page' : undefined}
							className={cn(
								'inline-flex h-9 items-center rounded-md px-3 text-sm font-semibold',
								tab === current ? 'bg-brand-700 text-white' : 'text-ink hover:bg-slate-100',
							)}
						>
							{LABELS[tab]}
						</Link>
					</li>
				))}
			</ul>
		</nav>
	)
}
