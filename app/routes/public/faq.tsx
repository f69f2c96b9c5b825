import { Link } from 'react-router'
import { Icon } from '#app/components/marketing/icons.tsx'
import { PageHero } from '#app/components/marketing/page-hero.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { pageMeta } from '#app/utils/page-meta.ts'
import { SHARED_PAGE_OF_CODE, STATIC_FOR_VISITORS, useContactEmail } from '#app/utils/root-data.ts'
import type { Route } from './+types/faq'

export default function Faq() {
	const email = useContactEmail()
	const questions = [
		{
			question: 'What is this platform?',
			answer: (
				<>
					<p>
						It is the home of our online real-estate investing mentorship: an 8-week, small-group program that teaches first-time investors
						to buy, rehab, rent and refinance property.
					</p>
					<p>
						Enrolled students use their dashboard to join the weekly live session, download class materials, watch recordings and message
						their instructor.
					</p>
				</>
			),
		},
		{
			question: 'Who can enroll?',
			answer: (
				<>
					<p>
						Anyone who wants to start investing in real estate can enroll; no previous experience is needed. Most students are buying their
						first or second property.
					</p>
					<p>
						Create an account, choose an open course and complete registration. When a course is full you can join the waitlist and we will
						let you know when a spot opens.
					</p>
				</>
			),
		},
		{
			question: 'Is my personal information safe?',
			answer: (
				<>
					<p>
						Yes. Your password is stored only as a secure hash, every page is served over an encrypted connection, and card payments are
						handled by our payment provider, so we never see or store your card number.
					</p>
					<p>
						We use your information only to run the program and never sell it. Read our <Link to="/privacy">Privacy Policy</Link> for the
						details.
					</p>
				</>
			),
		},
		{
			question: 'Who do I contact for support?',
			answer: (
				<p>
					Write to us at <a href={`mailto:${email}`}>{email}</a> or use our <Link to="/contact">contact form</Link>. We reply within one
					business day. Enrolled students can also message their instructor from the dashboard.
				</p>
			),
		},
	]

	return (
		<>
			<PageHero
				eyebrow="Help center"
				title="Frequently Asked Questions"
				description="Quick answers about the program, enrolment and your account."
			/>
			<div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
				{/* Sharing name="faq" makes the <details> exclusive: opening one closes the others, without JavaScript. */}
				<div className="divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
					{questions.map((item) => (
						<details key={item.question} name="faq" className="group">
							<summary className="flex cursor-pointer items-center justify-between gap-4 px-5 py-4 text-left hover:bg-slate-50 sm:px-6 sm:py-5">
								<h2 className="text-base font-semibold text-ink sm:text-lg">{item.question}</h2>
								<span
									aria-hidden="true"
									className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 transition-transform group-open:rotate-45"
								>
									<Icon name="plus" strokeWidth={2.2} className="size-4" />
								</span>
							</summary>
							<div className="space-y-3 px-5 pb-5 leading-relaxed text-slate-700 sm:px-6 [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline">
								{item.answer}
							</div>
						</details>
					))}
				</div>

				<div className="mt-10 flex flex-col items-start gap-4 rounded-2xl bg-brand-50 p-6 ring-1 ring-brand-100 sm:flex-row sm:items-center sm:justify-between">
					<div>
						<h2 className="font-semibold text-ink">Still have questions?</h2>
						<p className="mt-1 text-sm text-slate-700">We are happy to help you decide whether the program is right for you.</p>
					</div>
					<ButtonLink to="/contact">Contact Us</ButtonLink>
				</div>
			</div>
		</>
	)
}

export const handle = { ...STATIC_FOR_VISITORS, ...SHARED_PAGE_OF_CODE }

export const meta: Route.MetaFunction = () =>
	pageMeta(
		'Frequently Asked Questions',
		'Answers to common questions about our real-estate mentorship: what the platform is, who can enroll, data safety and support.',
	)
