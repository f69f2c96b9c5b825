import type { ReactNode } from 'react'
import { href, Link } from 'react-router'

/** The top of one course's admin page (Progress, Waitlist): the way back to Courses, the page and course as its h1, a line of figures. */
export function CoursePageHeading({ page, courseTitle, children }: { page: string; courseTitle: string; children: ReactNode }) {
	return (
		<div className="min-w-0">
			<p className="text-sm text-slate-600">
				<Link to={href('/dashboard/admin/courses')} className="text-brand-700 underline underline-offset-4">
					Courses
				</Link>{' '}
				/ {page}
			</p>
			<h1 className="text-2xl font-bold break-words text-ink">
				{page}: {courseTitle}
			</h1>
			<p className="text-sm text-slate-600">{children}</p>
		</div>
	)
}
