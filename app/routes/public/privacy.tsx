import { Link } from 'react-router'
import { LegalPage } from '#app/components/marketing/legal-page.tsx'
import { pageMeta } from '#app/utils/page-meta.ts'
import { SHARED_PAGE_OF_CODE, STATIC_FOR_VISITORS, useContactEmail } from '#app/utils/root-data.ts'
import type { Route } from './+types/privacy'

export default function Privacy() {
	const email = useContactEmail()
	return (
		<LegalPage
			title="Privacy Policy"
			description="What we collect, why we collect it, and the choices you have."
			updated="November 21, 2026"
			sections={[
				{
					id: 'information-we-collect',
					title: 'Information We Collect',
					body: (
						<>
							<p>We collect only what we need to run the program:</p>
							<ul>
								<li>
									<strong>Account details</strong>: your name, e-mail address and a secure hash of your password (never the password
									itself).
								</li>
								<li>
									<strong>Enrolment and payment records</strong>: the courses you join and the status of your payments. Card details go
									directly to our payment provider; we never see or store your card number.
								</li>
								<li>
									<strong>What you send us</strong>: contact form and waitlist messages, messages to instructors, and files you attach.
								</li>
								<li>
									<strong>Technical data</strong>: a session cookie that keeps you logged in, and basic server logs (such as IP address and
									browser type) used to keep the site secure.
								</li>
							</ul>
						</>
					),
				},
				{
					id: 'how-we-use',
					title: 'How We Use Your Information',
					body: (
						<>
							<ul>
								<li>to create and secure your account and confirm your e-mail address;</li>
								<li>to enrol you in courses, process payments and give you access to class materials;</li>
								<li>to answer your questions and let you know when a waitlisted course opens;</li>
								<li>to send service messages such as password resets and schedule changes;</li>
								<li>to prevent fraud and abuse, and to meet our legal obligations.</li>
							</ul>
							<p>We do not use your information for advertising, and we do not sell it.</p>
						</>
					),
				},
				{
					id: 'sharing',
					title: 'Sharing Your Information',
					body: (
						<>
							<p>We share personal information only with:</p>
							<ul>
								<li>
									service providers who help us run the site, such as our payment processor, hosting, file storage and e-mail delivery
									providers, under contracts that limit their use of it;
								</li>
								<li>your instructors and program administrators, who need it to teach and support you;</li>
								<li>authorities, when the law requires it or to protect the rights and safety of others.</li>
							</ul>
							<p>If our business is ever transferred, your information will stay protected by this policy.</p>
						</>
					),
				},
				{
					id: 'your-rights',
					title: 'Your Rights',
					body: (
						<>
							<p>You can see and update your name in your account settings at any time.</p>
							<p>
								<strong>Download my data.</strong> Under Settings, "Download my data" gives you one ZIP file with your profile, enrolments,
								payments (with refunds and instalment plans), the messages you sent and received, the work you handed in, your attendance,
								your certificates and your community posts, as JSON files, together with the original files you handed in and the files
								attached to your messages, and a README that explains each part. You can download it five times an hour.
							</p>
							<p>
								<strong>Delete my account.</strong> Under Settings, "Delete my account" asks for your password again and for your
								confirmation. It then signs you out on every device, and your account cannot be used again. Your profile, enrolments,
								attendance, certificates, handed-in work, messages sent to you, waitlist places and contact-form messages are removed, and
								your files are removed from our storage. Messages you sent to others stay with them, shown as from "Deleted user", and your
								community posts stay without your name. Payment records are kept without your name and e-mail address, as accounting law
								requires. While you are enrolled in a course, paying in instalments or in the middle of a checkout, please contact us to
								withdraw first; the school's only administrator cannot delete their own account.
							</p>
							<p>You may also ask us to correct your information, or to do any of this for you.</p>
							<p>
								To make a request or ask a question about your privacy, write to us at <a href={`mailto:${email}`}>{email}</a> or use our{' '}
								<Link to="/contact">contact form</Link>. We answer within 30 days.
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
	pageMeta('Privacy Policy', 'How we collect, use and protect your personal information, and the rights you have over it.')
