import type { ReactNode } from 'react'
import { Icon, type IconName } from './icons.tsx'

/** A white box with an icon and a heading, then what it says (the contact page's side column). */
export function InfoCard({ icon, title, children }: { icon: IconName; title: string; children: ReactNode }) {
	return (
		<div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
			<div className="flex items-center gap-3">
				<span className="flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700 ring-1 ring-brand-100">
					<Icon name={icon} />
				</span>
				<h2 className="font-semibold text-ink">{title}</h2>
			</div>
			{children}
		</div>
	)
}
