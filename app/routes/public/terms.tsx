import { Link } from 'react-router'
import { LegalPage } from '#app/components/marketing/legal-page.tsx'
import { pageMeta } from '#app/utils/page-meta.ts'
import { SHARED_PAGE_OF_CODE, STATIC_FOR_VISITORS, useContactEmail } from '#app/utils/root-data.ts'
import type { Route } from './+types/terms'

export default function Terms() {
	const email = useContactEmail()
	return (
		<LegalPage
			title="Terms of Service"
			description="The rules for using this website and taking part in our programs."
			updated="November 21, 2026"
			sections={[
				{
					id: 'acceptance',
					title: 'Acceptance of Terms',
					body: (
						<>
							<p>
								By creating an account, enrolling in a program or otherwise using this website, you agree to these Terms of Service and to
								our <Link to="/privacy">Privacy Policy</Link>. If you do not agree, please do not use the site.
							</p>
							<p>
								Enrolment in a program is also governed by the Real Estate Mentorship Program Agreement that you accept during registration.
								Where that agreement and these terms differ, the agreement applies to the program.
							</p>
						</>
					),
				},
				{
					id: 'accounts',
					title: 'User Accounts',
					body: (
						<>
							<p>
								You must give accurate information when you register and keep it up to date. You must confirm your e-mail address before you
								can log in with your password.
							</p>
							<ul>
								<li>Keep your password confidential and do not share your account with anyone else.</li>
								<li>You are responsible for everything done through your account.</li>
								<li>Tell us straight away if you suspect someone else has used your account.</li>
							</ul>
							<p>We may suspend or close an account that breaks these terms, after telling you why whenever we can.</p>
						</>
					),
				},
				{
					id: 'content',
					title: 'Course Content',
					body: (
						<>
							<p>
								Class materials, recordings, templates and other course content are owned by us or our licensors and are protected by
								copyright. While you are enrolled you may view them and download them for your own personal, non-commercial learning.
							</p>
							<p>
								You may not copy, share, resell, publish or record course content, or give others access to it, without our written
								permission.
							</p>
							<p>
								The program is educational. Nothing in it is financial, legal, tax or investment advice for your particular situation, and
								no results are guaranteed. Consult qualified professionals before making investment decisions.
							</p>
						</>
					),
				},
				{
					id: 'prohibited',
					title: 'Prohibited Activities',
					body: (
						<>
							<p>When using the site you agree not to:</p>
							<ul>
								<li>break any law or infringe anyone else's rights;</li>
								<li>harass, threaten or abuse other students, mentors or staff;</li>
								<li>send spam, advertising or unsolicited offers through messages or community features;</li>
								<li>upload malware or content that is unlawful, misleading or offensive;</li>
								<li>try to access accounts, data or parts of the site that you are not authorised to use;</li>
								<li>scrape, overload or otherwise interfere with the site or its security.</li>
							</ul>
						</>
					),
				},
				{
					id: 'changes',
					title: 'Changes & Contact',
					body: (
						<>
							<p>
								We may update these terms from time to time. When we make a significant change we will update the date at the top of this
								page and, where appropriate, tell you by e-mail. Continuing to use the site after a change means you accept the updated
								terms.
							</p>
							<p>
								Questions about these terms? Write to us at <a href={`mailto:${email}`}>{email}</a> or use our{' '}
								<Link to="/contact">contact form</Link>.
							</p>
						</>
					),
				},
			]}
		/>
	)
}

export const handle = { ...STATIC_FOR_VISITORS, ...SHARED_PAGE_OF_CODE }

export const meta: Route.MetaFunction = () =>
	pageMeta('Terms of Service', 'The terms that apply when you use our website and take part in our real-estate mentorship programs.')
