import { teachesCourse } from '#app/routes/admin/+shared/course-access.server.ts'
import { receiveMaterialUpload, uploadSuccessToast } from '#app/routes/admin/+shared/material-upload.server.ts'
import { requireStaff } from '#app/utils/auth.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { createToastHeaders } from '#app/utils/toast.server.ts'
import type { Route } from './+types/material-upload'

/**
 * Only the upload form posts here; a GET (a bookmarked or typed address) is told so, as the
 * server answers a method it does not serve, rather than meeting the router's "no loader" error.
 */
export async function loader() {
	return new Response('Method not allowed.', { status: 405, headers: { Allow: 'POST', 'Content-Type': 'text/plain' } })
}

/**
 * The Upload Materials form as the browser sends it with JavaScript (XMLHttpRequest, so the
 * page can show upload progress): the same streamed upload as the pages' own actions, answered
 * with JSON. The toast is set as a cookie; the page revalidates to show it. An instructor uploads to
 * the courses they teach only: the course is a field of the body (docs/decisions/056).
 */
export async function action({ request }: Route.ActionArgs) {
	const user = await requireStaff(request)
	const outcome = await receiveMaterialUpload(request, {
		adminId: user.id,
		maxUploadMb: getEnv().MAX_UPLOAD_MB,
		courseAllowed: (courseId) => teachesCourse(user, courseId),
	})
	const headers = await createToastHeaders(outcome.ok ? uploadSuccessToast(outcome) : outcome.toast)
	headers.set('Cache-Control', 'no-store')
	if (!outcome.ok) return Response.json({ ok: false, result: outcome.result }, { status: outcome.status, headers })
	return Response.json({ ok: true, courseId: outcome.courseId, weekNumber: outcome.weekNumber }, { headers })
}
