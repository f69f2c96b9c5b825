import { z } from 'zod'
import { searchText } from '#app/utils/misc.ts'

/**
 * Sample content of the public investor community page (the spec's static
 * page): nothing here is stored, and the marketing figures are fixed.
 */

export const COMMUNITY_LOCATIONS = ['Dallas TX', 'Atlanta GA', 'Chicago IL', 'San Francisco CA', 'Miami FL', 'Denver CO'] as const

export const COMMUNITY_SPECIALTIES = [
	'Fix & Flip',
	'BRRRR Strategy',
	'Rental Properties',
	'Commercial Real Estate',
	'New Construction',
	'Multi-Family Housing',
] as const

export const COMMUNITY_EXPERIENCE_LEVELS = [
	{ value: 'beginner', label: 'Beginner (0-2 years)', short: 'Beginner' },
	{ value: 'intermediate', label: 'Intermediate (3-5 years)', short: 'Intermediate' },
	{ value: 'advanced', label: 'Advanced (5+ years)', short: 'Advanced' },
] as const

export type CommunityLocation = (typeof COMMUNITY_LOCATIONS)[number]
export type CommunitySpecialty = (typeof COMMUNITY_SPECIALTIES)[number]
export type CommunityExperience = (typeof COMMUNITY_EXPERIENCE_LEVELS)[number]['value']

export type CommunityMember = {
	id: string
	name: string
	headline: string
	location: CommunityLocation
	specialty: CommunitySpecialty
	experience: CommunityExperience
	yearsInvesting: number
	dealsClosed: number
	bio: string
}

export type CommunityDiscussion = {
	id: string
	title: string
	excerpt: string
	author: string
	category: string
	replies: number
	views: number
	lastActivity: string
}

export type CommunityEvent = {
	id: string
	title: string
	description: string
	month: string
	day: string
	time: string
	place: string
	attendees: number
}

export const COMMUNITY_MEMBERS: CommunityMember[] = [
	{
		id: 'sarah-johnson',
		name: 'Sarah Johnson',
		headline: 'Buy-and-hold investor with a 14-door portfolio',
		location: 'Atlanta GA',
		specialty: 'BRRRR Strategy',
		experience: 'advanced',
		yearsInvesting: 8,
		dealsClosed: 27,
		bio: 'Sarah refinanced her first duplex in 2017 and has repeated the buy, rehab, rent, refinance cycle every year since. She mentors new members on lender conversations and rehab budgets.',
	},
	{
		id: 'marcus-williams',
		name: 'Marcus Williams',
		headline: 'Flipping starter homes on the east side',
		location: 'Dallas TX',
		specialty: 'Fix & Flip',
		experience: 'intermediate',
		yearsInvesting: 4,
		dealsClosed: 11,
		bio: 'Marcus left a career in construction management to flip houses full time. He shares scopes of work, contractor checklists and before-and-after numbers from every project.',
	},
	{
		id: 'elena-rodriguez',
		name: 'Elena Rodriguez',
		headline: 'First rental closed during the spring cohort',
		location: 'Miami FL',
		specialty: 'Rental Properties',
		experience: 'beginner',
		yearsInvesting: 1,
		dealsClosed: 1,
		bio: 'Elena is a nurse who bought her first single-family rental after completing the mentorship. She is now analysing her second deal and documenting the journey for other beginners.',
	},
	{
		id: 'david-chen',
		name: 'David Chen',
		headline: 'Small-balance commercial and mixed-use',
		location: 'San Francisco CA',
		specialty: 'Commercial Real Estate',
		experience: 'advanced',
		yearsInvesting: 12,
		dealsClosed: 19,
		bio: 'David syndicates small retail and mixed-use buildings. He runs the monthly underwriting clinic and is happy to review rent rolls and operating statements.',
	},
	{
		id: 'aisha-patel',
		name: 'Aisha Patel',
		headline: 'Duplexes and fourplexes near transit',
		location: 'Chicago IL',
		specialty: 'Multi-Family Housing',
		experience: 'intermediate',
		yearsInvesting: 5,
		dealsClosed: 8,
		bio: 'Aisha house-hacked a two-flat and grew into small multi-family. She focuses on tenant screening, property management systems and long-term holds.',
	},
	{
		id: 'james-thompson',
		name: 'James Thompson',
		headline: 'Building infill homes from the ground up',
		location: 'Denver CO',
		specialty: 'New Construction',
		experience: 'advanced',
		yearsInvesting: 9,
		dealsClosed: 15,
		bio: 'James is a licensed general contractor who builds infill homes on small lots. He explains permitting, construction draws and how to estimate build costs.',
	},
	{
		id: 'olivia-martin',
		name: 'Olivia Martin',
		headline: 'Learning deal analysis one property at a time',
		location: 'Atlanta GA',
		specialty: 'Fix & Flip',
		experience: 'beginner',
		yearsInvesting: 1,
		dealsClosed: 0,
		bio: 'Olivia joined the community to find a partner for her first flip. She posts weekly deal analyses and welcomes feedback on her ARV estimates.',
	},
	{
		id: 'robert-davis',
		name: 'Robert Davis',
		headline: 'Turnkey rentals for out-of-state investors',
		location: 'Dallas TX',
		specialty: 'Rental Properties',
		experience: 'intermediate',
		yearsInvesting: 3,
		dealsClosed: 6,
		bio: 'Robert manages his own rentals and helps members evaluate neighbourhoods, rent comparables and property managers in North Texas.',
	},
]

