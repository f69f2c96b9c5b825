import { parseWithZod } from '@conform-to/zod/v4'
import { lazy } from 'react'
import { data, useSearchParams } from 'react-router'
import { z } from 'zod'
import { Icon, type IconName } from '#app/components/marketing/icons.tsx'
import { pageMeta } from '#app/components/marketing/meta.ts'
import { LimitedTimeOfferCard } from '#app/components/marketing/offer-card.tsx'
import { OnDarkButtonLink } from '#app/components/marketing/on-dark-button-link.tsx'
import { SectionHeading } from '#app/components/marketing/page-hero.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { recordAudit } from '#app/models/audit-log.server.ts'
import {
	getLimitedTimeOffer,
	LIMITED_TIME_OFFER_KEY,
	removeLimitedTimeOffer,
	saveLimitedTimeOffer,
} from '#app/models/site-settings.server.ts'
import { LimitedTimeOfferSchema } from '#app/models/site-settings.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { invalidatePagesShowingData } from '#app/utils/page-cache.server.ts'
import { STATIC_FOR_VISITORS, useOptionalUser } from '#app/utils/root-data.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/home'

/** The offer editor's form: the bullet items come as one textarea, one item per line. */
const OfferFormSchema = LimitedTimeOfferSchema.extend({
	intent: z.literal('save-offer'),
	items: z
		.string({ error: 'Add at least one item' })
		.transform((text) =>
			text
				.split(/\r?\n/)
				.map((line) => line.trim())
				.filter(Boolean),
		)
		.pipe(LimitedTimeOfferSchema.shape.items),
})

