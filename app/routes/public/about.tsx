import { Icon } from '#app/components/marketing/icons.tsx'
import { PageHero, SectionHeading } from '#app/components/marketing/page-hero.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { pageMeta } from '#app/utils/page-meta.ts'
import { SHARED_PAGE_OF_CODE, STATIC_FOR_VISITORS } from '#app/utils/root-data.ts'
import type { Route } from './+types/about'

const values = [
	{
		icon: 'target',
		title: 'Practical over theoretical',
		description:
			'Every lesson ends with something you can use this week: a spreadsheet, a script for a call, a checklist for a walkthrough.',
	},
	{
		icon: 'users',
		title: 'Small groups, real attention',
		description: 'Cohorts are capped at 10 investors so that every student gets their own deals reviewed and their own questions answered.',
	},
	{
		icon: 'trendingUp',
		title: 'Wealth that lasts',
		description: 'We teach long-term, cash-flowing ownership: buy well, renovate with care, rent responsibly and refinance to grow.',
	},
] as const satisfies ReadonlyArray<{ icon: string; title: string; description: string }>

export default function About() {
	return (
		<>
			<PageHero
				eyebrow="About us"
				title="Helping first-time investors build lasting wealth"
				description="We are a small team of working real-estate investors who teach the method we use ourselves, one small group at a time."
			/>

			<section aria-labelledby="mission-title" className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
				<div className="grid items-center gap-12 lg:grid-cols-2">
					<div>
						<SectionHeading id="mission-title" align="left" eyebrow="Our mission" title="Real estate investing, made approachable" />
						<div className="mt-6 space-y-4 text-lg leading-relaxed text-slate-700">
							<p>
								Our mission is to give everyday people the knowledge, confidence and support to buy their first investment property, and to
								keep building from there.
							</p>
							<p>
								Real estate has created more long-term wealth for ordinary families than almost any other investment, yet most people never
								start because the first deal feels too risky and too complicated. We break the process into clear weekly steps and walk
								beside you while you take them.
							</p>
						</div>
					</div>
					<ul className="grid gap-4">
						{values.map((value) => (
							<li key={value.title} className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
								<span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100">
									<Icon name={value.icon} className="size-6" />
								</span>
								<div>
									<h3 className="font-semibold text-ink">{value.title}</h3>
									<p className="mt-1 text-sm leading-relaxed text-slate-600">{value.description}</p>
								</div>
							</li>
						))}
					</ul>
				</div>
			</section>

			<section aria-labelledby="founder-title" className="bg-white">
				<div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:py-20 lg:grid-cols-[20rem_1fr]">
					<img
						src="/images/founder-portrait.svg"
						alt="Illustrated portrait of the founder"
						width={400}
						height={480}
						className="mx-auto w-full max-w-xs rounded-3xl shadow-lg"
					/>
					<div>
						<SectionHeading id="founder-title" align="left" eyebrow="Meet the founder" title="Marcus Reed" />
						<p className="mt-1 text-sm font-medium text-brand-700">Founder and lead mentor, Atlanta, Georgia</p>
						<div className="mt-6 space-y-4 leading-relaxed text-slate-700">
							<p>
								Marcus bought his first property, a tired three-bedroom house outside Atlanta, with savings from a teaching salary and a
								great deal of help from more experienced friends. He renovated it on weekends, rented it to a local family and refinanced a
								year later to buy the next one.
							</p>
							<p>
								Fifteen years and more than forty transactions later, he still remembers how confusing that first deal felt, and he started
								this program to give new investors the guidance he was lucky to have.
							</p>
						</div>
						{/* A <details> toggle: the rest of the biography opens without JavaScript. */}
						<details className="group mt-4">
							<summary className="inline-flex cursor-pointer items-center gap-1 rounded-md font-semibold text-brand-700 hover:underline">
								<span className="group-open:hidden">Read more</span>
								<span className="hidden group-open:inline">Read less</span>
								<Icon name="chevronDown" strokeWidth={2.2} className="size-4 transition-transform group-open:rotate-180" />
							</summary>
							<div className="mt-4 space-y-4 leading-relaxed text-slate-700">
								<p>
									Over the years Marcus has flipped houses, held single-family rentals and small multi-family buildings, and partnered with
									private lenders on larger projects. He has also made the mistakes every investor makes: an underestimated roof, a
									contractor who disappeared, a vacancy that lasted too long. He teaches those lessons as openly as the successes.
								</p>
								<p>
									Before investing full time, Marcus spent ten years as a high-school mathematics teacher, which shows in how he explains
									deal analysis: one step at a time, with real numbers, until it makes sense.
								</p>
								<p>
									Today he leads every cohort personally, keeps each group small, and stays in touch with graduates long after the eight
									weeks end. His favourite part of the job is the message that arrives when a student closes their first deal.
								</p>
							</div>
						</details>
					</div>
				</div>
			</section>

			<section aria-labelledby="about-cta-title" className="mx-auto max-w-6xl px-4 py-16 text-center sm:py-20">
				<h2 id="about-cta-title" className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
					Learn the method with us
				</h2>
				<p className="mx-auto mt-3 max-w-xl text-slate-600">Join the next small-group cohort, or send us your questions first.</p>
				<ActionList className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
					<ButtonLink to="/register" size="lg">
						Get Started
					</ButtonLink>
					<ButtonLink to="/contact" variant="outline" size="lg">
						Contact Us
					</ButtonLink>
				</ActionList>
			</section>
		</>
	)
}

export const handle = { ...STATIC_FOR_VISITORS, ...SHARED_PAGE_OF_CODE }

export const meta: Route.MetaFunction = () =>
	pageMeta(
		'About Us',
		'Our mission is to help first-time investors build lasting wealth through real estate. Meet the founder and learn how we teach.',
	)
