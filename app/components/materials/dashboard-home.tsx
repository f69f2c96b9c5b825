import { href, Link } from 'react-router'
import { StudentAssignments } from '#app/components/grading/student-assignments.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { UnpaidRegistration } from '#app/models/courses/course-state.ts'
import type { StudentAssignment } from '#app/models/materials/assignments.ts'
import type { CourseWeekList } from '#app/models/materials/materials.ts'
import type { PlanNotice } from '#app/models/payments/plan-purchases.ts'
import type { NextLiveSession } from '#app/models/sessions/live-sessions.ts'
import { formatMoney } from '#app/utils/money.ts'
import { type CourseProgressLine, ProgressLines } from '../progress/progress-lines.tsx'
import { NextSessionCard } from '../sessions/next-session-card.tsx'
import { CourseSelector, type SelectableCourse } from './course-selector.tsx'
import { WeeklyMaterials } from './weekly-materials.tsx'

export type DashboardHomeData = {
	name: string
	isAdmin: boolean
	courses: SelectableCourse[]
	selectedCourseId: number | null
	/** The selected course is one the student completed: its materials stay, live classes and hand-ins do not. */
	readOnly?: boolean
	/** Null when no course is selected. */
	weeks: CourseWeekList | null
	/** The selected course's assignments with the student's status; absent or null when there is nothing to show. */
	assignments?: StudentAssignment[] | null
	/** Courses whose checkout was left unpaid (a cancelled payment), offered to finish. */
	unpaid?: UnpaidRegistration[]
	/** A student's next live session across their courses. */
	nextSession?: NextLiveSession | null
	/** A student's line per course: 'Week 3 of 8 · 2 of 3 classes attended · 1 assignment due Fri'. */
	progress?: CourseProgressLine[]
	/** Payment plans past due or paused, each with why and how to fix it (docs/decisions/059). */
	planNotices?: PlanNotice[]
	/** An instructor's courses (docs/decisions/056), null for anyone else. */
	teaching?: TaughtCourse[] | null
}

type TaughtCourse = { id: number; title: string }

const adminCards = [
	{
		to: href('/dashboard/admin/courses'),
		title: 'Manage Courses',
		description: 'Create, edit and remove courses and see their enrollment.',
	},
	{
		to: href('/dashboard/admin/uploads'),
		title: 'Upload Materials',
		description: 'Add weekly class materials, recordings and Zoom links.',
	},
	{
		to: href('/dashboard/admin/enrollments'),
		title: 'Manage Enrollments',
		description: 'Enroll students, change their status or remove them.',
	},
	{ to: href('/dashboard/admin/users'), title: 'Manage Users', description: 'Search and manage student accounts.' },
	{
		to: href('/dashboard/admin/messages'),
		title: 'Send Messages',
		description: 'Broadcast announcements and message students directly.',
	},
]

/**
 * The dashboard's home: welcome, the admin cards, the course selector with the weekly
 * materials (or the not-enrolled state) and the Messages panel. The material viewer renders
 * it too, behind its dialog.
 */