export async function loader() {
	return { offer: await getLimitedTimeOffer(getDb()) }
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const formData = await readFormData(request)
	const db = getDb()
	if (formData.get('intent') === 'remove-offer') {
		await db.transaction().execute(async (trx) => {
			await removeLimitedTimeOffer(trx, admin.id)
			await recordAudit(trx, { actorId: admin.id, action: 'offer.remove', entity: 'site_setting', entityId: LIMITED_TIME_OFFER_KEY })
		})
		invalidatePagesShowingData()
		return redirectWithToast('/', { type: 'success', title: 'Limited time offer removed' })
	}
	const submission = parseWithZod(formData, { schema: OfferFormSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	await db.transaction().execute(async (trx) => {
		// The model validates again and keeps only the offer's own fields (not the intent).
		const saved = await saveLimitedTimeOffer(trx, submission.value, admin.id)
		await recordAudit(trx, {
			actorId: admin.id,
			action: 'offer.save',
			entity: 'site_setting',
			entityId: LIMITED_TIME_OFFER_KEY,
			details: saved,
		})
	})
	// The database announces the change to every process (site.changed); this one need not wait for it.
	invalidatePagesShowingData()
	return redirectWithToast('/', { type: 'success', title: 'Limited time offer saved' })
}

/**
 * Admin-only form code stays out of the bundle every visitor downloads. There is no Suspense
 * boundary around it on purpose: the server waits for it and sends it in place (React moves a
 * large boundary's content to the end of the document and reveals it with a script, which a
 * browser without JavaScript never runs), and an admin's page hydrates once it has loaded.
 */
const OfferAdminArea = lazy(() => import('#app/components/admin/offer-editor.tsx'))

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

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
	const { offer } = loaderData
	const isAdmin = useOptionalUser()?.isAdmin ?? false
	const [searchParams] = useSearchParams()
	const editingOffer = isAdmin && searchParams.get('edit-offer') === '1'
	// Admins keep the offer column even when the offer is removed, to add it back.
	const showOfferColumn = Boolean(offer) || isAdmin
	return (
		<>
			<section className="relative overflow-hidden bg-brand-900 text-white">
				<div
					aria-hidden="true"
					className="absolute inset-0 bg-[radial-gradient(circle_at_85%_0%,rgba(251,191,36,0.1),transparent_35%),radial-gradient(circle_at_0%_100%,rgba(47,143,107,0.5),transparent_55%)]"
				/>
				<div
					className={
						showOfferColumn
							? 'relative mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:py-24 lg:grid-cols-[1.15fr_1fr]'
							: 'relative mx-auto max-w-6xl px-4 py-16 sm:py-24'
					}
				>
					<div className={showOfferColumn ? undefined : 'max-w-3xl'}>
						<p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-brand-50 ring-1 ring-white/20">
							<Icon name="home" className="size-4 text-amber-300" />
							Small-group online mentorship for new investors
						</p>
						<h1 className="mt-6 text-4xl font-bold tracking-tight text-balance sm:text-6xl">Building Wealth With Real Estate</h1>
						<p className="mt-6 max-w-xl text-lg text-brand-100">
							Learn to buy, rehab, rent and refinance your first investment property with an experienced investor guiding you every week: 8
							weeks, live and online, in a group small enough to ask every question.
						</p>
						<div className="mt-8 flex flex-col gap-3 sm:flex-row">
							<ButtonLink to="/register" variant="secondary" size="lg">
								Get Started
								<Icon name="arrowRight" className="size-4" />
							</ButtonLink>
							<OnDarkButtonLink to="/contact">
								<Icon name="mail" className="size-4" />
								Email Us
							</OnDarkButtonLink>
						</div>
						<dl className="mt-10 grid max-w-md grid-cols-3 gap-4 border-t border-white/15 pt-6">
							<div>
								<dt className="text-xs text-brand-100">Weekly sessions</dt>
								<dd className="text-2xl font-bold">8</dd>
							</div>
							<div>
								<dt className="text-xs text-brand-100">Group size</dt>
								<dd className="text-2xl font-bold">≤ 10</dd>
							</div>
							<div>
								<dt className="text-xs text-brand-100">Format</dt>
								<dd className="text-2xl font-bold">Online</dd>
							</div>
						</dl>
					</div>
					{isAdmin ? (
						<OfferAdminArea offer={offer} editing={editingOffer} lastResult={actionData?.result} />
					) : offer ? (
						<LimitedTimeOfferCard offer={offer} />
					) : null}
				</div>
			</section>

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
						<div className="mt-8 flex flex-col gap-3 sm:flex-row">
							<ButtonLink to="/register" size="lg">
								Get Started
							</ButtonLink>
							<ButtonLink to="/courses" variant="outline" size="lg">
								View Programs
							</ButtonLink>
						</div>
					</div>
				</article>
			</section>

			<section aria-labelledby="cta-title" className="px-4 pb-16 sm:pb-24">
				<div className="relative mx-auto max-w-6xl overflow-hidden rounded-3xl bg-brand-800 px-6 py-14 text-center text-white shadow-xl sm:px-12">
					<div
						aria-hidden="true"
						className="absolute inset-0 bg-[radial-gradient(circle_at_50%_0%,rgba(47,143,107,0.6),transparent_60%)]"
					/>
					<div className="relative">
						<h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
							Ready to Start Your Real Estate Journey?
						</h2>
						<p className="mx-auto mt-4 max-w-2xl text-lg text-brand-100">
							Join the next cohort and close your first deal with a mentor in your corner. Questions first? We answer every e-mail.
						</p>
						<div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
							<ButtonLink to="/register" variant="secondary" size="lg">
								Get Started
							</ButtonLink>
							<OnDarkButtonLink to="/contact">Email Us</OnDarkButtonLink>
						</div>
					</div>
				</div>
			</section>
		</>
	)
}

export const handle = STATIC_FOR_VISITORS

export const meta: Route.MetaFunction = () =>
	pageMeta(
		'Building Wealth With Real Estate',
		'An 8-week, small-group online mentorship that teaches first-time investors to buy, rehab, rent and refinance real estate.',
	)
