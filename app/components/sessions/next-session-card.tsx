import { useEffect } from 'react'
import { useRevalidator } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { buttonClasses } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { JOIN_OPENS_MINUTES_BEFORE, type NextLiveSession } from '#app/models/sessions/live-sessions.ts'

/** Timers further ahead than this are not set: the page is reloaded long before. */
const LONGEST_WAIT_MS = 12 * 60 * 60 * 1000

/**
 * Reloads the page's data when a join link opens, so an open page shows it without a reload
 * (without JavaScript, the next visit does).
 */
function useRevalidateAt(iso: string | null) {
	const revalidator = useRevalidator()
	useEffect(() => {
		if (!iso) return
		const wait = new Date(iso).getTime() - Date.now()
		if (wait <= 0 || wait > LONGEST_WAIT_MS) return
		const timer = window.setTimeout(() => void revalidator.revalidate(), wait + 1000)
		return () => window.clearTimeout(timer)
	}, [iso, revalidator])
}

/** The top of a student's dashboard: when the next live session is, its join link once open, or that it is cancelled. */
export function NextSessionCard({ session }: { session: NextLiveSession }) {
	const waiting = session.status === 'scheduled' && !session.joinUrl
	useRevalidateAt(waiting ? session.joinOpensAt : null)
	return (
		<Card>
			<CardHeader>
				<CardTitle>Next Live Session</CardTitle>
				<CardDescription>
					{session.courseTitle}, week {session.weekNumber}
					{session.topic ? `: ${session.topic}` : ''}
				</CardDescription>
			</CardHeader>
			<CardContent className="space-y-3">
				<p
					className={
						session.status === 'cancelled' ? 'text-lg font-semibold text-slate-600 line-through' : 'text-lg font-semibold text-ink'
					}
				>
					{session.when}
				</p>
				{session.status === 'cancelled' ? (
					<Alert tone="warning" title="This session is cancelled">
						{session.note ?? 'No reason was given.'}
						{session.following ? ` The next session is week ${session.following.weekNumber}, ${session.following.when}.` : null}
					</Alert>
				) : (
					<>
						{session.note ? <p className="text-sm text-slate-700">Note: {session.note}</p> : null}
						{session.joinUrl ? (
							<a href={session.joinUrl} target="_blank" rel="noopener noreferrer" className={buttonClasses({})}>
								Join Live Session<span className="sr-only"> (opens in a new tab)</span>
							</a>
						) : (
							<p className="text-sm text-slate-700">The join link appears here {JOIN_OPENS_MINUTES_BEFORE} minutes before the start.</p>
						)}
					</>
				)}
			</CardContent>
		</Card>
	)
}
