import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'

/**
 * The error boundary of an admin list page: a thrown response (403, 404) as every page shows it;
 * anything else says the list failed to load, with a link that loads the same address again.
 */
export function ListErrorBoundary({ title, retryLabel }: { title: string; retryLabel: string }) {
	const error = useRouteError()
	const location = useLocation()
	if (isRouteErrorResponse(error)) return <GeneralErrorBoundary />
	return (
		<Alert tone="error" title={title}>
			<ButtonLink to={`${location.pathname}${location.search}`} variant="outline" size="sm" className="mt-2">
				{retryLabel}
			</ButtonLink>
		</Alert>
	)
}
