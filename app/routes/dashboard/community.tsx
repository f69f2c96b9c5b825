import { href, Link, redirect } from 'react-router'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { listCommunityCourses } from '#app/models/community/discussions.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { SITE_NAME } from '#app/utils/page-meta.ts'
import type { Route } from './+types/community'

/** Each course has its own community (docs/decisions/060): one course leads straight to it, several are offered to choose from. */
export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const courses = await listCommunityCourses(getDb(), user)
	if (courses.length === 1) return redirect(href('/dashboard/community/:courseId', { courseId: String(courses[0]!.id) }))
	return { courses: courses.map(({ id, title }) => ({ id, title })) }
}

export default function DashboardCommunityPage({ loaderData: { courses } }: Route.ComponentProps) {
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Community</h1>
			{courses.length === 0 ? (
				<EmptyState
					title="No community yet"
					description="Each course has its own community of students and instructors. Enrol in a course to join its discussions."
					action={<ButtonLink to="/community">Visit the Investor Community</ButtonLink>}
				/>
			) : (
				<>
					<p className="text-slate-700">Each course has its own discussions, members and events. Choose one:</p>
					<ul className="space-y-3">
						{courses.map((course) => (
							<li key={course.id}>
								<Card className="p-4">
									<Link
										to={href('/dashboard/community/:courseId', { courseId: String(course.id) })}
										className="font-semibold text-brand-700 underline-offset-4 hover:underline"
									>
										{course.title}
									</Link>
								</Card>
							</li>
						))}
					</ul>
				</>
			)}
		</>
	)
}

export const meta: Route.MetaFunction = () => [{ title: `Community | ${SITE_NAME}` }]
