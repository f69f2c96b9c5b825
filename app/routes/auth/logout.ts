import { href, redirect } from 'react-router'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { safeRedirectPath } from '#app/utils/safe-redirect.ts'
import { clearSelectedCourseCookie } from '#app/utils/selected-course.server.ts'
import { clearSessionCookie, hashToken, readSessionToken } from '#app/utils/session.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/logout'

export async function loader() {
	return redirect('/')
}

/** The dashboard's Log Out button says where it is; every other logout form is the site header's. */
const FAILURE_TOASTS = {
	dashboard: 'Failed to log out. Please try again.',
	header: 'Failed to log out completely. Please try again.',
}

export async function action({ request }: Route.ActionArgs) {
	const token = await readSessionToken(request)
	try {
		if (token) await getDb().deleteFrom('sessions').where('id', '=', hashToken(token)).execute()
	} catch (error) {
		// The session is still valid on the server: clearing only this browser's cookie would hide that.
		console.error('[logout] the session could not be ended:', error instanceof Error ? error.message : error)
		// The fields only say where to go back to: a post without them (or without a form) still gets an answer.
		const formData = await readFormData(request).catch(() => new FormData())
		const fromDashboard = formData.get('from') === 'dashboard'
		const back = fromDashboard ? href('/dashboard') : safeRedirectPath(formData.get('redirectTo'))
		return redirectWithToast(back, { type: 'error', title: fromDashboard ? FAILURE_TOASTS.dashboard : FAILURE_TOASTS.header })
	}
	const headers = new Headers()
	headers.append('Set-Cookie', await clearSessionCookie())
	headers.append('Set-Cookie', await clearSelectedCourseCookie())
	return redirectWithToast('/', { type: 'success', title: 'Logged out successfully' }, { headers })
}
