import { href, redirect } from 'react-router'
import { joinLiveSession } from '#app/models/sessions/attendance.server.ts'
import { JOIN_OPENS_MINUTES_BEFORE } from '#app/models/sessions/live-sessions.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/session-join'

/**
 * 'Join Class Session' (the dashboard, the reminder e-mail, the calendar feed): records the
 * student's join and sends them on to the meeting (docs/decisions/048). Outside the join window,
 * back to the course's dashboard with why; a session the reader may not join does not exist for them.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const sessionId = parseRowId(params.liveSessionId)
	const outcome = sessionId ? await joinLiveSession(getDb(), { sessionId, user }) : null
	if (!outcome) return textResponse('Session not found', 404)
	if (outcome.kind === 'joined') return redirect(outcome.meetingUrl, { headers: { 'Cache-Control': 'no-store' } })
	const dashboard = `${href('/dashboard')}?course=${outcome.courseId}`
	const title = {
		'not-open-yet': `The join link opens ${JOIN_OPENS_MINUTES_BEFORE} minutes before the start`,
		over: 'This live session has ended',
		cancelled: 'This live session is cancelled',
		'no-link': 'This live session has no meeting link yet',
	}[outcome.kind]
	const description = outcome.kind === 'not-open-yet' ? `Come back from ${outcome.opensAt}.` : undefined
	return redirectWithToast(dashboard, { type: 'info', title, description })
}
