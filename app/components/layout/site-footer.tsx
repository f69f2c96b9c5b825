import { Link } from 'react-router'
import { useContactEmail } from '#app/utils/root-data.ts'

const footerLinks = [
	{ to: '/', label: 'Home' },
	{ to: '/about', label: 'About' },
	{ to: '/contact', label: 'Contact' },
	{ to: '/faq', label: 'FAQ' },
	{ to: '/privacy', label: 'Privacy Policy' },
	{ to: '/terms', label: 'Terms of Service' },
]

export function SiteFooter() {
	const email = useContactEmail()
	return (
		<footer className="border-t border-slate-200 bg-brand-900 text-brand-50">
			<div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2">
				<div>
					<p className="text-lg font-bold text-white">Real Estate Mentorship</p>
					<p className="mt-2 max-w-sm text-sm text-brand-100">
						Small-group online mentoring for first-time real-estate investors: buy, rehab, rent, refinance.
					</p>
					<p className="mt-4 text-sm">
						Contact us:{' '}
						<a href={`mailto:${email}`} className="font-medium text-white underline underline-offset-2">
							{email}
						</a>
					</p>
				</div>
				<nav aria-label="Footer">
					<ul className="grid grid-cols-2 gap-2 text-sm">
						{footerLinks.map((link) => (
							<li key={link.to}>
								<Link to={link.to} className="text-brand-100 hover:text-white hover:underline">
									{link.label}
								</Link>
							</li>
						))}
					</ul>
				</nav>
			</div>
			<p className="border-t border-brand-800 py-4 text-center text-xs text-brand-200">
				© {new Date().getFullYear()} Real Estate Mentorship. All rights reserved.
			</p>
		</footer>
	)
}
