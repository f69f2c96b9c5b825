import { data, type ShouldRevalidateFunctionArgs, useSearchParams } from 'react-router'
import { DashboardHome } from '#app/components/materials/dashboard-home.tsx'
import { listStaffCourses } from '#app/models/courses/course-staff.server.ts'
import { listUnpaidRegistrations } from '#app/models/courses/course-state.server.ts'
import { listStudentProgress } from '#app/models/enrollment/progress.server.ts'
import { progressLine } from '#app/models/enrollment/progress.ts'
import { listStudentAssignments } from '#app/models/materials/assignments.server.ts'
import { getCourseWeeks, listAccessibleCourses } from '#app/models/materials/materials.server.ts'
import { isWeekTabParam, listsAllWeeks } from '#app/models/materials/materials.ts'
import { planNoticesOf } from '#app/models/payments/plan-purchases.server.ts'
import { getNextLiveSession } from '#app/models/sessions/live-sessions.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { useOptionalUser } from '#app/utils/root-data.ts'
import { resolveSelectedCourse } from '#app/utils/selected-course.server.ts'
import type { Route } from './+types/index'

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const db = getDb()
	const courses = await listAccessibleCourses(db, user)
	const { courseId, setCookie } = await resolveSelectedCourse(
		request,
		user.id,
		courses.map((course) => course.id),
		courses.find((course) => course.enrolled)?.id ?? null,
	)
	const readOnly = courses.find((course) => course.id === courseId)?.readOnly ?? false
	const now = new Date()
	const isInstructor = !user.isAdmin && user.role === 'instructor'
	const [weeks, assignments, unpaid, nextSession, progress, planNotices, teaching] = await Promise.all([
		courseId === null
			? null
			: getCourseWeeks(db, courseId, {
					all: listsAllWeeks(new URL(request.url).searchParams),
					liveLinks: !readOnly,
					reader: user,
				}),
		courseId === null || user.isAdmin ? null : listStudentAssignments(db, { reader: user, courseId }),
		listUnpaidRegistrations(db, user.id),
		user.isAdmin ? null : getNextLiveSession(db, user),
		user.isAdmin ? null : listStudentProgress(db, user.id, now),
		planNoticesOf(db, user.id),
		isInstructor ? listStaffCourses(db, user.id) : null,
	])
	return data(
		{
			name: user.name,
			isAdmin: user.isAdmin,
			teaching: teaching?.map(({ id, title }) => ({ id, title })) ?? null,
			courses: courses.map(({ id, title }) => ({ id, title })),
			selectedCourseId: courseId,
			readOnly,
			weeks,
			assignments,
			unpaid,
			planNotices,
			nextSession,
			progress: progress?.map((course) => ({
				courseId: course.courseId,
				title: course.title,
				line: progressLine(course, now, user.timeZone ?? null),
			})),
		},
		{ headers: setCookie ? { 'Set-Cookie': setCookie } : undefined },
	)
}

/** The loader's answer does not depend on which week tab is open: switching tabs loads nothing. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
	const withoutTabs = (url: URL) => {
		const params = new URLSearchParams(url.search)
		for (const key of [...params.keys()]) if (isWeekTabParam(key)) params.delete(key)
		return `${url.pathname}?${params}`
	}
	const onlyTabsChanged = !formMethod && currentUrl.href !== nextUrl.href && withoutTabs(currentUrl) === withoutTabs(nextUrl)
	return onlyTabsChanged ? false : defaultShouldRevalidate
}

export default function DashboardPage({ loaderData }: Route.ComponentProps) {
	const [searchParams] = useSearchParams()
	const signedIn = Boolean(useOptionalUser())
	return <DashboardHome data={loaderData} searchParams={searchParams} signedIn={signedIn} />
}

export const meta: Route.MetaFunction = () => pageTitle('Dashboard')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
