import { useRevalidator } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ButtonLink } from '#app/components/ui/button.tsx'

/**
 * Refresh: a link to the page itself, so that it works without JavaScript; once the page is
 * hydrated it loads the page's data again in place instead.
 */
export function RefreshLink({ to, preventScrollReset }: { to: string; preventScrollReset?: boolean }) {
	const hydrated = useHydrated()
	const revalidator = useRevalidator()
	return (
		<ButtonLink
			to={to}
			preventScrollReset={preventScrollReset}
			variant="outline"
			size="sm"
			onClick={(event) => {
				if (!hydrated) return
				event.preventDefault()
				void revalidator.revalidate()
			}}
		>
			Refresh
		</ButtonLink>
	)
}
