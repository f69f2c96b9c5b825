import { data, href } from 'react-router'
import { z } from 'zod'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { WaitlistPlaces } from '#app/components/waitlist/my-places.tsx'
import { listUserEnrollments, listUserWaitlistRequests } from '#app/models/enrollment/enrollments.server.ts'
import { leaveWaitlist, listPlacesOf } from '#app/models/enrollment/waitlist.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId, rowIdSchema } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/courses'

const LeaveSchema = z.object({ intent: z.literal('leave-waitlist'), entryId: rowIdSchema() })

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const db = getDb()
	const [enrollments, places] = await Promise.all([listUserEnrollments(db, user.id), listPlacesOf(db, user.email)])
	// Waitlist requests are only shown to someone with no enrollment at all.
	// Those for a course whose line the user is in show as that place instead.
	const requests = enrollments.length === 0 ? await listUserWaitlistRequests(db, user.email) : []
	const waitlist = requests.filter((request) => !places.some((place) => place.courseTitle === request.program))
	const leaveId = parseRowId(new URL(request.url).searchParams.get('leave'))
	return { enrollments, waitlist, places, leaving: places.find((place) => place.id === leaveId) ?? null }
}

/** Leaving a place in line: only a place with the user's own e-mail address. */
export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	const parsed = LeaveSchema.safeParse(Object.fromEntries(await readFormData(request)))
	if (!parsed.success) throw data('Unknown action', { status: 400 })
	const left = await leaveWaitlist(getDb(), { entryId: parsed.data.entryId, email: user.email })
	return redirectWithToast(
		href('/dashboard/courses'),
		left ? { type: 'success', title: 'You left the waitlist' } : { type: 'error', title: 'You are no longer on that waitlist' },
	)
}

export default function MyCoursesPage({ loaderData }: Route.ComponentProps) {
	const { enrollments, waitlist, places, leaving } = loaderData
	const path = href('/dashboard/courses')
	return (
		<>
			{leaving ? (
				<ConfirmDialog
					title="Leave the waitlist"
					description={`Give up your place in line for ${leaving.courseTitle}?${leaving.status === 'offered' ? ' The seat held for you goes to the next person.' : ''}`}
					closeTo={path}
					fields={{ intent: 'leave-waitlist', entryId: String(leaving.id) }}
					confirmLabel="Leave Waitlist"
					busyLabel="Leaving..."
				/>
			) : null}
			<h1 className="text-2xl font-bold text-ink">My Courses</h1>
			<WaitlistPlaces places={places} path={path} />
			{enrollments.length > 0 ? (
				<ul className="grid gap-4 md:grid-cols-2">
					{enrollments.map((enrollment) => (
						<li key={enrollment.id}>
							<Card className="flex h-full flex-col">
								<CardHeader>
									<div className="flex items-start justify-between gap-3">
										<CardTitle>{enrollment.courseTitle}</CardTitle>
										<Badge tone={enrollment.status === 'active' ? 'green' : 'yellow'} className="capitalize">
											{enrollment.status}
										</Badge>
									</div>
									<CardDescription>
										Enrolled on <LocalDate value={enrollment.enrollmentDate} />
									</CardDescription>
								</CardHeader>
								<CardContent className="mt-auto">
									<ButtonLink to={`/dashboard?course=${enrollment.courseId}`}>View Materials</ButtonLink>
								</CardContent>
							</Card>
						</li>
					))}
				</ul>
			) : waitlist.length > 0 ? (
				<section aria-labelledby="waitlist-heading" className="space-y-3">
					<h2 id="waitlist-heading" className="text-lg font-semibold text-ink">
						Your Waitlist Requests
					</h2>
					<ul className="space-y-3">
						{waitlist.map((request) => (
							<li key={request.id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
								<div className="flex flex-wrap items-start justify-between gap-2">
									<h3 className="font-semibold text-ink">{request.program}</h3>
									<Badge tone="yellow">Waitlisted</Badge>
								</div>
								<p className="mt-1 text-sm text-slate-600">
									Requested on <LocalDate value={request.createdAt} />
								</p>
								{request.note ? <p className="mt-2 text-sm whitespace-pre-line text-slate-800">{request.note}</p> : null}
							</li>
						))}
					</ul>
					<ButtonLink to="/courses" variant="outline">
						Browse Available Programs
					</ButtonLink>
				</section>
			) : (
				<EmptyState
					title="You are not enrolled in any courses yet"
					description="Explore our programs and secure your spot in the next cohort."
					action={<ButtonLink to="/courses">Browse Available Programs</ButtonLink>}
				/>
			)}
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('My Courses')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
