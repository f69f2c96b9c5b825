import { z } from 'zod'
import { parseRowId } from '#app/utils/row-id.ts'
import { siteCookie } from './cookies.server.ts'

/**
 * The value names its user, so a cookie left by someone else on a shared browser is ignored. It is
 * signed and written only below, so its course id is the number stored there.
 */
const CookieValueSchema = z.object({ userId: z.string(), courseId: z.int().positive() })

function selectedCourseCookie() {
	return siteCookie('selected-course', { maxAgeSeconds: 60 * 60 * 24 * 90 })
}

/** The Set-Cookie header that forgets the selection (logout, or a course no longer accessible). */
export function clearSelectedCourseCookie() {
	return selectedCourseCookie().serialize('', { maxAge: 0 })
}

/** The Set-Cookie header that forgets the user's remembered course if it is `courseId` (a deleted course), else null. */
export async function forgetSelectedCourse(request: Request, userId: string, courseId: number) {
	return (await readStoredCourse(request, userId)) === courseId ? clearSelectedCourseCookie() : null
}

async function readStoredCourse(request: Request, userId: string) {
	const parsed = CookieValueSchema.safeParse(await selectedCourseCookie().parse(request.headers.get('Cookie')))
	return parsed.success && parsed.data.userId === userId ? parsed.data.courseId : null
}

/**
 * The course the dashboard shows. A `?course=` choice wins when the user may see that
 * course, then the remembered one, then the default (the most recent active enrollment,
 * or none). A stored id that is no longer accessible is dropped. Returns the Set-Cookie
 * header to send when the remembered choice changes.
 */
export async function resolveSelectedCourse(
	request: Request,
	userId: string,
	accessibleIds: number[],
	defaultCourseId: number | null,
): Promise<{ courseId: number | null; setCookie: string | null }> {
	const accessible = new Set(accessibleIds)
	const stored = await readStoredCourse(request, userId)
	const requested = parseRowId(new URL(request.url).searchParams.get('course'))
	const chosen = requested !== null && accessible.has(requested) ? requested : null
	const remembered = stored !== null && accessible.has(stored) ? stored : null
	const courseId = chosen ?? remembered ?? defaultCourseId

	let setCookie: string | null = null
	if (chosen !== null && chosen !== stored) {
		setCookie = await selectedCourseCookie().serialize({ userId, courseId: chosen })
	} else if (stored !== null && remembered === null) {
		setCookie = await clearSelectedCourseCookie()
	}
	return { courseId, setCookie }
}
