import { Form, href, Link, Outlet, useLocation } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Toaster } from '#app/components/ui/toast.tsx'
import { listStaffCourses } from '#app/models/courses/course-staff.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { cn, initials } from '#app/utils/misc.ts'
import type { Route } from './+types/layout'

/** Every request under /dashboard (loaders and actions alike) needs a signed-in user. */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request }, next) => {
		await requireUser(request)
		return next()
	},
]

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const isInstructor = !user.isAdmin && user.role === 'instructor'
	return {
		user: { name: user.name, email: user.email, isAdmin: user.isAdmin, isInstructor, emailConfirmed: user.emailConfirmed },
		// An instructor's menu starts with the courses they teach (docs/decisions/056).
		teaching: isInstructor ? (await listStaffCourses(getDb(), user.id)).map(({ id, title }) => ({ id, title })) : [],
	}
}

type MenuItem = { to: string; label: string; end?: boolean }

const studentMenu: MenuItem[] = [
	{ to: href('/dashboard'), label: 'Dashboard', end: true },
	{ to: href('/dashboard/courses'), label: 'My Courses' },
	{ to: href('/dashboard/certificates'), label: 'Certificates' },
	{ to: href('/dashboard/messages'), label: 'Messages' },
	{ to: href('/dashboard/community'), label: 'Community' },
	{ to: href('/dashboard/settings'), label: 'Settings' },
]

const adminMenu: MenuItem[] = [
	{ to: href('/dashboard/admin/overview'), label: 'Overview' },
	{ to: href('/dashboard/admin/courses'), label: 'Manage Courses' },
	{ to: href('/dashboard/admin/uploads'), label: 'Upload Materials' },
	{ to: href('/dashboard/admin/enrollments'), label: 'Manage Enrollments' },
	{ to: href('/dashboard/admin/certificates'), label: 'Manage Certificates' },
	{ to: href('/dashboard/admin/promotion-codes'), label: 'Promotion Codes' },
	{ to: href('/dashboard/admin/agreement'), label: 'Program Agreement' },
	{ to: href('/dashboard/admin/school-details'), label: 'School Details' },
	{ to: href('/dashboard/admin/users'), label: 'Manage Users' },
	{ to: href('/dashboard/admin/messages'), label: 'Student Communications' },
	{ to: href('/dashboard/admin/grades'), label: 'Grade Assignments' },
	{ to: href('/dashboard/admin/orphaned-materials'), label: 'Orphaned Materials' },
	{ to: href('/dashboard/admin/audit-log'), label: 'Audit Log' },
	{ to: href('/dashboard/admin/exports'), label: 'Exports' },
]

/** The staff pages an instructor may use; each then shows the courses they teach only. */
const instructorMenu: MenuItem[] = [
	{ to: href('/dashboard/admin/courses'), label: 'Courses You Teach', end: true },
	{ to: href('/dashboard/admin/overview'), label: 'Overview' },
	{ to: href('/dashboard/admin/grades'), label: 'Grade Assignments' },
	{ to: href('/dashboard/admin/messages'), label: 'Student Communications' },
	{ to: href('/dashboard/admin/enrollments'), label: 'Enrollments' },
	{ to: href('/dashboard/admin/exports'), label: 'Exports' },
]

/** The member pages an instructor also uses (a student's course list and certificates are not theirs). */
const instructorMemberMenu: MenuItem[] = studentMenu.filter(
	(item) => item.to !== href('/dashboard/courses') && item.to !== href('/dashboard/certificates'),
)

/** NavLink's rule (case-insensitive; a prefix counts up to a `/` unless `end`). */
function isActiveItem(pathname: string, item: MenuItem) {
	const current = pathname.toLowerCase()
	const target = item.to.toLowerCase()
	return current === target || (!item.end && current.startsWith(target) && current.charAt(target.length) === '/')
}

/**
 * Plain links marked active from the one location the layout reads: a NavLink per item
 * resolved its path and read the router's location and navigation state again for each of
 * the menu's links, on every dashboard page.
 */
function MenuLinks({ items, pathname }: { items: MenuItem[]; pathname: string }) {
	return (
		<ul className="space-y-1">
			{items.map((item) => {
				const isActive = isActiveItem(pathname, item)
				return (
					<li key={item.to}>
						<Link
							to={item.to}
							aria-current={isActive ? 'page' : undefined}
							className={cn(
								'block rounded-md px-3 py-2 text-sm font-medium',
								isActive ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100 hover:text-ink',
							)}
						>
							{item.label}
						</Link>
					</li>
				)
			})}
		</ul>
	)
}

