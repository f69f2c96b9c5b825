import { Form } from 'react-router'
import { cn } from '#app/utils/misc.ts'

/** Logging out changes state, so it is a POST, never a link. */
export function LogoutButton({ className, label = 'Logout' }: { className?: string; label?: string }) {
	return (
		<Form method="post" action="/logout">
			<button type="submit" className={cn('font-medium', className)}>
				{label}
			</button>
		</Form>
	)
}
