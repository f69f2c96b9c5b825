import { href } from 'react-router'
import type { CourseState } from '#app/models/courses/course-state.ts'
import { CancelCheckoutForm } from './cancel-checkout-form.tsx'
import { LocalDate } from './local-date.tsx'
import { ButtonLink } from './ui/button.tsx'

/**
 * A signed-in person's standing with a course, where the course page would otherwise sell
 * them a seat: enrolled (go to the course), payment pending (finish paying), inactive, or
 * on the waitlist. Renders nothing for someone with no tie to the course.
 */
export function CourseStatePanel({ state, course }: { state: CourseState; course: { id: number; isFull: boolean; path: string } }) {
	switch (state.kind) {
		case 'none':
			return null
		case 'enrolled':
			return (
				<StateBox title="You're enrolled in this course">
					<ButtonLink to={`${href('/dashboard')}?course=${course.id}`} size="lg" className="mt-4 w-full">
						Go to Your Course
					</ButtonLink>
				</StateBox>
			)
		case 'payment-pending':
			return (
				<StateBox title="Payment pending">
					{!state.canPay ? (
						<p>Your enrollment is waiting for payment. We will confirm it once your payment is received.</p>
					) : state.heldUntil ? (
						<p>
							Your spot is held until <LocalDate value={state.heldUntil} time />. Complete your payment to finish enrolling.
						</p>
					) : course.isFull ? (
						<p>Your payment was not completed, and the course has filled up since. Join the waitlist to hear when a spot opens.</p>
					) : (
						<p>Your payment was not completed, so you are not enrolled yet. Complete your payment to take your spot.</p>
					)}
					{state.canPay && (state.heldUntil || !course.isFull) ? (
						<ButtonLink to={`${course.path}?dialog=purchase`} preventScrollReset size="lg" className="mt-4 w-full">
							Complete Payment
						</ButtonLink>
					) : null}
					{state.canPay && state.heldUntil ? <CancelCheckoutForm action={`${course.path}/enroll`} className="mt-2" /> : null}
				</StateBox>
			)
		case 'inactive':
			return (
				<StateBox title="Your enrollment is inactive">
					<p>Your enrollment in this course is no longer active. Contact us if you would like to rejoin.</p>
					<ButtonLink to="/contact" variant="outline" size="lg" className="mt-4 w-full">
						Contact Us
					</ButtonLink>
				</StateBox>
			)
		case 'waitlisted':
			return (
				<StateBox title={state.offerExpiresAt ? 'A seat is held for you' : "You're on the waitlist"}>
					{state.offerExpiresAt ? (
						<p>
							A seat is yours until <LocalDate value={state.offerExpiresAt} time />: follow the link in the e-mail we sent you to claim it.
						</p>
					) : (
						<p>
							You asked to join the waitlist on <LocalDate value={state.since} />.{' '}
							{state.position ? `You are number ${state.position} in line. ` : ''}
							{course.isFull ? 'We will let you know when a spot opens.' : 'A spot is open now: you can secure it below.'}
						</p>
					)}
				</StateBox>
			)
	}
}

function StateBox({ title, children }: { title: string; children: React.ReactNode }) {
	return (
		<div role="status" className="mt-6 rounded-lg border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900">
			<p className="font-semibold">{title}</p>
			<div className="mt-1">{children}</div>
		</div>
	)
}