const COMMUNITY_DISCUSSIONS: CommunityDiscussion[] = [
	{
		id: 'first-refinance',
		title: 'What lenders asked for on my first cash-out refinance',
		excerpt: 'Seasoning periods, appraisal surprises and the documents I wish I had ready before calling the bank.',
		author: 'Sarah Johnson',
		category: 'Financing',
		replies: 24,
		views: 412,
		lastActivity: '2 hours ago',
	},
	{
		id: 'arv-comps',
		title: 'How many comps do you use to estimate ARV?',
		excerpt: 'I keep getting different after-repair values depending on the radius I search. How do you pick comparables?',
		author: 'Olivia Martin',
		category: 'Deal Analysis',
		replies: 18,
		views: 305,
		lastActivity: '5 hours ago',
	},
	{
		id: 'contractor-bids',
		title: 'Comparing contractor bids without getting burned',
		excerpt: 'A template for line-item bids, payment schedules tied to milestones, and the red flags I look for.',
		author: 'Marcus Williams',
		category: 'Rehab',
		replies: 31,
		views: 587,
		lastActivity: 'Yesterday',
	},
	{
		id: 'tenant-screening',
		title: 'Tenant screening criteria that hold up',
		excerpt: 'Income ratios, rental history and writing criteria down before the first showing so every applicant is treated the same.',
		author: 'Aisha Patel',
		category: 'Property Management',
		replies: 12,
		views: 198,
		lastActivity: '2 days ago',
	},
]

export const COMMUNITY_EVENTS: CommunityEvent[] = [
	{
		id: 'underwriting-clinic',
		title: 'Monthly Deal Underwriting Clinic',
		description: 'Bring a property you are analysing and work through the numbers live with experienced investors.',
		month: 'Dec',
		day: '4',
		time: '7:00 PM - 8:30 PM ET',
		place: 'Online',
		attendees: 46,
	},
	{
		id: 'atlanta-meetup',
		title: 'Atlanta Investor Meetup',
		description: 'An evening of networking with local investors, lenders and contractors.',
		month: 'Dec',
		day: '11',
		time: '6:30 PM - 9:00 PM ET',
		place: 'Atlanta GA',
		attendees: 78,
	},
	{
		id: 'financing-panel',
		title: 'Financing Your First Rental: Lender Panel',
		description: 'Three lenders explain conventional, DSCR and private money loans, followed by open questions.',
		month: 'Jan',
		day: '8',
		time: '12:00 PM - 1:00 PM ET',
		place: 'Online',
		attendees: 112,
	},
]

