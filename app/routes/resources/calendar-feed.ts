import { listFeedSessions, renderCalendar } from '#app/models/sessions/calendar-feed.server.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import type { Route } from './+types/calendar-feed'

const FEED_FILE = /^([A-Za-z0-9_-]{32,128})\.ics$/

/**
 * A student's private calendar feed, `/calendar/<token>.ics` (also as webcal://): no session
 * cookie, since calendar apps have none; the token is the key and Settings can replace it.
 */
export async function loader({ params }: Route.LoaderArgs) {
	const token = FEED_FILE.exec(params.feed ?? '')?.[1]
	const sessions = token ? await listFeedSessions(getDb(), token) : null
	if (!sessions) return textResponse('Calendar not found', 404)
	const body = renderCalendar(sessions, { siteUrl: getEnv().APP_URL, name: 'Live sessions' })
	return new Response(body, {
		headers: {
			'Content-Type': 'text/calendar; charset=utf-8',
			'Content-Disposition': 'inline; filename="live-sessions.ics"',
			'Cache-Control': 'private, no-cache',
			'Referrer-Policy': 'no-referrer',
			'X-Robots-Tag': 'noindex',
		},
	})
}
