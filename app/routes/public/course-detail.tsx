import { data, isRouteErrorResponse, Link, useRouteError, useSearchParams } from 'react-router'
import { AvailabilityBadge, CoursePrice, SpotsLeft } from '#app/components/course-availability.tsx'
import { CourseStatePanel } from '#app/components/course-state.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { LazyPurchaseForm } from '#app/components/lazy-purchase-form.tsx'
import { LazyWaitlistDialog } from '#app/components/lazy-waitlist-dialog.tsx'
import { LiveSeatCounts } from '#app/components/live-seat-counts.tsx'
import { PlanPaymentList } from '#app/components/payment-plan-choice.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { courseStateFor } from '#app/models/courses/course-state.server.ts'
import type { CourseState } from '#app/models/courses/course-state.ts'
import { canBuySeat, openCheckoutUntil } from '#app/models/courses/course-state.ts'
import { getCourseWithAvailability } from '#app/models/courses/courses.server.ts'
import { agreementForCourse } from '#app/models/enrollment/agreement.server.ts'
import { planOfferForBuyer } from '#app/models/payments/plan-purchases.server.ts'
import { type PlanOfferView, planSummary } from '#app/models/payments/plan-purchases.ts'
import { getUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { SHARED_PAGE_SHOWING_DATA, useOptionalUser } from '#app/utils/root-data.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import type { Route } from './+types/course-detail'

export async function loader({ request, params }: Route.LoaderArgs) {
	const id = parseRowId(params.id)
	const db = getDb()
	// A visitor's page is shared (decision 006); only a signed-in person has a standing with the course.
	const user = await getUser(request)
	// A draft is the admin's to review before it is published (docs/decisions/045): anyone else finds nothing.
	const course = id !== null ? await getCourseWithAvailability(db, id, { drafts: user?.isAdmin === true }) : null
	if (!course) throw data('Course Not Found', { status: 404 })
	const state: CourseState = user ? await courseStateFor(db, user.id, course.id) : { kind: 'none' }
	// The payment plan on offer today, shown with the price before anything is paid (docs/decisions/059).
	const plan = course.registrationFee > 0 ? await planOfferForBuyer(db, course.id) : null
	// The agreement a signed-in buyer reads in the purchase dialog, as it is in force now (docs/decisions/043).
	const agreement = user ? await agreementForCourse(db, course.id, { plan }) : null
	return { course, state, agreement, plan }
}

export default function CourseDetailPage({ loaderData }: Route.ComponentProps) {
	const { course, state, agreement, plan } = loaderData
	const user = useOptionalUser()
	const [searchParams] = useSearchParams()
	const coursePath = `/courses/${course.id}`
	const ctaLabel = course.isFull ? 'Join Waitlist' : 'Secure Your Spot Now'
	// The waitlist is open to visitors too; buying a spot needs an account.
	const ctaTarget = course.isFull ? `${coursePath}?dialog=waitlist` : !user ? `${coursePath}?dialog=auth` : `${coursePath}?dialog=purchase`
	const dialog = searchParams.get('dialog')
	const showAuthDialog = !user && (dialog === 'auth' || dialog === 'purchase')
	const checkoutOpenUntil = openCheckoutUntil(state)
	// A full course is full for everyone but the buyer whose open checkout holds one of its seats.
	const showPurchaseDialog = user && agreement && (!course.isFull || checkoutOpenUntil) && dialog === 'purchase' && canBuySeat(state)
	// Someone enrolled, paying or waiting is shown where they stand instead of being sold the seat again.
	const showCta = state.kind === 'none' || (state.kind === 'waitlisted' && !course.isFull)

	return (
		<div className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
			{showAuthDialog ? (
				<RouteDialog
					title="Authentication Required"
					description="Please register or log in to secure your spot"
					closeTo={coursePath}
					size="sm"
				>
					<div className="flex flex-col gap-3 sm:flex-row">
						<ButtonLink to="/register" className="flex-1">
							Register
						</ButtonLink>
						<ButtonLink to={`/login?redirectTo=${encodeURIComponent(coursePath)}`} variant="outline" className="flex-1">
							Log in
						</ButtonLink>
					</div>
				</RouteDialog>
			) : null}
			{showPurchaseDialog ? (
				<RouteDialog title="Secure Your Spot" closeTo={coursePath} size="lg">
					<LazyPurchaseForm
						course={{ id: course.id, title: course.title, registrationFee: course.registrationFee }}
						agreement={agreement}
						plan={plan}
						cancelTo={coursePath}
						checkoutOpenUntil={checkoutOpenUntil}
					/>
				</RouteDialog>
			) : null}
			{dialog === 'waitlist' ? (
				<LazyWaitlistDialog course={{ id: course.id, title: course.title }} closeTo={coursePath} returnTo={coursePath} />
			) : null}
			<LiveSeatCounts />
			<Link to="/courses" className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
				<span aria-hidden="true">←</span> All programs
			</Link>
			<div className="mt-4 grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
				<article className="space-y-8">
					<header className="space-y-3">
						<div className="flex flex-wrap items-center gap-3">
							<h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">{course.title}</h1>
							<AvailabilityBadge availability={course} />
						</div>
						{course.published ? null : (
							<Alert tone="warning" title="Draft">
								Only admins see this course until it is published from Manage Courses.
							</Alert>
						)}
					</header>
					<img
						src="/images/course-mentorship.svg"
						alt="Illustration of a rental house beside a rising value chart"
						width={800}
						height={450}
						className="aspect-video w-full rounded-2xl border border-slate-200 object-cover"
					/>
					<section aria-labelledby="overview-heading">
						<h2 id="overview-heading" className="text-2xl font-semibold text-ink">
							Overview
						</h2>
						<p className="mt-3 whitespace-pre-line text-slate-700">{course.description}</p>
					</section>
					<section aria-labelledby="learn-heading">
						<h2 id="learn-heading" className="text-2xl font-semibold text-ink">
							What You'll Learn
						</h2>
						<ul className="mt-4 grid gap-3 sm:grid-cols-2">
							{course.outcomes.map((topic) => (
								<li key={topic} className="flex gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
									<span aria-hidden="true" className="font-bold text-brand-700">
										✓
									</span>
									<span>{topic}</span>
								</li>
							))}
						</ul>
					</section>
					<section aria-labelledby="structure-heading">
						<h2 id="structure-heading" className="text-2xl font-semibold text-ink">
							Program Structure
						</h2>
						<dl className="mt-4 grid gap-4 sm:grid-cols-3">
							<StructureItem term="Duration" value={course.duration} />
							<StructureItem term="Sessions" value={course.schedule ?? 'Weekly one-hour online sessions'} />
							<StructureItem
								term="Group size"
								value={`Maximum ${course.capacity} ${course.capacity === 1 ? 'participant' : 'participants'}`}
							/>
						</dl>
					</section>
				</article>

				<section aria-labelledby="enroll-heading" className="lg:sticky lg:top-24">
					<div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
						<h2 id="enroll-heading" className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
							Program fee
						</h2>
						<p className="mt-1">
							<CoursePrice cents={course.registrationFee} className="text-3xl" />
						</p>
						{plan ? <PlanOffer plan={plan} /> : null}
						<dl className="mt-5 space-y-3 text-sm">
							<div className="flex justify-between gap-4">
								<dt className="text-slate-600">Start date</dt>
								<dd className="font-medium text-ink">{formatDateOnly(course.startDate, 'To be announced')}</dd>
							</div>
							<div className="flex justify-between gap-4">
								<dt className="text-slate-600">Location</dt>
								<dd className="font-medium text-ink">Online (Zoom)</dd>
							</div>
							<div className="flex justify-between gap-4">
								<dt className="text-slate-600">Spots left</dt>
								<dd>
									<SpotsLeft availability={course} />
								</dd>
							</div>
						</dl>
						<CourseStatePanel state={state} course={{ id: course.id, isFull: course.isFull, path: coursePath }} />
						{showCta ? (
							<ButtonLink
								to={ctaTarget}
								preventScrollReset
								size="lg"
								variant={course.isFull ? 'secondary' : 'primary'}
								className="mt-6 w-full"
							>
								{ctaLabel}
							</ButtonLink>
						) : null}
					</div>
				</section>
			</div>
		</div>
	)
}

function StructureItem({ term, value }: { term: string; value: string }) {
	return (
		<div className="rounded-lg border border-slate-200 bg-white p-4">
			<dt className="text-sm text-slate-600">{term}</dt>
			<dd className="mt-1 font-semibold text-ink">{value}</dd>
		</div>
	)
}

/** A visitor's copy is shared (docs/decisions/006); a signed-in person's is their own. */
export const handle = SHARED_PAGE_SHOWING_DATA

/** The payment plan beside the fee: one line, and every payment behind a disclosure that works without JavaScript. */
function PlanOffer({ plan }: { plan: PlanOfferView }) {
	return (
		<details className="mt-2 text-sm text-slate-700">
			<summary className="cursor-pointer">{planSummary(plan)}</summary>
			<div className="mt-2">
				<PlanPaymentList payments={plan.payments} />
			</div>
		</details>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
	const course = loaderData?.course
	if (!course) {
		return [...pageTitle('Course Not Found'), { name: 'description', content: 'This course does not exist. Browse our programs instead.' }]
	}
	const summary = course.description.trim().slice(0, 155) || `${course.title}: an online real estate mentorship program.`
	return [...pageTitle(course.title), { name: 'description', content: summary }]
}

export function ErrorBoundary() {
	const error = useRouteError()
	if (isRouteErrorResponse(error) && error.status === 404) {
		return (
			<div className="mx-auto max-w-2xl px-4 py-16">
				<div className="rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
					<h1 className="text-2xl font-bold text-ink">Course Not Found</h1>
					<p className="mt-3 text-slate-700">The course you are looking for does not exist or is no longer offered.</p>
					<ButtonLink to="/courses" className="mt-6">
						View all programs
					</ButtonLink>
				</div>
			</div>
		)
	}
	return (
		<div className="mx-auto max-w-2xl px-4 py-16">
			<GeneralErrorBoundary />
		</div>
	)
}
