import { Form, Link } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { HeadedSection } from '#app/components/ui/headed-section.tsx'
import {
	COMMUNITY_TESTIMONIALS,
	type CommunityDiscussion,
	type CommunityEvent,
	type CommunityFilters,
	type CommunityMember,
	experienceLabel,
} from '#app/models/site/community.ts'
import { cn } from '#app/utils/misc.ts'
import { Icon } from './icons.tsx'
import { GetStartedOnDark } from './on-dark-button-link.tsx'
import { SectionHeading } from './page-hero.tsx'

/** A link to the community page with some query parameters changed (null drops one). */
export type HrefWith = (changes: Record<string, string | null>) => string

export function ActiveFilters({ filters, hrefWith }: { filters: CommunityFilters; hrefWith: HrefWith }) {
	const chips = [
		filters.q ? { param: 'q', label: `Search: “${filters.q}”` } : null,
		filters.location ? { param: 'location', label: filters.location } : null,
		filters.specialty ? { param: 'specialty', label: filters.specialty } : null,
		filters.experience ? { param: 'experience', label: experienceLabel(filters.experience) } : null,
	].filter((chip) => chip !== null)
	if (chips.length === 0) return null
	return (
		<div className="mt-4 flex flex-wrap items-center gap-2">
			<p className="text-sm font-medium text-slate-700">Active filters:</p>
			<ul className="flex flex-wrap gap-2">
				{chips.map((chip) => (
					<li key={chip.param}>
						<Link
							to={hrefWith({ [chip.param]: null })}
							preventScrollReset
							className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 py-1 pr-2 pl-3 text-sm font-medium text-brand-800 ring-1 ring-brand-200 hover:bg-brand-100"
						>
							<span className="sr-only">Remove filter: </span>
							{chip.label}
							<span aria-hidden="true" className="text-base leading-none">
								×
							</span>
						</Link>
					</li>
				))}
			</ul>
			<Link
				to={hrefWith({ q: null, location: null, specialty: null, experience: null })}
				preventScrollReset
				className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
			>
				Clear all
			</Link>
		</div>
	)
}

const avatarColours = ['bg-brand-700', 'bg-slate-700', 'bg-blue-700', 'bg-rose-700', 'bg-violet-700', 'bg-amber-800']

export function Avatar({ name, size = 'md' }: { name: string; size?: 'md' | 'lg' }) {
	const letters = name
		.split(/\s+/)
		.map((part) => part[0])
		.join('')
		.slice(0, 2)
		.toUpperCase()
	const colour = avatarColours[[...name].reduce((sum, char) => sum + char.charCodeAt(0), 0) % avatarColours.length]
	return (
		<span
			aria-hidden="true"
			className={cn(
				'flex shrink-0 items-center justify-center rounded-full font-semibold text-white',
				size === 'lg' ? 'size-16 text-xl' : 'size-11 text-sm',
				colour,
			)}
		>
			{letters}
		</span>
	)
}

export function MembersPanel({ members, hrefWith }: { members: CommunityMember[]; hrefWith: HrefWith }) {
	return (
		<HeadedSection id="members-title" title="Community Members" level={2}>
			{members.length === 0 ? (
				<EmptyState
					className="mt-6"
					title="No members found"
					description="Try a different search or remove some filters."
					action={
						<ButtonLink to={hrefWith({ q: null, location: null, specialty: null, experience: null })} variant="outline">
							Clear all
						</ButtonLink>
					}
				/>
			) : (
				<>
					<ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
						{members.map((member) => (
							<li key={member.id} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
								<div className="flex items-start gap-4">
									<Avatar name={member.name} />
									<div className="min-w-0">
										<h3 className="font-semibold text-ink">{member.name}</h3>
										<p className="mt-0.5 flex items-center gap-1 text-sm text-slate-600">
											<Icon name="mapPin" className="size-4" />
											{member.location}
										</p>
									</div>
								</div>
								<p className="mt-4 flex-1 text-sm text-slate-700">{member.headline}</p>
								<div className="mt-4 flex flex-wrap gap-2">
									<Badge tone="brand">{member.specialty}</Badge>
									<Badge tone="gray">{experienceLabel(member.experience)}</Badge>
								</div>
								<div className="mt-5 flex gap-2">
									<ButtonLink
										to={hrefWith({ dialog: 'profile', member: member.id })}
										preventScrollReset
										variant="outline"
										size="sm"
										className="flex-1"
									>
										View Profile<span className="sr-only"> of {member.name}</span>
									</ButtonLink>
									<ConnectButton member={member} className="flex-1" />
								</div>
							</li>
						))}
					</ul>
					<div className="mt-8 flex justify-center">
						{/* Sample data: every member is already shown, so there is nothing more to load. */}
						<Button variant="outline" disabled>
							Load More Members
						</Button>
					</div>
				</>
			)}
		</HeadedSection>
	)
}

export function ConnectButton({ member, className }: { member: CommunityMember; className?: string }) {
	return (
		<Form method="post" className={className}>
			<input type="hidden" name="intent" value="connect" />
			<input type="hidden" name="memberId" value={member.id} />
			<Button type="submit" size="sm" className="w-full">
				Connect<span className="sr-only"> with {member.name}</span>
			</Button>
		</Form>
	)
}

