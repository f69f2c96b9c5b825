import { ActionList } from '#app/components/ui/action-list.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Icon, type IconName } from './icons.tsx'
import { SectionHeading } from './page-hero.tsx'

const topics: Array<{ icon: IconName; title: string; description: string }> = [
	{
		icon: 'building',
		title: 'Business Formation',
		description: 'Set up the right entity, bank accounts and bookkeeping so your investing runs like a real business from day one.',
	},
	{
		icon: 'coins',
		title: 'Raising Capital',
		description: 'Compare conventional, private and hard-money financing and learn how to present a deal to partners and lenders.',
	},
	{
		icon: 'users',
		title: 'Building Your Team',
		description: 'Find and vet the agents, contractors, lenders and property managers who make every deal possible.',
	},
	{
		icon: 'calculator',
		title: 'Deal Analysis & ARV',
		description: 'Estimate the after-repair value, rehab budget and cash flow so you know a good deal before you make an offer.',
	},
	{
		icon: 'handshake',
		title: 'Making the Right Offer',
		description: 'Work backwards from your numbers to an offer that protects your margin, and negotiate it with confidence.',
	},
	{
		icon: 'key',
		title: 'Finding Potential Tenants',
		description: 'Market your rental, screen applicants fairly and consistently, and keep good tenants for the long term.',
	},
]

const programDetails: Array<{ icon: IconName; label: string; value: string }> = [
	{ icon: 'monitor', label: 'Format', value: 'Online' },
	{ icon: 'calendar', label: 'Duration', value: '8 weeks' },
	{ icon: 'clock', label: 'Sessions', value: '1-hour weekly sessions' },
	{ icon: 'tag', label: 'Price', value: '$2,500' },
]

const featuredHighlights = [
	'Live weekly mentoring in a small group of at most 10 investors',
	'Analyse real deals together, from first look to closing',
	'Templates for deal analysis, rehab budgets and tenant screening',
	'Recordings and class materials for every week',
]

/** What the program teaches, topic by topic. */
export function ProgramTopics() {
	return (
		<section aria-labelledby="topics-title" className="mx-auto max-w-6xl px-4 py-16 sm:py-24">
			<SectionHeading
				id="topics-title"
				eyebrow="The curriculum"
				title="What You'll Learn"
				description="Six practical topics that take you from your first question to your first rental, each one taught with real deals."
			/>
			<ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
				{topics.map((topic) => (
					<li
						key={topic.title}
						className="group rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md"
					>
						<span className="flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100 group-hover:bg-brand-700 group-hover:text-white">
							<Icon name={topic.icon} className="size-6" />
						</span>
						<h3 className="mt-5 text-lg font-semibold text-ink">{topic.title}</h3>
						<p className="mt-2 text-sm leading-relaxed text-slate-600">{topic.description}</p>
					</li>
				))}
			</ul>
		</section>
	)
}

/** The program at a glance: length, format, group size. */
export function ProgramDetails() {
	return (
		<section aria-labelledby="details-title" className="bg-white">
			<div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:py-24 lg:grid-cols-2">
				<div>
					<SectionHeading
						id="details-title"
						align="left"
						eyebrow="How it works"
						title="Program Details"
						description="A focused mentorship built around your schedule: one live hour a week, with materials and recordings to review whenever suits you."
					/>
					<dl className="mt-8 grid gap-4 sm:grid-cols-2">
						{programDetails.map((detail) => (
							<div key={detail.label} className="relative rounded-xl bg-slate-50 p-4 pl-18 ring-1 ring-slate-200">
								<dt className="text-sm text-slate-600">
									<span className="absolute top-1/2 left-4 flex size-10 -translate-y-1/2 items-center justify-center rounded-lg bg-brand-700 text-white">
										<Icon name={detail.icon} />
									</span>
									{detail.label}
								</dt>
								<dd className="text-lg font-semibold text-ink">{detail.value}</dd>
							</div>
						))}
					</dl>
				</div>
				<img
					src="/images/hero-homes.svg"
					alt="Illustration of a street of family homes and a small apartment building"
					width={640}
					height={360}
					className="w-full rounded-3xl shadow-lg ring-1 ring-slate-200"
				/>
			</div>
		</section>
	)
}

/** The featured program card. */
export function FeaturedProgram() {
	return (
		<section aria-labelledby="featured-title" className="mx-auto max-w-6xl px-4 py-16 sm:py-24">
			<SectionHeading
				id="featured-title"
				eyebrow="Featured program"
				title="Start with our flagship mentorship"
				description="Everything a first-time investor needs, taught live by people who invest every day."
			/>
			<article className="mx-auto mt-12 grid max-w-4xl overflow-hidden rounded-3xl bg-white shadow-xl ring-1 ring-slate-200 md:grid-cols-[1fr_1.2fr]">
				<div className="flex flex-col justify-between gap-8 bg-gradient-to-br from-brand-700 to-brand-900 p-8 text-white">
					<div>
						<Badge tone="yellow">10 Weeks Duration</Badge>
						<h3 className="mt-4 text-2xl font-bold">Real Estate Investment Mentorship</h3>
						<p className="mt-3 text-brand-100">
							Buy, rehab, rent and refinance: the complete method for building a rental portfolio that pays for itself.
						</p>
					</div>
					<p>
						<span className="text-4xl font-bold">$2,500</span>
						<span className="ml-2 text-sm text-brand-100">one-time registration</span>
					</p>
				</div>
				<div className="p-8">
					<p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">What's included</p>
					<ul className="mt-4 space-y-3">
						{featuredHighlights.map((item) => (
							<li key={item} className="flex items-start gap-3 text-slate-700">
								<Icon name="check" className="mt-0.5 text-brand-600" strokeWidth={2.5} />
								<span>{item}</span>
							</li>
						))}
					</ul>
					<ActionList className="mt-8 flex flex-col gap-3 sm:flex-row">
						<ButtonLink to="/register" size="lg">
							Get Started
						</ButtonLink>
						<ButtonLink to="/courses" variant="outline" size="lg">
							View Programs
						</ButtonLink>
					</ActionList>
				</div>
			</article>
		</section>
	)
}
