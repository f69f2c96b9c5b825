import { Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { requireAdmin } from '#app/utils/auth.server.ts'

/** Every request under /dashboard/admin (loaders and actions alike) needs an admin. */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request }, next) => {
		await requireAdmin(request)
		return next()
	},
]

export default function AdminLayout() {
	return <Outlet />
}
