import { href, Link, NavLink, useLocation } from 'react-router'
import { cn } from '#app/utils/misc.ts'
import { useOptionalUser } from '#app/utils/root-data.ts'
import { LogoutButton } from './logout-button.tsx'

const publicLinks = [
	{ to: '/', label: 'Home' },
	{ to: '/about', label: 'About' },
	{ to: '/contact', label: 'Contact' },
]

function navClass({ isActive }: { isActive: boolean }) {
	return cn(
		'block rounded-md px-3 py-2 text-sm font-medium',
		isActive ? 'text-brand-800 bg-brand-50' : 'text-slate-700 hover:text-ink hover:bg-slate-100',
	)
}

export function SiteHeader() {
	const user = useOptionalUser()
	const location = useLocation()
	const links = [
		...publicLinks,
		...(user
			? [{ to: href('/dashboard'), label: 'Dashboard' }]
			: [
					{ to: '/login', label: 'Log in' },
					{ to: '/register', label: 'Register' },
				]),
	]
	return (
		<header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
			<div className="relative mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
				<Link to="/" className="inline-flex items-center gap-2 text-lg font-bold text-brand-800">
					<img src="/favicon.svg" alt="" width={28} height={28} />
					<span>Real Estate Mentorship</span>
				</Link>
				{/* The phone menu's button opens the list below without JavaScript (app.css, `menu-closed`); a new page closes it. */}
				<details key={location.key} className="group md:hidden">
					<summary
						className="flex size-10 cursor-pointer items-center justify-center rounded-md text-ink hover:bg-slate-100"
						aria-label="Menu"
					>
						<svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
							<path d="M4 6h16M4 12h16M4 18h16" className="group-open:hidden" />
							<path d="M6 6l12 12M18 6L6 18" className="hidden group-open:block" />
						</svg>
					</summary>
				</details>
				{/* The one menu: a row beside the logo on wide screens, the phone menu's drop-down below its button. */}
				<nav
					aria-label="Main"
					className="max-md:absolute max-md:top-15 max-md:right-4 max-md:w-56 max-md:rounded-lg max-md:border max-md:border-slate-200 max-md:bg-white max-md:p-2 max-md:shadow-lg max-md:menu-closed:hidden"
				>
					{/* Items are inline blocks on wide screens for engines without flexbox (NetSurf); flex items either way. */}
					<ul className="space-y-1 md:flex md:items-center md:gap-1 md:space-y-0">
						{links.map((link) => (
							<li key={link.to} className="md:inline-block">
								<NavLink to={link.to} end={link.to === '/'} className={navClass}>
									{link.label}
								</NavLink>
							</li>
						))}
						{user ? (
							<li className="md:inline-block">
								<LogoutButton className="w-full rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 hover:text-ink" />
							</li>
						) : null}
					</ul>
				</nav>
			</div>
		</header>
	)
}
