import { href } from 'react-router'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { requireUser } from '#app/utils/auth.server.ts'
import type { Route } from './+types/community'

export async function loader({ request }: Route.LoaderArgs) {
	await requireUser(request)
	return null
}

/** The student community space is a placeholder (the spec keeps it so); the public community page is the real one. */
export default function DashboardCommunityPage() {
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Community</h1>
			<Card>
				<CardHeader>
					<CardTitle>Coming soon</CardTitle>
					<CardDescription>A space to meet your classmates, share deals and ask questions between sessions is on its way.</CardDescription>
				</CardHeader>
				<CardContent>
					<ActionList className="flex flex-wrap gap-3">
						<ButtonLink to="/community">Visit the Investor Community</ButtonLink>
						<ButtonLink to={href('/dashboard/messages')} variant="outline">
							Message Your Instructor
						</ButtonLink>
					</ActionList>
				</CardContent>
			</Card>
		</>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Community | Real Estate Mentorship' }]
