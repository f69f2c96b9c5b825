import { Link } from 'react-router'
import type { Route } from './+types/index'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { requireUser } from '#app/utils/auth.server.ts'

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	return { name: user.name, isAdmin: user.isAdmin }
}

const adminCards = [
	{ to: '/dashboard/admin/courses', title: 'Manage Courses', description: 'Create, edit and remove courses and see their enrollment.' },
	{ to: '/dashboard/admin/uploads', title: 'Upload Materials', description: 'Add weekly class materials, recordings and Zoom links.' },
	{ to: '/dashboard/admin/enrollments', title: 'Manage Enrollments', description: 'Enroll students, change their status or remove them.' },
	{ to: '/dashboard/admin/users', title: 'Manage Users', description: 'Search and manage student accounts.' },
	{ to: '/dashboard/admin/messages', title: 'Send Messages', description: 'Broadcast announcements and message students directly.' },
]

export default function DashboardPage({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">
				Welcome, {loaderData.name || 'Student'}!{loaderData.isAdmin ? ' (Administrator)' : ''}
			</h1>
			{loaderData.isAdmin ? (
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
			<Card>
				<CardHeader>
					<CardTitle>Messages</CardTitle>
					<CardDescription>Have questions? Message your instructor directly.</CardDescription>
				</CardHeader>
				<CardContent>
					<ButtonLink to="/dashboard/messages">Open Messages</ButtonLink>
				</CardContent>
			</Card>
		</>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard | Real Estate Mentorship' }]
