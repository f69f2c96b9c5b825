import { parseWithZod } from '@conform-to/zod/v4'
import { Form, href, useNavigation } from 'react-router'
import { z } from 'zod'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { EmailText } from '#app/components/ui/email-text.tsx'
import { addCourseStaff, CourseStaffError, getCourseStaff, removeCourseStaff } from '#app/models/courses/course-staff.server.ts'
import { getCourseOption } from '#app/models/materials/materials-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { findCourse } from './+shared/course-access.server.ts'
import type { Route } from './+types/course-staff'

const StaffActionSchema = z.object({ intent: z.enum(['add', 'remove']), userId: z.uuid() })

function courseOf(courseId: string) {
	return findCourse(courseId, (id) => getCourseOption(getDb(), id))
}

/** The instructors who teach one course, and the others an admin can add. */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const course = await courseOf(params.courseId)
	return { course, ...(await getCourseStaff(getDb(), course.id)) }
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const course = await courseOf(params.courseId)
	const back = href('/dashboard/admin/courses/:courseId/staff', { courseId: String(course.id) })
	const submission = parseWithZod(await readFormData(request), { schema: StaffActionSchema })
	if (submission.status !== 'success') return redirectWithToast(back, { type: 'error', title: 'That change could not be made' })
	const { intent, userId } = submission.value
	if (intent === 'remove') {
		const removed = await removeCourseStaff(getDb(), admin.id, course.id, userId)
		return removed
			? redirectWithToast(back, { type: 'success', title: 'Instructor removed from the course' })
			: redirectWithToast(back, { type: 'error', title: 'That instructor does not teach this course' })
	}
	try {
		const added = await getDb()
			.transaction()
			.execute((trx) => addCourseStaff(trx, admin.id, userId, [course.id]))
		return added.length
			? redirectWithToast(back, { type: 'success', title: 'Instructor added to the course' })
			: redirectWithToast(back, { type: 'info', title: 'That instructor already teaches this course' })
	} catch (error) {
		if (error instanceof CourseStaffError) return redirectWithToast(back, { type: 'error', title: error.message })
		throw error
	}
}

export default function CourseStaffPage({ loaderData }: Route.ComponentProps) {
	const { course, staff, others } = loaderData
	return (
		<>
			<div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
				<h1 className="text-2xl font-bold text-ink">Staff of {course.title}</h1>
				<ButtonLink to={href('/dashboard/admin/courses')} variant="outline" size="sm">
					Back to Courses
				</ButtonLink>
			</div>
			<StaffList
				title="Instructors of this course"
				empty="No instructors teach this course yet."
				people={staff}
				intent="remove"
				label="Remove"
				courseId={course.id}
			/>
			<StaffList
				title="Other instructors"
				empty="No other instructors. Invite one from Manage Users."
				people={others}
				intent="add"
				label="Add"
				courseId={course.id}
			/>
		</>
	)
}

function StaffList({
	title,
	empty,
	people,
	intent,
	label,
	courseId,
}: {
	title: string
	empty: string
	people: ReadonlyArray<{ id: string; name: string; email: string }>
	intent: 'add' | 'remove'
	label: string
	courseId: number
}) {
	const navigation = useNavigation()
	const headingId = `staff-${intent}-heading`
	const action = href('/dashboard/admin/courses/:courseId/staff', { courseId: String(courseId) })
	return (
		<section aria-labelledby={headingId}>
			<Card>
				<CardHeader>
					<CardTitle id={headingId}>{title}</CardTitle>
					<CardDescription>{people.length ? `${people.length} instructor(s)` : empty}</CardDescription>
				</CardHeader>
				{people.length ? (
					<CardContent>
						<ul className="divide-y divide-slate-100">
							{people.map((person) => {
								const busy = navigation.state === 'submitting' && navigation.formData?.get('userId') === person.id
								return (
									<li key={person.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
										<span className="text-sm">
											<span className="font-medium text-ink">{person.name || 'Unknown User'}</span>{' '}
											<span className="text-slate-700">
												<EmailText email={person.email} />
											</span>
										</span>
										<Form method="post" action={action} preventScrollReset>
											<input type="hidden" name="intent" value={intent} />
											<input type="hidden" name="userId" value={person.id} />
											<Button type="submit" size="sm" variant={intent === 'remove' ? 'destructive' : 'outline'} disabled={busy}>
												{label}
												<span className="sr-only"> {person.name}</span>
											</Button>
										</Form>
									</li>
								)
							})}
						</ul>
					</CardContent>
				) : null}
			</Card>
		</section>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Course Staff')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
