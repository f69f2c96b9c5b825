import { Outlet, useLocation } from 'react-router'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import { useOptionalUser } from '#app/utils/root-data.ts'
import { BROADCAST_PATH, CONTACT_PATH, DIRECT_PATH } from './+shared/paths.ts'

const LIVE_EVENTS = ['message.created', 'message.deleted', 'message.read', 'announcement.created', 'announcement.deleted'] as const

const TABS = [
	{ id: BROADCAST_PATH, label: 'Broadcast Announcements', to: BROADCAST_PATH },
	{ id: DIRECT_PATH, label: 'Direct Messages', to: DIRECT_PATH },
	{ id: CONTACT_PATH, label: 'Contact Form', to: CONTACT_PATH },
]

/**
 * Student Communications: the three channels, each its own route below. The contact form's inbox
 * is the school's, so an instructor is not shown its tab (its route refuses them too).
 */
export default function StudentCommunications() {
	useLiveRevalidation([...LIVE_EVENTS])
	const { pathname } = useLocation()
	const isAdmin = useOptionalUser()?.isAdmin ?? false
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Student Communications</h1>
			<TabLinks tabs={isAdmin ? TABS : TABS.filter((tab) => tab.id !== CONTACT_PATH)} current={pathname} label="Communication channels" />
			<Outlet />
		</>
	)
}

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
