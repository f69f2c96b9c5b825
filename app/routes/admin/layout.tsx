import { Outlet } from 'react-router'
import { requireAdmin } from '#app/utils/auth.server.ts'
import type { Route } from './+types/layout'

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
