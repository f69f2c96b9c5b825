import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useLocation, useNavigation } from 'react-router'
import { z } from 'zod'
import {
	COMMUNITY_EVENTS,
	COMMUNITY_EXPERIENCE_LEVELS,
	COMMUNITY_LOCATIONS,
	COMMUNITY_MEMBERS,
	COMMUNITY_SPECIALTIES,
	COMMUNITY_STATS,
	COMMUNITY_TESTIMONIALS,
	type CommunityDiscussion,
	type CommunityEvent,
	type CommunityFilters,
	type CommunityMember,
	experienceLabel,
	filterDiscussions,
	filterEvents,
	filterMembers,
	readCommunityFilters,
} from '#app/components/marketing/community-data.ts'
import { Icon, type IconName } from '#app/components/marketing/icons.tsx'
import { pageMeta } from '#app/components/marketing/meta.ts'
import { OnDarkButtonLink } from '#app/components/marketing/on-dark-button-link.tsx'
import { PageHero, SectionHeading } from '#app/components/marketing/page-hero.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink, buttonClasses } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { CheckboxField, Field, SelectField, TextareaField } from '#app/components/ui/field.tsx'
import { Input, Label } from '#app/components/ui/input.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { cn } from '#app/utils/misc.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/community'

const FILL_IN_ALL_FIELDS = 'Please fill in all fields'

/** Title and content are both required; the spec asks for one message for either. */
const DiscussionSchema = z
	.object({
		intent: z.literal('discuss'),
		title: z.string().trim().max(200, 'Title must be at most 200 characters').optional(),
		content: z.string().trim().max(5000, 'Content must be at most 5,000 characters').optional(),
		notifyReplies: z.boolean().optional(),
	})
	.refine((value) => Boolean(value.title && value.content), { message: FILL_IN_ALL_FIELDS })

const CommunityActionSchema = z.discriminatedUnion('intent', [
	DiscussionSchema,
	z.object({
		intent: z.literal('connect'),
		memberId: z.string().refine((id) => COMMUNITY_MEMBERS.some((member) => member.id === id), 'Unknown member'),
	}),
	z.object({
		intent: z.literal('register-event'),
		eventId: z.string().refine((id) => COMMUNITY_EVENTS.some((event) => event.id === id), 'Unknown event'),
	}),
])

const TABS = ['members', 'discussions', 'events'] as const
type Tab = (typeof TABS)[number]
const DIALOGS = ['filters', 'discuss', 'profile'] as const

export function loader({ request }: Route.LoaderArgs) {
	const params = new URL(request.url).searchParams
	const filters = readCommunityFilters(params)
	const tab = TABS.find((value) => value === params.get('tab')) ?? 'members'
	const dialog = DIALOGS.find((value) => value === params.get('dialog')) ?? null
	const profile = dialog === 'profile' ? (COMMUNITY_MEMBERS.find((member) => member.id === params.get('member')) ?? null) : null
	return {
		filters,
		tab,
		dialog: dialog === 'profile' && !profile ? null : dialog,
		profile,
		members: filterMembers(filters),
		discussions: filterDiscussions(filters.q),
		events: filterEvents(filters.q),
	}
}

/** The community is sample data (spec): every action validates, then answers with a toast and stores nothing. */
export async function action({ request }: Route.ActionArgs) {
	const submission = parseWithZod(await readFormData(request), { schema: CommunityActionSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply() }, { status: 400 })
	}
	const value = submission.value
	if (value.intent === 'discuss') {
		return redirectWithToast(pageUrl(request, { tab: 'discussions' }), {
			type: 'success',
			title: 'Discussion submitted',
			description: 'Thanks for sharing! Discussions appear once the investor community launches.',
		})
	}
	if (value.intent === 'connect') {
		const member = COMMUNITY_MEMBERS.find((item) => item.id === value.memberId)!
		return redirectWithToast(pageUrl(request), {
			type: 'info',
			title: 'Coming soon',
			description: `Connecting with ${member.name} will be possible once the investor community launches.`,
		})
	}
	const event = COMMUNITY_EVENTS.find((item) => item.id === value.eventId)!
	return redirectWithToast(pageUrl(request), {
		type: 'info',
		title: 'Coming soon',
		description: `Registration for ${event.title} opens once the investor community launches.`,
	})
}

