import { getEventHub } from '#app/services/events/hub.server.ts'
import { openUserEventStream } from '#app/services/events/streams.server.ts'
import { getUser } from '#app/utils/auth.server.ts'
import type { Route } from './+types/events'

/**
 * The signed-in user's server-sent events. A signed-out request gets a bare
 * 401 rather than requireUser's redirect, which would plant a "please log in"
 * toast from a background connection.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const user = await getUser(request)
	if (!user) return new Response('Not signed in.', { status: 401 })
	const hub = await getEventHub()
	return openUserEventStream(request, user, hub)
}