export function DiscussionsPanel({ discussions }: { discussions: CommunityDiscussion[] }) {
	return (
		<HeadedSection id="discussions-title" title="Recent Discussions" level={2}>
			{discussions.length === 0 ? (
				<EmptyState
					className="mt-6"
					title="No discussions found"
					description="Try a different search, or start the conversation yourself."
				/>
			) : (
				<ul className="mt-6 space-y-4">
					{discussions.map((discussion) => (
						<li key={discussion.id} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
							<div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
								<Badge tone="brand">{discussion.category}</Badge>
								<span>
									by <span className="font-medium text-slate-800">{discussion.author}</span>
								</span>
								<span aria-hidden="true">·</span>
								<span>{discussion.lastActivity}</span>
							</div>
							<h3 className="mt-3 text-lg font-semibold text-ink">{discussion.title}</h3>
							<p className="mt-2 text-slate-700">{discussion.excerpt}</p>
							<p className="mt-4 flex gap-6 text-sm text-slate-600">
								<span className="inline-flex items-center gap-1.5">
									<Icon name="chat" className="size-4" />
									{discussion.replies} replies
								</span>
								<span>{discussion.views} views</span>
							</p>
						</li>
					))}
				</ul>
			)}
		</HeadedSection>
	)
}

export function EventsPanel({ events }: { events: CommunityEvent[] }) {
	return (
		<HeadedSection id="events-title" title="Upcoming Events" level={2}>
			{events.length === 0 ? (
				<EmptyState className="mt-6" title="No events found" description="Try a different search." />
			) : (
				<ul className="mt-6 grid gap-6 lg:grid-cols-3">
					{events.map((event) => (
						<li key={event.id} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
							<div className="flex items-start gap-4">
								<p className="flex w-14 shrink-0 flex-col items-center rounded-xl bg-brand-700 py-2 text-white">
									<span className="text-xs font-semibold uppercase">{event.month}</span>
									<span className="text-2xl leading-none font-bold">{event.day}</span>
								</p>
								<h3 className="font-semibold text-ink">{event.title}</h3>
							</div>
							<p className="mt-4 flex-1 text-sm text-slate-700">{event.description}</p>
							<ul className="mt-4 space-y-1.5 text-sm text-slate-600">
								<li className="flex items-center gap-2">
									<Icon name="clock" className="size-4" />
									{event.time}
								</li>
								<li className="flex items-center gap-2">
									<Icon name="mapPin" className="size-4" />
									{event.place}
								</li>
								<li className="flex items-center gap-2">
									<Icon name="users" className="size-4" />
									{event.attendees} attending
								</li>
							</ul>
							<Form method="post" className="mt-5">
								<input type="hidden" name="intent" value="register-event" />
								<input type="hidden" name="eventId" value={event.id} />
								<Button type="submit" className="w-full">
									Register to Attend<span className="sr-only"> {event.title}</span>
								</Button>
							</Form>
						</li>
					))}
				</ul>
			)}
		</HeadedSection>
	)
}

/** What members say: the quotes of the sample community. */
export function CommunityTestimonials() {
	return (
		<section aria-labelledby="testimonials-title" className="bg-white">
			<div className="mx-auto max-w-6xl px-4 py-16">
				<SectionHeading
					id="testimonials-title"
					eyebrow="Testimonials"
					title="What Our Members Say"
					description="Investors at every stage share what the community has meant for them."
				/>
				<ul className="mt-10 grid gap-6 md:grid-cols-3">
					{COMMUNITY_TESTIMONIALS.map((testimonial) => (
						<li key={testimonial.name}>
							<figure className="flex h-full flex-col rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
								<div className="flex gap-0.5 text-amber-500" aria-hidden="true">
									{[1, 2, 3, 4, 5].map((star) => (
										<Icon key={star} name="star" className="size-4 fill-current" />
									))}
								</div>
								<blockquote className="mt-4 flex-1 leading-relaxed text-slate-700">
									<p>“{testimonial.quote}”</p>
								</blockquote>
								<figcaption className="mt-6 flex items-center gap-3">
									<Avatar name={testimonial.name} />
									<span>
										<span className="block font-semibold text-ink">{testimonial.name}</span>
										<span className="block text-sm text-slate-600">{testimonial.role}</span>
									</span>
								</figcaption>
							</figure>
						</li>
					))}
				</ul>
			</div>
		</section>
	)
}

/** The call to join, at the foot of the page. */
export function JoinCommunity() {
	return (
		<section aria-labelledby="join-title" className="mx-auto max-w-6xl px-4 py-16">
			<div className="grid items-center gap-8 overflow-hidden rounded-3xl bg-brand-900 p-8 text-white shadow-xl sm:p-12 md:grid-cols-[1.3fr_1fr]">
				<div>
					<h2 id="join-title" className="text-3xl font-bold tracking-tight text-balance">
						Join Our Investor Community
					</h2>
					<p className="mt-4 text-lg text-brand-100">
						Every student of the mentorship program becomes a member: ask questions, find partners and celebrate your first deal with people
						who understand it.
					</p>
					<GetStartedOnDark />
				</div>
				<img src="/images/community-network.svg" alt="" width={480} height={320} className="w-full rounded-2xl" />
			</div>
		</section>
	)
}