function MenuGroup({ title, items, pathname }: { title: string; items: MenuItem[]; pathname: string }) {
	return (
		<div>
			<p className="px-3 pb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</p>
			<MenuLinks items={items} pathname={pathname} />
		</div>
	)
}

type MenuUser = { isAdmin: boolean; isInstructor: boolean }

function Menu({ user, teaching, pathname }: { user: MenuUser; teaching: Array<{ id: number; title: string }>; pathname: string }) {
	if (user.isInstructor) {
		const courses = teaching.map((course) => ({
			to: href('/dashboard/admin/courses/:courseId/materials', { courseId: String(course.id) }),
			label: course.title,
		}))
		return (
			<div className="space-y-6">
				{courses.length > 0 ? <MenuGroup title="Your Courses" items={courses} pathname={pathname} /> : null}
				<MenuGroup title="Instructor" items={instructorMenu} pathname={pathname} />
				<MenuLinks items={instructorMemberMenu} pathname={pathname} />
			</div>
		)
	}
	const { isAdmin } = user
	return (
		<div className="space-y-6">
			<MenuLinks items={studentMenu} pathname={pathname} />
			{isAdmin ? <MenuGroup title="Administrator" items={adminMenu} pathname={pathname} /> : null}
		</div>
	)
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
	const { user, teaching } = loaderData
	const location = useLocation()
	return (
		<div className="min-h-screen bg-slate-50">
			{/*
			 * The menu's button on phones and tablets opens the menu below without JavaScript (app.css,
			 * `menu-closed`), so it comes before the menu's ancestors: first in the document, as first in
			 * focus order, and fixed where the header leaves it room. A new page closes it.
			 */}
			<details key={location.key} className="fixed top-3 left-4 z-50 lg:hidden">
				<summary
					className="flex size-10 cursor-pointer items-center justify-center rounded-md hover:bg-slate-100"
					aria-label="Dashboard menu"
				>
					<svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
						<path d="M4 6h16M4 12h16M4 18h16" />
					</svg>
				</summary>
			</details>
			<header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
				{/* Its groups are inline-flex (a flex item either way) so that engines without flexbox keep them on one line. */}
				<div className="flex h-16 items-center justify-between gap-3 px-4">
					<div className="inline-flex items-center max-lg:pl-12">
						<Link to="/" aria-label="Real Estate Mentorship home" className="inline-flex items-center gap-2 font-bold text-brand-800">
							<img src="/favicon.svg" alt="" width={28} height={28} />
							<span className="hidden sm:inline">Real Estate Mentorship</span>
						</Link>
					</div>
					<div className="inline-flex items-center gap-3">
						<span
							aria-hidden="true"
							className="inline-flex size-9 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white"
						>
							{initials(user.name)}
						</span>
						<div className="hidden text-right sm:inline-block">
							<p className="text-sm font-semibold text-ink">{user.name || 'Student'}</p>
							{user.isAdmin ? <p className="text-xs text-slate-600">Administrator</p> : null}
							{user.isInstructor ? <p className="text-xs text-slate-600">Instructor</p> : null}
						</div>
						{user.isAdmin ? <Badge tone="brand">Admin</Badge> : null}
						<Form method="post" action="/logout">
							<input type="hidden" name="from" value="dashboard" />
							<button type="submit" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
								Log Out
							</button>
						</Form>
					</div>
				</div>
			</header>
			<div className="mx-auto flex max-w-7xl gap-6 px-4 py-6">
				{/* The one menu: a sidebar on wide screens, the drop-down below the menu's button on smaller ones. */}
				<nav
					aria-label="Dashboard"
					className="border border-slate-200 bg-white p-3 max-lg:fixed max-lg:top-15 max-lg:left-4 max-lg:z-50 max-lg:w-64 max-lg:rounded-lg max-lg:shadow-lg max-lg:menu-closed:hidden lg:sticky lg:top-22 lg:w-60 lg:shrink-0 lg:self-start lg:rounded-xl"
				>
					<Menu user={user} teaching={teaching} pathname={location.pathname} />
				</nav>
				<main id="main" className="min-w-0 flex-1 space-y-6">
					<Toaster />
					{user.emailConfirmed ? null : (
						<div
							role="status"
							className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
						>
							<p>
								Please confirm your email address: we sent a link to <strong>{user.email}</strong>.
							</p>
							<Form method="post" action="/resend-confirmation">
								<button type="submit" className="font-semibold underline">
									Resend confirmation email
								</button>
							</Form>
						</div>
					)}
					<Outlet />
				</main>
			</div>
		</div>
	)
}
