import { href, Link } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import type { AdminSessionView } from '#app/models/sessions/live-sessions.ts'

/** The course's live sessions on its materials page: each week's topic, when it meets, its state, when its week opens, and a link to change it. */
export function AdminSessionsCard({
	courseId,
	sessions,
	schedule,
}: {
	courseId: number
	sessions: AdminSessionView[]
	schedule: string | null
}) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>Live Sessions</CardTitle>
				<CardDescription>
					{schedule ?? 'No weekly schedule: set one (day, time, time zone) in the course form to give each week a live session.'}
				</CardDescription>
			</CardHeader>
			<CardContent>
				{sessions.length === 0 ? (
					<p className="rounded-md bg-slate-50 px-3 py-6 text-center text-sm text-slate-700">No live sessions yet.</p>
				) : (
					<ul className="divide-y divide-slate-100">
						{sessions.map((session) => (
							<li key={session.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
								<p className="w-20 font-medium text-ink">Week {session.weekNumber}</p>
								<div className="min-w-0 flex-1">
									{session.topic ? (
										<p className="font-medium break-words text-ink">{session.topic}</p>
									) : (
										<p className="text-sm text-slate-600">No topic yet</p>
									)}
									<p className={session.status === 'cancelled' ? 'text-slate-600 line-through' : 'text-slate-800'}>{session.when}</p>
									<p className="text-sm text-slate-600">
										{session.opening}
										{session.note ? ` · Note: ${session.note}` : ''}
									</p>
								</div>
								{session.status === 'cancelled' ? (
									<Badge tone="red">Cancelled</Badge>
								) : session.over ? (
									<Badge tone="gray">Past</Badge>
								) : session.rescheduled ? (
									<Badge tone="yellow">Changed</Badge>
								) : null}
								<Link
									to={href('/dashboard/admin/courses/:courseId/materials/sessions/:liveSessionId', {
										courseId: String(courseId),
										liveSessionId: String(session.id),
									})}
									preventScrollReset
									className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
								>
									Edit<span className="sr-only"> week {session.weekNumber} session</span>
								</Link>
								<Link
									to={href('/dashboard/admin/courses/:courseId/sessions/:liveSessionId/attendance', {
										courseId: String(courseId),
										liveSessionId: String(session.id),
									})}
									className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
								>
									Attendance<span className="sr-only"> of week {session.weekNumber}</span>
								</Link>
							</li>
						))}
					</ul>
				)}
			</CardContent>
		</Card>
	)
}