export function DashboardHome({
	data,
	searchParams,
	signedIn,
}: {
	data: DashboardHomeData
	searchParams: URLSearchParams
	signedIn: boolean
}) {
	const refreshTo = `/dashboard${searchParams.size > 0 ? `?${searchParams}` : ''}`
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">
				Welcome, {data.name || 'Student'}!{data.isAdmin ? ' (Administrator)' : data.teaching ? ' (Instructor)' : ''}
			</h1>
			{data.teaching ? <TeachingCard courses={data.teaching} /> : null}
			{data.isAdmin ? (
				<ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
					{adminCards.map((card) => (
						<li key={card.to}>
							<Link to={card.to} className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-brand-500">
								<h2 className="font-semibold text-ink">{card.title}</h2>
								<p className="mt-1 text-sm text-slate-600">{card.description}</p>
							</Link>
						</li>
					))}
				</ul>
			) : null}
			{data.planNotices?.map((notice) => (
				<PlanNoticeBanner key={notice.planId} notice={notice} />
			))}
			{data.nextSession ? <NextSessionCard session={data.nextSession} /> : null}
			{data.progress?.length ? <ProgressLines courses={data.progress} /> : null}
			{data.unpaid?.length ? (
				<Card>
					<CardHeader>
						<CardTitle>Complete your registration</CardTitle>
						<CardDescription>Your payment was not completed, so you are not enrolled in these courses yet.</CardDescription>
					</CardHeader>
					<CardContent>
						<ul className="space-y-3">
							{data.unpaid.map((registration) => (
								<li key={registration.courseId} className="flex flex-wrap items-center justify-between gap-3">
									<span className="font-medium break-words text-ink">{registration.courseTitle}</span>
									<ButtonLink to={`/courses/${registration.courseId}`} size="sm">
										Complete Payment<span className="sr-only"> for {registration.courseTitle}</span>
									</ButtonLink>
								</li>
							))}
						</ul>
					</CardContent>
				</Card>
			) : null}
			{data.courses.length === 0 && (data.planNotices?.length || data.teaching) ? null : data.courses.length === 0 ? (
				<Card>
					<CardHeader>
						<CardTitle>You have not yet enrolled</CardTitle>
						<CardDescription>Hold tight! Browse our available courses to get started.</CardDescription>
					</CardHeader>
					<CardContent>
						<ButtonLink to="/courses">Browse Courses</ButtonLink>
					</CardContent>
				</Card>
			) : (
				<Card>
					<CardHeader className="flex flex-wrap items-center justify-between gap-3 space-y-0">
						<CardTitle>Course Materials</CardTitle>
						<ButtonLink to={refreshTo} variant="outline" size="sm" preventScrollReset>
							Refresh Materials
						</ButtonLink>
					</CardHeader>
					<CardContent className="space-y-5">
						<CourseSelector courses={data.courses} selectedId={data.selectedCourseId} />
						{data.readOnly ? (
							<Alert tone="info" title="You have completed this course">
								Its materials and recordings stay available to you. Live class links and assignment hand-ins are closed.
							</Alert>
						) : null}
						<WeeklyMaterials list={data.weeks} searchParams={searchParams} signedIn={signedIn} readOnly={data.readOnly} />
					</CardContent>
				</Card>
			)}
			{data.assignments ? <StudentAssignments assignments={data.assignments} /> : null}
			<Card>
				<CardHeader>
					<CardTitle>Messages</CardTitle>
					<CardDescription>
						{data.teaching ? 'Message the students of your courses.' : 'Have questions? Message your instructor directly.'}
					</CardDescription>
				</CardHeader>
				<CardContent>
					<ButtonLink to={href('/dashboard/messages')}>Open Messages</ButtonLink>
				</CardContent>
			</Card>
		</>
	)
}

/** An instructor's way into each course they teach: its materials and sessions, its students' progress, its waitlist. */
function TeachingCard({ courses }: { courses: TaughtCourse[] }) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>Courses You Teach</CardTitle>
				<CardDescription>
					{courses.length === 0
						? 'No course is assigned to you yet. The school adds you to its courses.'
						: 'Upload materials, schedule sessions, take attendance and follow your students.'}
				</CardDescription>
			</CardHeader>
			{courses.length === 0 ? null : (
				<CardContent>
					<ul className="divide-y divide-slate-200">
						{courses.map((course) => {
							const courseId = String(course.id)
							return (
								<li key={course.id} className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
									<span className="font-medium break-words text-ink">{course.title}</span>
									<ActionList className="flex flex-wrap gap-2">
										<ButtonLink to={href('/dashboard/admin/courses/:courseId/materials', { courseId })} size="sm">
											Manage Materials<span className="sr-only"> of {course.title}</span>
										</ButtonLink>
										<ButtonLink to={href('/dashboard/admin/courses/:courseId/progress', { courseId })} size="sm" variant="outline">
											Progress<span className="sr-only"> of {course.title}</span>
										</ButtonLink>
										<ButtonLink to={href('/dashboard/admin/courses/:courseId/waitlist', { courseId })} size="sm" variant="outline">
											Waitlist<span className="sr-only"> of {course.title}</span>
										</ButtonLink>
									</ActionList>
								</li>
							)
						})}
					</ul>
				</CardContent>
			)}
		</Card>
	)
}

/** Why a plan's course is (or is about to be) paused, and the way to fix it: pay what failed. */
function PlanNoticeBanner({ notice }: { notice: PlanNotice }) {
	const amount = formatMoney(notice.overdueCents)
	const pay = (
		<ButtonLink to={`/dashboard/plans/${notice.planId}/pay`} size="sm" className="mt-3">
			Update card and pay<span className="sr-only"> for {notice.courseTitle}</span>
		</ButtonLink>
	)
	if (notice.status === 'paused') {
		return (
			<Alert tone="error" title={`Access to ${notice.courseTitle} is paused`}>
				<p>
					{notice.pauseReason === 'admin'
						? 'The school paused your access to this course. Please contact the school.'
						: `A payment of your plan (${amount}) failed and is overdue, so the course's materials, recordings and live sessions are paused. Pay it and your access comes back at once.`}
				</p>
				{notice.pauseReason === 'admin' ? null : pay}
			</Alert>
		)
	}
	return (
		<Alert tone="warning" title={`A payment for ${notice.courseTitle} failed`}>
			<p>
				We could not charge {amount} to your card. Please update it and pay before <LocalDate value={notice.pausesOn} />: after that, access
				to the course pauses until the payment is made.
			</p>
			{pay}
		</Alert>
	)
}
