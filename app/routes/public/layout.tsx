import { Outlet } from 'react-router'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { SiteHeader } from '#app/components/layout/site-header.tsx'
import { Toaster } from '#app/components/ui/toast.tsx'

export default function PublicLayout() {
	return (
		<div className="flex min-h-screen flex-col">
			<SiteHeader />
			<main id="main" className="flex-1">
				<Toaster className="mx-auto max-w-6xl px-4 pt-4" />
				<Outlet />
			</main>
			<SiteFooter />
		</div>
	)
}
