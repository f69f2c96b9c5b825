import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useLocation } from 'react-router'
import { DiscussionDialog, FiltersDialog, ProfileDialog } from '#app/components/marketing/community-dialogs.tsx'
import {
	ActiveFilters,
	CommunityTestimonials,
	DiscussionsPanel,
	EventsPanel,
	JoinCommunity,
	MembersPanel,
} from '#app/components/marketing/community-panels.tsx'
import { Icon } from '#app/components/marketing/icons.tsx'
import { PageHero } from '#app/components/marketing/page-hero.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Input, Label } from '#app/components/ui/input.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import {
	COMMUNITY_EVENTS,
	COMMUNITY_MEMBERS,
	COMMUNITY_STATS,
	COMMUNITY_TABS,
	CommunityActionSchema,
	type CommunityTab,
	filterDiscussions,
	filterEvents,
	filterMembers,
	readCommunityFilters,
} from '#app/models/site/community.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/page-meta.ts'
import { SHARED_PAGE_OF_CODE } from '#app/utils/root-data.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/community'

const DIALOGS = ['filters', 'discuss', 'profile'] as const

export function loader({ request }: Route.LoaderArgs) {
	const params = new URL(request.url).searchParams
	const filters = readCommunityFilters(params)
	const tab = COMMUNITY_TABS.find((value) => value === params.get('tab')) ?? 'members'
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
function pageUrl(request: Request, changes: { tab?: CommunityTab } = {}) {
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

const statIcons = ['users', 'chat', 'home', 'calendar'] as const

export default function Community({ loaderData, actionData }: Route.ComponentProps) {
	const { filters, tab, dialog, profile, members, discussions, events } = loaderData
	const hrefWith = useHrefWith()
	const closeDialog = hrefWith({ dialog: null, member: null })
	const activeFilterCount = [filters.location, filters.specialty, filters.experience].filter(Boolean).length

	return (
		<>
			{dialog === 'filters' ? <FiltersDialog filters={filters} tab={tab} closeTo={closeDialog} hrefWith={hrefWith} /> : null}
			{dialog === 'discuss' ? <DiscussionDialog closeTo={closeDialog} lastResult={actionData?.result} /> : null}
			{dialog === 'profile' && profile ? <ProfileDialog member={profile} closeTo={closeDialog} /> : null}
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
					<ActionList className="flex gap-2" itemClassName="flex-1">
						<ButtonLink
							to={hrefWith({ dialog: 'filters', member: null })}
							preventScrollReset
							variant="outline"
							className="whitespace-nowrap"
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
						<ButtonLink to={hrefWith({ dialog: 'discuss', member: null })} preventScrollReset className="whitespace-nowrap">
							<Icon name="plus" className="size-4" />
							Start Discussion
						</ButtonLink>
					</ActionList>
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

			<CommunityTestimonials />
			<JoinCommunity />
		</>
	)
}

/** The same sample community for every visitor: shared from the page cache. */
export const handle = SHARED_PAGE_OF_CODE

export const meta: Route.MetaFunction = () =>
	pageMeta(
		'Investor Community',
		'Meet fellow real estate investors: browse members by location, specialty and experience, join discussions and attend events.',
	)
