import { ButtonAnchor } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'

export type CommunityEvent = { id: number; weekNumber: number; when: string; cancelled: boolean; ended: boolean; joinPath: string | null }

/** The course's live sessions from the schedule, those past marked ended; the join link (the app's join route) only while it is open to this reader. */
export function EventsList({ events }: { events: CommunityEvent[] }) {
	if (events.length === 0) return <EmptyState title="No live sessions" description="This course has no live sessions scheduled." />
	return (
		<ul className="space-y-3">
			{events.map((event) => (
				<li key={event.id}>
					<Card className="flex flex-wrap items-center justify-between gap-3 p-4">
						<span>
							<span className="block font-semibold text-ink">Week {event.weekNumber} live session</span>{' '}
							<span className="block text-sm text-slate-600">
								{event.when}
								{event.cancelled ? ' (cancelled)' : event.ended ? ' (ended)' : ''}
							</span>
						</span>{' '}
						{event.joinPath ? <ButtonAnchor href={event.joinPath}>Join Class Session</ButtonAnchor> : null}
					</Card>
				</li>
			))}
		</ul>
	)
}
