import { Outlet } from 'react-router'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { SiteHeader } from '#app/components/layout/site-header.tsx'

export default function PublicLayout() {
	return (
		<div className="flex min-h-screen flex-col">
			<SiteHeader />
			<main id="main" className="flex-1">
				<Outlet />
			</main>
			<SiteFooter />
		</div>
	)
}
