import { ButtonLink } from '#app/components/ui/button.tsx'
import type { LimitedTimeOffer } from '#app/models/site/site-settings.ts'
import { Icon } from './icons.tsx'

/** The hero's limited-time offer; its action leads to registration like every 'Get Started'. */
export function LimitedTimeOfferCard({ offer }: { offer: LimitedTimeOffer }) {
	return (
		<section
			aria-labelledby="limited-offer-title"
			className="relative overflow-hidden rounded-2xl bg-white text-ink shadow-2xl ring-1 ring-black/5"
		>
			<div aria-hidden="true" className="h-2 bg-gradient-to-r from-amber-400 via-amber-300 to-amber-500" />
			<div className="p-6 sm:p-7">
				<p className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold tracking-wide text-amber-900 uppercase">
					<Icon name="clock" className="size-4" />
					<span>Limited time</span>
				</p>
				<h2 id="limited-offer-title" className="mt-4 text-2xl font-bold tracking-tight">
					{offer.title}
				</h2>
				<p className="mt-2 text-lg font-semibold text-brand-700">{offer.discount}</p>
				<ul className="mt-5 space-y-3">
					{offer.items.map((item) => (
						<li key={item} className="flex items-start gap-3 text-sm text-slate-700">
							<span className="mt-0.5 flex size-5 items-center justify-center rounded-full bg-brand-100 text-brand-700">
								<Icon name="check" className="size-3.5" strokeWidth={2.5} />
							</span>
							<span>{item}</span>
						</li>
					))}
				</ul>
				<ButtonLink to="/register" variant="secondary" size="lg" className="mt-6 w-full">
					{offer.action}
				</ButtonLink>
				{offer.note ? <p className="mt-3 text-center text-xs text-slate-600">{offer.note}</p> : null}
			</div>
		</section>
	)
}
