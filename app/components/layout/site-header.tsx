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
		'rounded-md px-3 py-2 text-sm font-medium',
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
			<div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
				<Link to="/" className="inline-flex items-center gap-2 text-lg font-bold text-brand-800">
					<img src="/favicon.svg" alt="" width={28} height={28} />
					<span>Real Estate Mentorship</span>
				</Link>
				{/* inline-flex: the same as flex for a flex item, and beside the logo in engines without flexbox (NetSurf). */}
				<nav aria-label="Main" className="hidden items-center gap-1 md:inline-flex">
					{links.map((link) => (
						<NavLink key={link.to} to={link.to} end={link.to === '/'} className={navClass}>
							{link.label}
						</NavLink>
					))}
					{user ? <LogoutButton className="rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 hover:text-ink" /> : null}
				</nav>
				{/* A <details> toggle opens the mobile menu without JavaScript; a new page closes it. */}
				<details key={location.key} className="group relative md:hidden">
					<summary
						className="flex size-10 cursor-pointer items-center justify-center rounded-md text-ink hover:bg-slate-100"
						aria-label="Menu"
					>
						<svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
							<path d="M4 6h16M4 12h16M4 18h16" className="group-open:hidden" />
							<path d="M6 6l12 12M18 6L6 18" className="hidden group-open:block" />
						</svg>
					</summary>
					<nav
						aria-label="Mobile"
						className="absolute right-0 mt-2 flex w-56 flex-col gap-1 rounded-lg border border-slate-200 bg-white p-2 shadow-lg"
					>
						{links.map((link) => (
							<NavLink key={link.to} to={link.to} end={link.to === '/'} className={navClass}>
								{link.label}
							</NavLink>
						))}
						{user ? <LogoutButton className="w-full rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100" /> : null}
					</nav>
				</details>
			</div>
		</header>
	)
}
