import { href } from 'react-router'
import { availabilityTextClasses, CoursePrice, SeatsProgress } from '#app/components/course-availability.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { FactGrid } from '#app/components/ui/fact-grid.tsx'
import type { CourseWithAvailability } from '#app/models/courses/courses.ts'
import { cn, formatDateOnly } from '#app/utils/misc.ts'
import { withPage } from '#app/utils/pagination.ts'

function spotsRemainingText({ spotsLeft, isFull }: Pick<CourseWithAvailability, 'spotsLeft' | 'isFull'>) {
	if (isFull) return 'Course is full'
	return `${spotsLeft} ${spotsLeft === 1 ? 'spot' : 'spots'} remaining`
}

/**
 * One course of the Current Courses grid, a draft marked; its Edit, Delete, Run Again and Publish dialogs open over the same page of the grid.
 * An instructor's card has the buttons of the pages they may use only (docs/decisions/056).
 */
export function AdminCourseCard({
	course,
	page,
	actions = 'admin',
}: {
	course: CourseWithAvailability
	page: number
	actions?: 'admin' | 'instructor'
}) {
	const params = { courseId: String(course.id) }
	const admin = actions === 'admin'
	const facts = [
		{ label: 'Start Date', value: formatDateOnly(course.startDate) },
		{ label: 'End Date', value: formatDateOnly(course.endDate) },
		{ label: 'Registration Fee', value: <CoursePrice cents={course.registrationFee} className="font-semibold" /> },
		{ label: 'Created', value: <LocalDate value={course.createdAt} /> },
	]
	// The dialogs and pages only an admin may open (docs/decisions/056), in the order the card shows them.
	const adminDialogs: Array<{ to: string; label: string; variant?: 'destructive' | 'primary' }> = [
		{ to: href('/dashboard/admin/courses/:courseId/edit', params), label: 'Edit' },
		{ to: href('/dashboard/admin/courses/:courseId/delete', params), label: 'Delete', variant: 'destructive' },
		...(course.published
			? []
			: [{ to: href('/dashboard/admin/courses/:courseId/publish', params), label: 'Publish', variant: 'primary' as const }]),
		{ to: href('/dashboard/admin/courses/:courseId/run-again', params), label: 'Run Again' },
	]
	const adminPages = [
		{ to: href('/dashboard/admin/courses/:courseId/completion', params), label: 'Completion' },
		{ to: href('/dashboard/admin/courses/:courseId/payment-plan', params), label: 'Payment Plan' },
		{ to: href('/dashboard/admin/courses/:courseId/staff', params), label: 'Staff' },
	]
	return (
		<Card className="flex h-full flex-col">
			<CardHeader>
				<div className="flex items-start justify-between gap-3">
					<CardTitle as="h3">{course.title}</CardTitle>
					<div className="flex shrink-0 flex-wrap justify-end gap-1">
						{course.published ? null : <Badge tone="orange">Draft</Badge>}
						{course.isFull ? <Badge tone="red">FULL</Badge> : null}
					</div>
				</div>
				<p className="line-clamp-3 text-sm whitespace-pre-line text-slate-600">{course.description}</p>
			</CardHeader>
			<CardContent className="flex-1 space-y-4">
				<div className="space-y-2">
					<div className="flex items-center justify-between text-sm">
						<span className="text-slate-600">Enrollment</span>
						<span className="font-semibold text-ink">
							{course.taken}/{course.capacity}
						</span>
					</div>
					<SeatsProgress availability={course} capacity={course.capacity} label={`Enrollment of ${course.title}`} />
					<p className={cn('text-sm font-semibold', availabilityTextClasses[course.tone])}>{spotsRemainingText(course)}</p>
				</div>
				<FactGrid facts={facts} className="gap-x-4 gap-y-2" />
			</CardContent>
			<CardFooter>
				<ActionList className="flex w-full flex-wrap items-center gap-2">
					{admin ? adminDialogs.map((dialog) => <DialogLink key={dialog.label} {...dialog} page={page} title={course.title} />) : null}
					<CourseLink to={href('/dashboard/admin/courses/:courseId/progress', params)} label="Progress" title={course.title} />
					<CourseLink to={href('/dashboard/admin/courses/:courseId/waitlist', params)} label="Waitlist" title={course.title} />
					{admin ? adminPages.map((link) => <CourseLink key={link.label} {...link} title={course.title} />) : null}
					<ButtonLink
						to={href('/dashboard/admin/courses/:courseId/materials', params)}
						state={{ course: { id: course.id, title: course.title } }}
						variant="primary"
						size="sm"
					>
						Manage Materials<span className="sr-only"> of {course.title}</span>
					</ButtonLink>
				</ActionList>
			</CardFooter>
		</Card>
	)
}

/** A dialog of the course over the same page of the grid, named for screen readers with the course. */
function DialogLink({
	to,
	page,
	label,
	title,
	variant = 'outline',
}: {
	to: string
	page: number
	label: string
	title: string
	variant?: 'outline' | 'destructive' | 'primary'
}) {
	return (
		<ButtonLink to={withPage(to, page)} preventScrollReset variant={variant} size="sm">
			{label}
			<span className="sr-only"> {title}</span>
		</ButtonLink>
	)
}

/** A page of the course, named for screen readers with the course. */
function CourseLink({ to, label, title }: { to: string; label: string; title: string }) {
	return (
		<ButtonLink to={to} variant="outline" size="sm">
			{label}
			<span className="sr-only"> of {title}</span>
		</ButtonLink>
	)
}
