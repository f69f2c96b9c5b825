import { data } from 'react-router'
import { communityAccess } from '#app/models/community/discussions.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'

/**
 * The signed-in member of the course's community the path names, with what they may do there.
 * A course they do not belong to, or a malformed id, does not exist for them (404).
 */
export async function requireCommunityMember(request: Request, courseIdParam: string | undefined) {
	const user = await requireUser(request)
	const courseId = parseRowId(courseIdParam)
	const access = courseId ? await communityAccess(getDb(), user, courseId) : null
	if (!courseId || !access) throw data('Community not found', { status: 404 })
	return { user, courseId, access }
}

/** A member who only reads (an alumnus) is refused a post with 403. */
export function requirePoster(access: { canPost: boolean }) {
	if (!access.canPost) throw data('Alumni read their course’s discussions and do not post in them', { status: 403 })
}

/** Each post counts against the user's limit; the message says how long to wait. */
export async function postingLimit(userId: string) {
	const limit = await consumeRateLimit('communityPost', userId)
	return limit.allowed ? null : `You are posting too fast. Please wait ${limit.retryAfterSeconds} seconds and try again.`
}
