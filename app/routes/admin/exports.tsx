import { Form, href } from 'react-router'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { Button, ButtonAnchor } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { listCoursesOf } from '#app/models/courses/course-staff.server.ts'
import { defaultRange } from '#app/models/reports/exports.ts'
import { todayIn } from '#app/models/reports/overview.ts'
import { requireStaff } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import type { Route } from './+types/exports'

/**
 * The CSV exports (docs/decisions/066): the payments and refunds of a range of days for admins, and
 * for each course the viewer works on its roster with progress and its attendance.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireStaff(request)
	const courses = await listCoursesOf(getDb(), { id: user.id, isAdmin: user.isAdmin })
	const timeZone = user.timeZone ?? 'UTC'
	return { isAdmin: user.isAdmin, timeZone, range: defaultRange(todayIn(timeZone)), courses }
}

export default function Exports({ loaderData }: Route.ComponentProps) {
	const { isAdmin, timeZone, range, courses } = loaderData
	return (
		<>
			<div>
				<h1 className="text-2xl font-bold text-ink">Exports</h1>
				<p className="mt-1 text-sm text-slate-600">CSV files for a spreadsheet.</p>
			</div>
			{isAdmin ? (
				<Card className="space-y-3 p-4">
					<h2 className="text-lg font-semibold text-ink">Payments and refunds</h2>
					<p className="text-sm text-slate-700">
						One line per payment, plan instalment and refund in the chosen days: gross, discount, refund and net, with the payment
						provider&rsquo;s ids. Net is gross minus discount minus refund, so each column adds up to the period&rsquo;s figure, the
						Overview&rsquo;s for the same days.
					</p>
					<Form
						method="get"
						action={href('/dashboard/admin/exports/payments.csv')}
						reloadDocument
						className="flex flex-wrap items-end gap-3"
					>
						<Field
							label="First day"
							inputProps={{ id: 'export-from', name: 'from', type: 'date', required: true, defaultValue: range.from }}
						/>
						<Field label="Last day" inputProps={{ id: 'export-to', name: 'to', type: 'date', required: true, defaultValue: range.to }} />
						<Button type="submit">Download payments CSV</Button>
						<p className="basis-full text-sm text-slate-700">
							Days and times are in {timeZone} (your profile&rsquo;s time zone, UTC without one), as on the Overview.
						</p>
					</Form>
				</Card>
			) : null}
			<Card className="space-y-3 p-4">
				<h2 className="text-lg font-semibold text-ink">Courses</h2>
				<p className="text-sm text-slate-700">
					The roster with each student&rsquo;s progress, and attendance: one line per student and class held.
				</p>
				{courses.length === 0 ? (
					<p className="text-sm text-slate-700">No courses yet.</p>
				) : (
					<ul className="divide-y divide-slate-100">
						{courses.map((course) => (
							<li key={course.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
								<h3 className="font-medium break-words text-ink">{course.title}</h3>
								<ActionList className="flex flex-wrap gap-2">
									<ButtonAnchor
										href={href('/dashboard/admin/courses/:courseId/progress.csv', { courseId: String(course.id) })}
										variant="outline"
										size="sm"
										download
										aria-label={`Roster with progress, ${course.title} (CSV)`}
									>
										Roster with progress
									</ButtonAnchor>
									<ButtonAnchor
										href={href('/dashboard/admin/exports/courses/:courseId/attendance.csv', { courseId: String(course.id) })}
										variant="outline"
										size="sm"
										download
										aria-label={`Attendance, ${course.title} (CSV)`}
									>
										Attendance
									</ButtonAnchor>
								</ActionList>
							</li>
						))}
					</ul>
				)}
			</Card>
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Exports')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
