import { Form, useLocation } from 'react-router'
import { cn } from '#app/utils/misc.ts'

/** Logging out changes state, so it is a POST, never a link. If it fails, the visitor comes back here. */
export function LogoutButton({ className, label = 'Logout' }: { className?: string; label?: string }) {
	const location = useLocation()
	return (
		<Form method="post" action="/logout">
			<input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
			<button type="submit" className={cn('font-medium', className)}>
				{label}
			</button>
		</Form>
	)
}