/**
 * Where an action sends the visitor back to: the page with its search, filters
 * and tab, dialog closed. Built from the known parameters only, because a
 * client-side submission arrives at /community.data with routing parameters.
 */
function pageUrl(request: Request, changes: { tab?: Tab } = {}) {
	const current = new URL(request.url).searchParams
	const next = new URLSearchParams()
	for (const key of ['q', 'location', 'specialty', 'experience', 'tab']) {
		const value = current.get(key)
		if (value) next.set(key, value)
	}
	if (changes.tab) next.set('tab', changes.tab)
	const search = next.toString()
	return search ? `/community?${search}` : '/community'
}

/** A link to this page with some query parameters changed (null drops one). */
function useHrefWith() {
	const location = useLocation()
	return (changes: Record<string, string | null>) => {
		const params = new URLSearchParams(location.search)
		for (const [key, value] of Object.entries(changes)) {
			if (value === null) params.delete(key)
			else params.set(key, value)
		}
		const search = params.toString()
		return search ? `/community?${search}` : '/community'
	}
}

const statIcons: IconName[] = ['users', 'chat', 'home', 'calendar']

export default function Community({ loaderData, actionData }: Route.ComponentProps) {
	const { filters, tab, dialog, profile, members, discussions, events } = loaderData
	const hrefWith = useHrefWith()
	const closeDialog = hrefWith({ dialog: null, member: null })
	const activeFilterCount = [filters.location, filters.specialty, filters.experience].filter(Boolean).length

	return (
		<>
			<PageHero
				eyebrow="Community"
				title="Investor Community"
				description="Connect with fellow real estate investors, trade deal insights and learn from people who have been where you are."
			/>

			<section aria-label="Community at a glance" className="relative mx-auto -mt-10 max-w-6xl px-4">
				<ul className="grid grid-cols-2 gap-4 lg:grid-cols-4">
					{COMMUNITY_STATS.map((stat, index) => (
						<li key={stat.label} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-md">
							<span className="flex size-10 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
								<Icon name={statIcons[index] ?? 'star'} />
							</span>
							<p className="mt-3 text-2xl font-bold text-ink sm:text-3xl">{stat.value}</p>
							<p className="text-sm text-slate-600">{stat.label}</p>
						</li>
					))}
				</ul>
			</section>

			<div className="mx-auto max-w-6xl px-4 py-12">
				<div className="flex flex-col gap-3 md:flex-row md:items-center">
					<Form method="get" action="/community" role="search" className="flex flex-1 gap-2">
						{tab !== 'members' ? <input type="hidden" name="tab" value={tab} /> : null}
						{filters.location ? <input type="hidden" name="location" value={filters.location} /> : null}
						{filters.specialty ? <input type="hidden" name="specialty" value={filters.specialty} /> : null}
						{filters.experience ? <input type="hidden" name="experience" value={filters.experience} /> : null}
						<Label htmlFor="community-search" className="sr-only">
							Search the community
						</Label>
						<div className="relative flex-1">
							<Icon name="search" className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-500" />
							<Input
								key={filters.q}
								id="community-search"
								type="search"
								name="q"
								defaultValue={filters.q}
								maxLength={100}
								placeholder="Search members, discussions and events..."
								className="pl-10"
							/>
						</div>
						<Button type="submit" variant="outline">
							Search
						</Button>
					</Form>
					<div className="flex gap-2">
						<ButtonLink
							to={hrefWith({ dialog: 'filters', member: null })}
							preventScrollReset
							variant="outline"
							className="flex-1 whitespace-nowrap"
						>
							<Icon name="filter" className="size-4" />
							Filters
							{activeFilterCount ? (
								<span className="rounded-full bg-brand-700 px-2 text-xs text-white">
									{activeFilterCount}
									<span className="sr-only"> active</span>
								</span>
							) : null}
						</ButtonLink>
						<ButtonLink to={hrefWith({ dialog: 'discuss', member: null })} preventScrollReset className="flex-1 whitespace-nowrap">
							<Icon name="plus" className="size-4" />
							Start Discussion
						</ButtonLink>
					</div>
				</div>

				<ActiveFilters filters={filters} hrefWith={hrefWith} />

				<TabLinks
					className="mt-8"
					label="Community sections"
					current={tab}
					tabs={[
						{ id: 'members', label: 'Members', to: hrefWith({ tab: null, dialog: null, member: null }), count: members.length },
						{
							id: 'discussions',
							label: 'Discussions',
							to: hrefWith({ tab: 'discussions', dialog: null, member: null }),
							count: discussions.length,
						},
						{ id: 'events', label: 'Events', to: hrefWith({ tab: 'events', dialog: null, member: null }), count: events.length },
					]}
				/>

				<div className="mt-8">
					{tab === 'members' ? (
						<MembersPanel members={members} hrefWith={hrefWith} />
					) : tab === 'discussions' ? (
						<DiscussionsPanel discussions={discussions} />
					) : (
						<EventsPanel events={events} />
					)}
				</div>
			</div>

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

			<section aria-labelledby="join-title" className="mx-auto max-w-6xl px-4 py-16">
				<div className="grid items-center gap-8 overflow-hidden rounded-3xl bg-brand-900 p-8 text-white shadow-xl sm:p-12 md:grid-cols-[1.3fr_1fr]">
					<div>
						<h2 id="join-title" className="text-3xl font-bold tracking-tight text-balance">
							Join Our Investor Community
						</h2>
						<p className="mt-4 text-lg text-brand-100">
							Every student of the mentorship program becomes a member: ask questions, find partners and celebrate your first deal with
							people who understand it.
						</p>
						<div className="mt-8 flex flex-col gap-3 sm:flex-row">
							<ButtonLink to="/register" variant="secondary" size="lg">
								Get Started
							</ButtonLink>
							<OnDarkButtonLink to="/contact">Email Us</OnDarkButtonLink>
						</div>
					</div>
					<img src="/images/community-network.svg" alt="" width={480} height={320} className="w-full rounded-2xl" />
				</div>
			</section>

			{dialog === 'filters' ? <FiltersDialog filters={filters} tab={tab} closeTo={closeDialog} hrefWith={hrefWith} /> : null}
			{dialog === 'discuss' ? <DiscussionDialog closeTo={closeDialog} lastResult={actionData?.result} /> : null}
			{dialog === 'profile' && profile ? <ProfileDialog member={profile} closeTo={closeDialog} /> : null}
		</>
	)
}

