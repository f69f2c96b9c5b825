import { parseWithZod } from '@conform-to/zod/v4'
import { lazy } from 'react'
import { data, useSearchParams } from 'react-router'
import { z } from 'zod'
import { FeaturedProgram, ProgramDetails, ProgramTopics } from '#app/components/marketing/home-sections.tsx'
import { Icon } from '#app/components/marketing/icons.tsx'
import { LimitedTimeOfferCard } from '#app/components/marketing/offer-card.tsx'
import { GetStartedOnDark, OnDarkButtonLink } from '#app/components/marketing/on-dark-button-link.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import {
	getLimitedTimeOffer,
	getOfferToEdit,
	LIMITED_TIME_OFFER_KEY,
	removeLimitedTimeOffer,
	saveLimitedTimeOffer,
} from '#app/models/site/site-settings.server.ts'
import { LimitedTimeOfferSchema } from '#app/models/site/site-settings.ts'
import { getUser, requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { invalidatePagesShowingData } from '#app/utils/page-cache.server.ts'
import { pageMeta } from '#app/utils/page-meta.ts'
import { SHARED_PAGE_SHOWING_DATA, STATIC_FOR_VISITORS, useOptionalUser } from '#app/utils/root-data.ts'
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

export async function loader({ request }: Route.LoaderArgs) {
	const db = getDb()
	const offer = await getLimitedTimeOffer(db)
	// Only an admin's editor gets the offer to start from (a removed one is not for visitors' eyes).
	const editing = new URL(request.url).searchParams.get('edit-offer') === '1' && (await getUser(request))?.isAdmin
	return { offer, offerToEdit: editing ? await getOfferToEdit(db) : null }
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

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
	const { offer, offerToEdit } = loaderData
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
						<p className="inline-flex items-center gap-2 rounded-full bg-brand-800 px-3 py-1 text-sm font-medium text-brand-50 ring-1 ring-white/20">
							<Icon name="home" className="size-4 text-amber-300" />
							Small-group online mentorship for new investors
						</p>
						<h1 className="mt-6 text-4xl font-bold tracking-tight text-balance sm:text-6xl">Building Wealth With Real Estate</h1>
						<p className="mt-6 max-w-xl text-lg text-brand-100">
							Learn to buy, rehab, rent and refinance your first investment property with an experienced investor guiding you every week: 8
							weeks, live and online, in a group small enough to ask every question.
						</p>
						<ActionList className="mt-8 flex flex-col gap-3 sm:flex-row">
							<ButtonLink to="/register" variant="secondary" size="lg">
								Get Started
								<Icon name="arrowRight" className="size-4" />
							</ButtonLink>
							<OnDarkButtonLink to="/contact">
								<Icon name="mail" className="size-4" />
								Email Us
							</OnDarkButtonLink>
						</ActionList>
						<dl className="mt-10 grid max-w-md grid-cols-3 gap-4 border-t border-brand-700 pt-6">
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
						<OfferAdminArea offer={offer} offerToEdit={offerToEdit} editing={editingOffer} lastResult={actionData?.result} />
					) : offer ? (
						<LimitedTimeOfferCard offer={offer} />
					) : null}
				</div>
			</section>

			<ProgramTopics />

			<ProgramDetails />

			<FeaturedProgram />

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
						<GetStartedOnDark className="justify-center" />
					</div>
				</div>
			</section>
		</>
	)
}

export const handle = { ...STATIC_FOR_VISITORS, ...SHARED_PAGE_SHOWING_DATA }

export const meta: Route.MetaFunction = () =>
	pageMeta(
		'Building Wealth With Real Estate',
		'An 8-week, small-group online mentorship that teaches first-time investors to buy, rehab, rent and refinance real estate.',
	)
