import { redirect } from 'react-router'
import type { Route } from './+types/logout'
import { getDb } from '#app/utils/db.server.ts'
import { clearSelectedCourseCookie } from '#app/utils/selected-course.server.ts'
import { clearSessionCookie, hashToken, readSessionToken } from '#app/utils/session.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

export async function loader() {
	return redirect('/')
}

export async function action({ request }: Route.ActionArgs) {
	const token = await readSessionToken(request)
	if (token) await getDb().deleteFrom('sessions').where('id', '=', hashToken(token)).execute()
	const headers = new Headers()
	headers.append('Set-Cookie', await clearSessionCookie())
	headers.append('Set-Cookie', await clearSelectedCourseCookie())
	return redirectWithToast('/', { type: 'success', title: 'Logged out successfully' }, { headers })
}
