import { LocalDate } from '#app/components/local-date.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import type { WaitlistPlace } from '#app/models/enrollment/waitlist.ts'

/** My Courses: the user's places in courses' lines, each with its position and a way to leave. */
export function WaitlistPlaces({ places, path }: { places: WaitlistPlace[]; path: string }) {
	if (places.length === 0) return null
	return (
		<section aria-labelledby="places-heading" className="space-y-3">
			<h2 id="places-heading" className="text-lg font-semibold text-ink">
				Your Places on Waitlists
			</h2>
			<ul className="grid gap-3 md:grid-cols-2">
				{places.map((place) => (
					<li key={place.id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
						<div className="flex flex-wrap items-start justify-between gap-2">
							<h3 className="font-semibold text-ink">{place.courseTitle}</h3>
							{place.status === 'offered' ? (
								<Badge tone="green">Seat offered</Badge>
							) : (
								<Badge tone="yellow">Position {place.position}</Badge>
							)}
						</div>
						<p className="mt-1 text-sm text-slate-700">
							{place.status === 'offered' && place.offerExpiresAt ? (
								<>
									A seat is held for you until <LocalDate value={place.offerExpiresAt} time />: follow the link in the e-mail we sent you to
									claim it.
								</>
							) : (
								<>
									You are number {place.position} in line. Joined <LocalDate value={place.joinedAt} />.
								</>
							)}
						</p>
						<ButtonLink to={`${path}?leave=${place.id}`} preventScrollReset variant="outline" size="sm" className="mt-3">
							Leave Waitlist<span className="sr-only"> of {place.courseTitle}</span>
						</ButtonLink>
					</li>
				))}
			</ul>
		</section>
	)
}