type HrefWith = ReturnType<typeof useHrefWith>

function ActiveFilters({ filters, hrefWith }: { filters: CommunityFilters; hrefWith: HrefWith }) {
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

function Avatar({ name, size = 'md' }: { name: string; size?: 'md' | 'lg' }) {
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

function MembersPanel({ members, hrefWith }: { members: CommunityMember[]; hrefWith: HrefWith }) {
	return (
		<section aria-labelledby="members-title">
			<h2 id="members-title" className="text-xl font-semibold text-ink">
				Community Members
			</h2>
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
		</section>
	)
}

function ConnectButton({ member, className }: { member: CommunityMember; className?: string }) {
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

function DiscussionsPanel({ discussions }: { discussions: CommunityDiscussion[] }) {
	return (
		<section aria-labelledby="discussions-title">
			<h2 id="discussions-title" className="text-xl font-semibold text-ink">
				Recent Discussions
			</h2>
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
		</section>
	)
}

function EventsPanel({ events }: { events: CommunityEvent[] }) {
	return (
		<section aria-labelledby="events-title">
			<h2 id="events-title" className="text-xl font-semibold text-ink">
				Upcoming Events
			</h2>
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
		</section>
	)
}

function FiltersDialog({ filters, tab, closeTo, hrefWith }: { filters: CommunityFilters; tab: Tab; closeTo: string; hrefWith: HrefWith }) {
	return (
		<RouteDialog title="Filters" description="Find investors by location, specialty and experience level." closeTo={closeTo}>
			<Form method="get" action="/community" className="space-y-4">
				{tab !== 'members' ? <input type="hidden" name="tab" value={tab} /> : null}
				{filters.q ? <input type="hidden" name="q" value={filters.q} /> : null}
				<SelectField label="Location" selectProps={{ name: 'location', defaultValue: filters.location ?? '' }}>
					<option value="">All Locations</option>
					{COMMUNITY_LOCATIONS.map((location) => (
						<option key={location} value={location}>
							{location}
						</option>
					))}
				</SelectField>
				<SelectField label="Specialty" selectProps={{ name: 'specialty', defaultValue: filters.specialty ?? '' }}>
					<option value="">Any specialty</option>
					{COMMUNITY_SPECIALTIES.map((specialty) => (
						<option key={specialty} value={specialty}>
							{specialty}
						</option>
					))}
				</SelectField>
				<SelectField label="Experience Level" selectProps={{ name: 'experience', defaultValue: filters.experience ?? '' }}>
					<option value="">Any experience level</option>
					{COMMUNITY_EXPERIENCE_LEVELS.map((level) => (
						<option key={level.value} value={level.value}>
							{level.label}
						</option>
					))}
				</SelectField>
				<div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
					<Link
						to={hrefWith({ dialog: null, location: null, specialty: null, experience: null })}
						preventScrollReset
						className={buttonClasses({ variant: 'outline' })}
					>
						Clear all
					</Link>
					<Button type="submit">Apply Filters</Button>
				</div>
			</Form>
		</RouteDialog>
	)
}

function DiscussionDialog({ closeTo, lastResult }: { closeTo: string; lastResult: SubmissionResult<string[]> | undefined }) {
	const navigation = useNavigation()
	const isPosting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'discuss'
	const [form, fields] = useForm({
		id: 'start-discussion',
		lastResult,
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: DiscussionSchema }),
	})
	return (
		<RouteDialog title="Start a Discussion" description="Ask a question or share an insight with fellow investors." closeTo={closeTo}>
			<Form method="post" {...getFormProps(form)} className="space-y-4">
				<input type="hidden" name="intent" value="discuss" />
				{form.errors?.length ? (
					<Alert tone="error" id={form.errorId}>
						{form.errors.join(' ')}
					</Alert>
				) : null}
				<Field
					label="Title"
					errors={fields.title.errors}
					inputProps={{ ...getInputProps(fields.title, { type: 'text' }), maxLength: 200, placeholder: 'What would you like to discuss?' }}
				/>
				<TextareaField
					label="Content"
					errors={fields.content.errors}
					textareaProps={{
						...getTextareaProps(fields.content),
						maxLength: 5000,
						rows: 6,
						placeholder: 'Share details, numbers or context...',
					}}
				/>
				<CheckboxField label="Notify me when someone replies" inputProps={getInputProps(fields.notifyReplies, { type: 'checkbox' })} />
				<div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
					<Link to={closeTo} preventScrollReset className={buttonClasses({ variant: 'outline' })}>
						Cancel
					</Link>
					<Button type="submit" disabled={isPosting}>
						{isPosting ? 'Posting...' : 'Post Discussion'}
					</Button>
				</div>
			</Form>
		</RouteDialog>
	)
}

function ProfileDialog({ member, closeTo }: { member: CommunityMember; closeTo: string }) {
	const facts = [
		{ label: 'Location', value: member.location },
		{ label: 'Specialty', value: member.specialty },
		{ label: 'Experience', value: experienceLabel(member.experience) },
		{ label: 'Years investing', value: String(member.yearsInvesting) },
		{ label: 'Deals closed', value: String(member.dealsClosed) },
	]
	return (
		<RouteDialog title={member.name} description={member.headline} closeTo={closeTo}>
			<div className="flex items-center gap-4">
				<Avatar name={member.name} size="lg" />
				<p className="text-sm leading-relaxed text-slate-700">{member.bio}</p>
			</div>
			<dl className="mt-6 grid grid-cols-2 gap-4 rounded-xl bg-slate-50 p-4 text-sm ring-1 ring-slate-200">
				{facts.map((fact) => (
					<div key={fact.label}>
						<dt className="text-slate-600">{fact.label}</dt>
						<dd className="font-medium text-ink">{fact.value}</dd>
					</div>
				))}
			</dl>
			<div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
				<Link to={closeTo} preventScrollReset className={buttonClasses({ variant: 'outline' })}>
					Close
				</Link>
				<ConnectButton member={member} />
			</div>
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () =>
	pageMeta(
		'Investor Community',
		'Meet fellow real estate investors: browse members by location, specialty and experience, join discussions and attend events.',
	)
