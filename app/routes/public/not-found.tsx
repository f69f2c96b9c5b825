import { data, Link } from 'react-router'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { pageMeta } from '#app/utils/page-meta.ts'
import type { Route } from './+types/not-found'

/** The catch-all route: a real 404 status, rendered inside the public layout. */
export function loader() {
	return data(null, { status: 404 })
}

const suggestions = [
	{ to: '/courses', label: 'Our Programs' },
	{ to: '/about', label: 'About' },
	{ to: '/faq', label: 'FAQ' },
	{ to: '/contact', label: 'Contact' },
]

export default function NotFound() {
	return (
		<section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center sm:py-28">
			<p aria-hidden="true" className="text-8xl font-extrabold tracking-tight text-brand-500 sm:text-9xl">
				404
			</p>
			<h1 className="mt-4 text-3xl font-bold tracking-tight text-ink sm:text-4xl">Oops! Page not found</h1>
			<p className="mt-4 max-w-md text-slate-600">The page you are looking for does not exist or has moved. Let's get you back on track.</p>
			<ButtonLink to="/" size="lg" className="mt-8">
				Return to Home
			</ButtonLink>
			<nav aria-label="Helpful links" className="mt-10">
				<ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
					{suggestions.map((link) => (
						<li key={link.to}>
							<Link to={link.to} className="font-medium text-brand-700 hover:underline">
								{link.label}
							</Link>
						</li>
					))}
				</ul>
			</nav>
		</section>
	)
}

export const meta: Route.MetaFunction = () => [
	...pageMeta('Page Not Found', 'The page you are looking for does not exist or has moved.'),
	{ name: 'robots', content: 'noindex' },
]
