import { getEventHub } from '#app/services/events/hub.server.ts'
import { openUserEventStream } from '#app/services/events/streams.server.ts'
import { getUser } from '#app/utils/auth.server.ts'
import type { Route } from './+types/events'

/**
 * Server-sent events for this visitor: a signed-in user's messages and
 * announcements, and for everyone the seat and course changes that public
 * pages show live.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const user = await getUser(request)
	const hub = await getEventHub()
	return openUserEventStream(request, user, hub)
}
