import { listCommunityCourses } from '#app/models/community/discussions.server.ts'
import { getEventHub } from '#app/services/events/hub.server.ts'
import { openUserEventStream, streamClientKey } from '#app/services/events/streams.server.ts'
import { getUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { clientAddress } from '#app/utils/rate-limit.server.ts'
import type { Route } from './+types/events'

/**
 * Server-sent events for this visitor: a signed-in user's messages and
 * announcements, the posts of their courses' communities, and for everyone
 * the seat and course changes that public pages show live. `?since=` is when the page got its
 * data (the root loader's `renderedAt`): what came after it is sent first.
 */
export async function loader({ request }: Route.LoaderArgs) {
	const user = await getUser(request)
	const hub = await getEventHub()
	const communities = user ? await listCommunityCourses(getDb(), user) : []
	const since = Number(new URL(request.url).searchParams.get('since'))
	return openUserEventStream(request, user, hub, {
		client: streamClientKey(user, clientAddress(request)),
		limit: getEnv().EVENT_STREAMS_PER_CLIENT,
		communityCourseIds: new Set(communities.map((course) => course.id)),
		since: Number.isSafeInteger(since) && since > 0 ? since : undefined,
	})
}