export const COMMUNITY_STATS = [
	{ label: 'Community Members', value: '2,500+' },
	{ label: 'Active Discussions', value: '340' },
	{ label: 'Deals Closed by Members', value: '850+' },
	{ label: 'Events Each Month', value: '12' },
] as const

export const COMMUNITY_TESTIMONIALS = [
	{
		quote:
			'I found my lender, my contractor and my first partner through this community. Asking questions here saved me from at least two bad deals.',
		name: 'Elena Rodriguez',
		role: 'Rental property owner, Miami FL',
	},
	{
		quote: 'The underwriting clinics changed how I look at every property. People share real numbers, not just success stories.',
		name: 'Marcus Williams',
		role: 'Fix & flip investor, Dallas TX',
	},
	{
		quote: 'After ten years of investing I still learn something every week. It is the most generous group of investors I know.',
		name: 'David Chen',
		role: 'Commercial investor, San Francisco CA',
	},
] as const

export type CommunityFilters = {
	q: string
	location: CommunityLocation | null
	specialty: CommunitySpecialty | null
	experience: CommunityExperience | null
}

function oneOf<T extends string>(options: readonly T[], value: string | null): T | null {
	return options.find((option) => option === value) ?? null
}

/** Reads the search and filters from the page's query string; unknown values are ignored. */
export function readCommunityFilters(params: URLSearchParams): CommunityFilters {
	return {
		q: searchText(params, { maxLength: 100 }),
		location: oneOf(COMMUNITY_LOCATIONS, params.get('location')),
		specialty: oneOf(COMMUNITY_SPECIALTIES, params.get('specialty')),
		experience: oneOf(
			COMMUNITY_EXPERIENCE_LEVELS.map((level) => level.value),
			params.get('experience'),
		),
	}
}

function matchesQuery(query: string, ...fields: string[]) {
	if (!query) return true
	const needle = query.toLowerCase()
	return fields.some((field) => field.toLowerCase().includes(needle))
}

export function filterMembers(filters: CommunityFilters) {
	return COMMUNITY_MEMBERS.filter(
		(member) =>
			(!filters.location || member.location === filters.location) &&
			(!filters.specialty || member.specialty === filters.specialty) &&
			(!filters.experience || member.experience === filters.experience) &&
			matchesQuery(filters.q, member.name, member.headline, member.location, member.specialty, member.bio),
	)
}

export function filterDiscussions(query: string) {
	return COMMUNITY_DISCUSSIONS.filter((discussion) =>
		matchesQuery(query, discussion.title, discussion.excerpt, discussion.author, discussion.category),
	)
}

export function filterEvents(query: string) {
	return COMMUNITY_EVENTS.filter((event) => matchesQuery(query, event.title, event.description, event.place))
}

export function experienceLabel(value: CommunityExperience) {
	return COMMUNITY_EXPERIENCE_LEVELS.find((level) => level.value === value)?.label ?? value
}

export const COMMUNITY_TABS = ['members', 'discussions', 'events'] as const
export type CommunityTab = (typeof COMMUNITY_TABS)[number]

const FILL_IN_ALL_FIELDS = 'Please fill in all fields'

/** Title and content are both required; the spec asks for one message for either. */
export const DiscussionSchema = z
	.object({
		intent: z.literal('discuss'),
		title: z.string().trim().max(200, 'Title must be at most 200 characters').optional(),
		content: z.string().trim().max(5000, 'Content must be at most 5,000 characters').optional(),
		notifyReplies: z.boolean().optional(),
	})
	.refine((value) => Boolean(value.title && value.content), { message: FILL_IN_ALL_FIELDS })

/** The community page's forms: start a discussion, connect with a member, register for an event. */
export const CommunityActionSchema = z.discriminatedUnion('intent', [
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
