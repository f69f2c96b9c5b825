import { Outlet } from 'react-router'
import { requireStaff } from '#app/utils/auth.server.ts'
import type { Route } from './+types/layout'

/**
 * Every request under /dashboard/admin (loaders and actions alike) needs an admin or an instructor;
 * each route then admits instructors to their own courses' pages only (docs/decisions/056).
 */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request }, next) => {
		await requireStaff(request)
		return next()
	},
]

export default function AdminLayout() {
	return <Outlet />
}
