import { Link, useSearchParams } from 'react-router'
import { AvailabilityBadge, CoursePrice, SeatsProgress, SpotsLeft } from '#app/components/course-availability.tsx'
import { LazyWaitlistDialog } from '#app/components/lazy-waitlist-dialog.tsx'
import { LiveSeatCounts } from '#app/components/live-seat-counts.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { listCoursesWithAvailability } from '#app/models/courses/courses.server.ts'
import type { CourseWithAvailability } from '#app/models/courses/courses.ts'
import { getDb } from '#app/utils/db.server.ts'
import type { LiveForVisitorsHandle } from '#app/utils/live-parts.ts'
import { formatDateOnly } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { SHARED_PAGE_SHOWING_DATA, STATIC_FOR_VISITORS } from '#app/utils/root-data.ts'
import type { Route } from './+types/courses'

/**
 * A visitor gets the list without React (docs/decisions/039); a small script keeps its seat
 * counts current. Opening the waitlist dialog (`?dialog=`) brings the scripts.
 */
export const handle = {
	...STATIC_FOR_VISITORS,
	...SHARED_PAGE_SHOWING_DATA,
	liveForVisitors: ['enrollment.changed', 'course.changed'],
} satisfies LiveForVisitorsHandle

export async function loader() {
	return { courses: await listCoursesWithAvailability(getDb()) }
}

export default function CoursesPage({ loaderData }: Route.ComponentProps) {
	const { courses } = loaderData
	const [searchParams] = useSearchParams()
	const hasOpenCourse = courses.some((course) => !course.isFull)
	// A full course's card opens the waitlist of that course; the Coming Soon box the general one.
	const waitlistCourse = courses.find((course) => course.isFull && String(course.id) === searchParams.get('course'))
	return (
		<div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
			<LiveSeatCounts />
			<header className="max-w-2xl">
				<h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">Our Programs</h1>
				<p className="mt-3 text-lg text-slate-700">
					Small-group, online mentorship for first-time real estate investors. Pick a program and secure your spot.
				</p>
			</header>

			{/* The parts a visitor's page without scripts keeps current (root.tsx, utils/live-parts.ts). */}
			<div id="coming-soon" data-live>
				{hasOpenCourse ? null : (
					<section
						aria-labelledby="coming-soon-heading"
						className="mt-8 rounded-2xl border border-brand-200 bg-brand-50 px-6 py-10 text-center"
					>
						<h2 id="coming-soon-heading" className="text-2xl font-bold text-brand-900">
							Coming Soon
						</h2>
						<p className="mx-auto mt-2 max-w-md text-slate-700">
							Our next programs are being scheduled. Join the waitlist and we will let you know as soon as spots open.
						</p>
						<ButtonLink to="/courses?dialog=waitlist" preventScrollReset size="lg" className="mt-6">
							Join the Waitlist
						</ButtonLink>
					</section>
				)}
			</div>
			<div id="course-list" data-live>
				{courses.length > 0 ? (
					<ul id="course-cards" className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
						{courses.map((course) => (
							<li key={course.id} id={`course-${course.id}`}>
								<CourseCard course={course} />
							</li>
						))}
					</ul>
				) : null}
			</div>
			{searchParams.get('dialog') === 'waitlist' ? (
				<LazyWaitlistDialog
					course={waitlistCourse ? { id: waitlistCourse.id, title: waitlistCourse.title } : null}
					closeTo="/courses"
					returnTo="/courses"
				/>
			) : null}
		</div>
	)
}

function CourseCard({ course }: { course: CourseWithAvailability }) {
	return (
		<Card className="flex h-full flex-col p-5 sm:p-6">
			<div className="flex items-start justify-between gap-3">
				<h2 className="text-lg font-semibold text-ink">{course.title}</h2>
				<AvailabilityBadge availability={course} />
			</div>
			{course.description ? <p className="mt-2 line-clamp-3 text-sm text-slate-700">{course.description}</p> : null}
			<dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
				<div>
					<dt className="text-slate-600">Price</dt>
					<dd>
						<CoursePrice cents={course.registrationFee} className="text-base" />
					</dd>
				</div>
				<div>
					<dt className="text-slate-600">Starts</dt>
					<dd className="font-medium text-ink">{formatDateOnly(course.startDate, 'To be announced')}</dd>
				</div>
			</dl>
			<div className="mt-4 space-y-2">
				<SpotsLeft availability={course} />
				<SeatsProgress availability={course} capacity={course.capacity} label={`Seats taken in ${course.title}`} />
			</div>
			<ActionList className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-5">
				{course.isFull ? (
					<Link
						to={`/courses?dialog=waitlist&course=${course.id}`}
						preventScrollReset
						className="font-semibold text-brand-700 underline underline-offset-4"
					>
						Join Waitlist<span className="sr-only"> for {course.title}</span>
					</Link>
				) : null}
				<Link
					to={`/courses/${course.id}`}
					className="inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-4 hover:underline"
				>
					View Details<span className="sr-only"> of {course.title}</span>
					<span aria-hidden="true">→</span>
				</Link>
			</ActionList>
		</Card>
	)
}

export const meta: Route.MetaFunction = () => [
	...pageTitle('Our Programs'),
	{
		name: 'description',
		content: 'Browse our small-group online real estate investing programs, their start dates, prices and open spots.',
	},
]
