import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, href, Outlet, useNavigation } from 'react-router'
import { AdminCourseCard } from '#app/components/admin/course-card.tsx'
import { CourseFields, useCourseForm } from '#app/components/admin/course-form.tsx'
import { ListErrorBoundary } from '#app/components/admin/list-error-boundary.tsx'
import { RawDataTable } from '#app/components/admin/raw-data-table.tsx'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Pagination } from '#app/components/ui/pagination.tsx'
import { listCoursesPage } from '#app/models/courses/courses.server.ts'
import { CourseFormSchema, DEFAULT_CAPACITY, SCHEDULE_DEFAULTS, toCourseInput } from '#app/models/courses/courses.ts'
import { createCourse, listRawCourses } from '#app/models/courses/courses-admin.server.ts'
import { timeZoneNames } from '#app/models/sessions/live-sessions.ts'
import { requireAdmin, requireStaff } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parsePage, withPage } from '#app/utils/pagination.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/courses'

const COURSES_PATH = href('/dashboard/admin/courses')
/** Four rows of the three-column grid (docs/decisions/038). */
export const COURSES_PER_PAGE = 12

/** 'YYYY-MM-DD' of a local date. */
function dateOnly(date: Date) {
	const pad = (value: number) => String(value).padStart(2, '0')
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** The spec's defaults: starts today, ends three months later. */
function defaultDates(now = new Date()) {
	const end = new Date(now)
	end.setMonth(end.getMonth() + 3)
	return { startDate: dateOnly(now), endDate: dateOnly(end) }
}

async function loadRawCourses() {
	try {
		return { rows: await listRawCourses(getDb()), failed: false }
	} catch (error) {
		console.error('[admin] raw courses query failed', error instanceof Error ? error.message : error)
		return { rows: [], failed: true }
	}
}

/**
 * The admin's grid of every course, with the raw data and the Add Course form; an instructor's grid
 * of the courses they teach, with the buttons of the pages they may use (docs/decisions/056).
 */
export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireStaff(request)
	const url = new URL(request.url)
	const page = parsePage(url.searchParams)
	if (!user.isAdmin) {
		const list = await listCoursesPage(getDb(), { page, perPage: COURSES_PER_PAGE, taughtBy: user.id })
		return { ...list, isAdmin: false as const, raw: null, defaults: defaultDates(), timeZones: [] }
	}
	const showRaw = url.searchParams.get('dialog') === 'raw'
	const [list, raw] = await Promise.all([listCoursesPage(getDb(), { page, perPage: COURSES_PER_PAGE }), showRaw ? loadRawCourses() : null])
	return { ...list, isAdmin: true as const, raw, defaults: defaultDates(), timeZones: timeZoneNames() }
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const submission = parseWithZod(await readFormData(request), { schema: CourseFormSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await createCourse(getDb(), admin.id, toCourseInput(submission.value))
	} catch (error) {
		console.error('[admin] course could not be added', error instanceof Error ? error.message : error)
		return redirectWithToast(COURSES_PATH, { type: 'error', title: 'Failed to add course. Please try again.' })
	}
	return redirectWithToast(COURSES_PATH, { type: 'success', title: 'Course added successfully' })
}

export default function ManageCourses({ loaderData, actionData }: Route.ComponentProps) {
	const { courses, page, pageCount, total, isAdmin, raw, defaults, timeZones } = loaderData
	const listPath = withPage(COURSES_PATH, page)
	useLiveRevalidation(['enrollment.changed', 'course.changed'])
	if (!isAdmin) {
		return (
			<>
				<Outlet />
				<div className="space-y-1">
					<h1 className="text-2xl font-bold text-ink">Courses You Teach</h1>
					<p className="text-slate-700">Materials, live sessions, attendance and progress of your courses.</p>
				</div>
				<section aria-labelledby="current-courses-title" className="space-y-4">
					<h2 id="current-courses-title" className="sr-only scroll-mt-24">
						Your courses
					</h2>
					{courses.length === 0 ? (
						<EmptyState title="You are not teaching a course yet. An admin adds you to a course's staff." />
					) : (
						<ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
							{courses.map((course) => (
								<li key={course.id}>
									<AdminCourseCard course={course} page={page} actions="instructor" />
								</li>
							))}
						</ul>
					)}
					<Pagination label="Pages of courses" path={COURSES_PATH} page={page} pageCount={pageCount} anchor="current-courses-title" />
				</section>
			</>
		)
	}
	return (
		<>
			{raw ? (
				<RouteDialog title="Raw Courses Data" description="Every column of every course row." closeTo={listPath} size="xl">
					{raw.failed ? (
						<Alert tone="error">Failed to fetch raw courses data</Alert>
					) : (
						<RawDataTable rows={raw.rows} label="Raw courses data" />
					)}
				</RouteDialog>
			) : null}

			<Outlet />
			<div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
				<h1 className="text-2xl font-bold text-ink">Manage Courses</h1>
				<ActionList className="flex flex-wrap gap-2">
					<ButtonLink to={page > 1 ? `?dialog=raw&page=${page}` : '?dialog=raw'} preventScrollReset variant="outline" size="sm">
						Show Raw Courses Data
					</ButtonLink>
					<ButtonLink to={listPath} preventScrollReset variant="outline" size="sm">
						Refresh Courses
					</ButtonLink>
					<ButtonLink to={href('/dashboard/admin/orphaned-materials')} variant="outline" size="sm">
						Cleanup Orphaned Materials
					</ButtonLink>
				</ActionList>
			</div>

			<AddCourseCard lastResult={actionData?.result} defaults={defaults} timeZones={timeZones} />

			<section aria-labelledby="current-courses-title" className="space-y-4">
				<div className="flex flex-wrap items-baseline justify-between gap-2">
					<h2 id="current-courses-title" className="scroll-mt-24 text-xl font-semibold text-ink">
						Current Courses
					</h2>
					{pageCount > 1 ? (
						<p className="text-sm text-slate-600">
							{(page - 1) * COURSES_PER_PAGE + 1}–{(page - 1) * COURSES_PER_PAGE + courses.length} of {total}, newest first
						</p>
					) : null}
				</div>
				{courses.length === 0 ? (
					<EmptyState title="No courses found. Add your first course above!" />
				) : (
					<ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
						{courses.map((course) => (
							<li key={course.id}>
								<AdminCourseCard course={course} page={page} />
							</li>
						))}
					</ul>
				)}
				<Pagination label="Pages of courses" path={COURSES_PATH} page={page} pageCount={pageCount} anchor="current-courses-title" />
			</section>
		</>
	)
}

function AddCourseCard({
	lastResult,
	defaults,
	timeZones,
}: {
	lastResult: SubmissionResult<string[]> | undefined
	defaults: { startDate: string; endDate: string }
	timeZones: readonly string[]
}) {
	const navigation = useNavigation()
	const isAdding = navigation.state === 'submitting' && navigation.formAction === COURSES_PATH
	const [form, fields] = useCourseForm({
		id: 'add-course',
		lastResult,
		defaultValue: { ...defaults, ...SCHEDULE_DEFAULTS, registrationFee: '0', capacity: String(DEFAULT_CAPACITY) },
	})
	// A submission that ended in a redirect (no reply) added the course: empty the form for the next one.
	const submitted = useRef(false)
	useEffect(() => {
		if (isAdding) submitted.current = true
		else if (submitted.current && navigation.state === 'idle') {
			submitted.current = false
			if (!lastResult) form.reset()
		}
	}, [isAdding, navigation.state, lastResult, form])
	return (
		<Card>
			<CardHeader>
				<CardTitle>Add New Course</CardTitle>
				<CardDescription>Fields marked with an asterisk (*) are required.</CardDescription>
			</CardHeader>
			<CardContent>
				<Form method="post" action={COURSES_PATH} {...getFormProps(form)} className="space-y-4">
					<CourseFields fields={fields} timeZones={timeZones} />
					<Button type="submit" disabled={isAdding}>
						{isAdding ? 'Adding...' : 'Add Course'}
					</Button>
				</Form>
			</CardContent>
		</Card>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
	pageTitle(loaderData?.isAdmin === false ? 'Courses You Teach' : 'Manage Courses')

export function ErrorBoundary() {
	return <ListErrorBoundary title="Failed to load courses. Please refresh the page." retryLabel="Refresh" />
}
