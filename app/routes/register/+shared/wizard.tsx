import type { SubmissionResult } from '@conform-to/react'
import { Form, Link, useNavigation } from 'react-router'
import { AvailabilityBadge, CoursePrice, SpotsLeft } from '#app/components/course-availability.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { Button } from '#app/components/ui/button.tsx'
import type { Availability } from '#app/models/courses/courses.ts'
import { cn, formatDateOnly } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'

/** Each step has its own address; its form posts there, so a refused post shows the same step again. */
export const STEP_PATH = { 1: '/register', 2: '/register/course', 3: '/register/agreement' } as const

export type StepResult = SubmissionResult<string[]> | undefined

export const START_OVER_INTENT = 'start-over'

/** Drops the draft (step 1's action) so that the registration begins again, the same e-mail allowed. */
export function StartOverForm() {
	return (
		<Form method="post" action={STEP_PATH[1]}>
			<input type="hidden" name="intent" value={START_OVER_INTENT} />
			<Button type="submit" variant="outline" className="w-full sm:w-auto">
				Start Over
			</Button>
		</Form>
	)
}

/** A course as the wizard lists it. */
export type ListedCourse = Availability & {
	id: number
	title: string
	description: string
	startDate: string | null
	endDate: string | null
	registrationFee: number
	capacity: number
	/** 'Tuesdays 7 pm ET, 8 sessions from 13 Jan', or null without a weekly schedule. */
	schedule: string | null
}

/** The page around every step: title, progress, the step's card and the login link. */
export function RegisterFrame({
	step,
	title,
	subtitle,
	hideSteps = false,
	children,
}: {
	step: 1 | 2 | 3
	title: string
	subtitle?: string
	hideSteps?: boolean
	children: React.ReactNode
}) {
	return (
		<div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
			<header className="text-center">
				<h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">Start Your Journey</h1>
				<p className="mt-2 text-slate-700">Create an account to join our real estate investment program.</p>
			</header>
			{hideSteps ? null : <StepIndicator current={step} />}
			<section className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
				<StepHeading title={title} subtitle={subtitle} />
				{children}
			</section>
			<p className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-4 text-center text-sm text-slate-700">
				Already have an account?{' '}
				<Link to="/login" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
					Login here
				</Link>
			</p>
		</div>
	)
}

const STEPS = ['Your Information', 'Select a Course', 'Agreement'] as const

function StepIndicator({ current }: { current: 1 | 2 | 3 }) {
	return (
		<nav aria-label="Registration progress" className="mt-8">
			<ol className="flex items-center justify-center gap-2 sm:gap-4">
				{STEPS.map((label, index) => {
					const number = index + 1
					const done = number < current
					const active = number === current
					return (
						<li key={label} aria-current={active ? 'step' : undefined} className="inline-flex items-center gap-2 sm:gap-4">
							{index > 0 ? (
								<span aria-hidden="true" className={cn('h-px w-6 sm:w-12', done || active ? 'bg-brand-600' : 'bg-slate-300')} />
							) : null}
							<span className="inline-flex items-center gap-2">
								<span
									aria-hidden="true"
									className={cn(
										'flex size-8 items-center justify-center rounded-full text-sm font-semibold',
										active ? 'bg-brand-700 text-white' : done ? 'bg-brand-100 text-brand-800' : 'bg-slate-200 text-slate-700',
									)}
								>
									{done ? '✓' : number}
								</span>
								<span className={cn('text-sm', active ? 'font-semibold text-ink' : 'text-slate-700', !active && 'sr-only sm:not-sr-only')}>
									<span className="sr-only">
										Step {number}
										{done ? ' (done)' : ''}:{' '}
									</span>
									{label}
								</span>
							</span>
						</li>
					)
				})}
			</ol>
		</nav>
	)
}

function StepHeading({ title, subtitle }: { title: string; subtitle?: string }) {
	return (
		<div className="mb-6">
			<h2 className="text-xl font-semibold text-ink">{title}</h2>
			{subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
		</div>
	)
}

export function useIntentSubmitting(intent: string) {
	const navigation = useNavigation()
	return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
}

export function CourseSummary({ course }: { course: ListedCourse }) {
	return (
		<span className="block flex-1">
			<span className="flex flex-wrap items-start justify-between gap-2">
				<span className="font-semibold text-ink">{course.title}</span>
				<span className="flex items-center gap-2">
					<AvailabilityBadge availability={course} />
					<CoursePrice cents={course.registrationFee} />
				</span>
			</span>
			{course.description ? <span className="mt-1 line-clamp-2 block text-sm text-slate-700">{course.description}</span> : null}
			<span className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
				<span className="text-slate-700">
					{course.schedule ? `Live sessions: ${course.schedule}` : `Starts ${formatDateOnly(course.startDate, 'to be announced')}`}
				</span>
				<SpotsLeft availability={course} />
			</span>
		</span>
	)
}

export const registerMeta = () => [
	...pageTitle('Register'),
	{ name: 'description', content: 'Create an account and enrol in our small-group online real estate investment program.' },
]

/** What an error on a page of the register area shows, at the width of its forms. */
export function RegisterErrorBoundary() {
	return (
		<div className="mx-auto max-w-2xl px-4 py-16">
			<GeneralErrorBoundary />
		</div>
	)
}
