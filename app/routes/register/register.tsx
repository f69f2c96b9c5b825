import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { data, Form, Link, redirect, useFetcher, useNavigation, useSubmit } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { z } from 'zod'
import { AvailabilityBadge, CoursePrice, SpotsLeft } from '#app/components/course-availability.tsx'
import { AgreementCheckbox, AgreeToTermsSchema, ProgramAgreement } from '#app/components/enrollment-agreement.tsx'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { LiveSeatCounts } from '#app/components/live-seat-counts.tsx'
import { HoneypotField, isHoneypotFilled } from '#app/components/marketing/honeypot.tsx'
import { NameEmailFields } from '#app/components/name-email-fields.tsx'
import { PasswordField } from '#app/components/password-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { ErrorList } from '#app/components/ui/field.tsx'
import { WaitlistDialog } from '#app/components/waitlist-form.tsx'
import { type CourseWithAvailability, getCourseWithAvailability, listCoursesWithAvailability } from '#app/models/courses.server.ts'
import { CheckoutError } from '#app/models/payments.server.ts'
import {
	chooseDraftCourse,
	clearDraftCookieHeader,
	completeRegistration,
	draftCookieHeader,
	getDraft,
	RegistrationError,
	readDraftId,
	saveDraftDetails,
} from '#app/models/registration.server.ts'
import { SeatUnavailableError } from '#app/models/seats.server.ts'
import { emailIsRegistered } from '#app/models/users.server.ts'
import type { loader as coursesLoader } from '#app/routes/public/courses.tsx'
import { getPayments } from '#app/services/payments/index.server.ts'
import { getUser, startSession } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { cn, formatDateOnly } from '#app/utils/misc.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { clientAddress, consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { type ActionRequest, actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'
import { EmailSchema, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, NameSchema } from '#app/utils/user-validation.ts'
import type { Route } from './+types/register'

const PASSWORD_MESSAGE = 'Password must be at least 8 characters'

const DetailsSchema = z
	.object({
		intent: z.literal('details'),
		name: NameSchema,
		email: EmailSchema,
		password: z
			.string({ error: PASSWORD_MESSAGE })
			.min(MIN_PASSWORD_LENGTH, PASSWORD_MESSAGE)
			.max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
		confirmPassword: z.string({ error: 'Passwords do not match' }),
	})
	.refine((value) => value.password === value.confirmPassword, {
		message: 'Passwords do not match',
		path: ['confirmPassword'],
	})

const SELECT_COURSE_MESSAGE = 'Please select a course'

const CourseChoiceSchema = z.object({
	intent: z.literal('course'),
	courseId: rowIdSchema(SELECT_COURSE_MESSAGE),
})

const AgreementSchema = AgreeToTermsSchema.extend({ intent: z.literal('agree') })

const PASSWORD_FIELDS = ['password', 'confirmPassword']
const COURSE_FULL_MESSAGE = 'This course is now full. Please join our waitlist to be notified when spots become available.'
const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists. Please log in instead.'
const TOO_MANY_REGISTRATIONS_MESSAGE = 'Too many registrations from your network. Please wait an hour and try again.'

/** Each step has its own address; its form posts there, so a refused post shows the same step again. */
const STEP_PATH = { 1: '/register', 2: '/register?step=2', 3: '/register?step=3' } as const

function courseFullRedirect(courseId: number) {
	return redirectWithToast(`/register?step=2&full=${courseId}&dialog=waitlist`, {
		type: 'error',
		title: 'Course Full',
		description: COURSE_FULL_MESSAGE,
	})
}

function publicCourse(course: CourseWithAvailability) {
	const { id, title, description, startDate, registrationFee, capacity, taken, spotsLeft, isFull, isAlmostFull, tone } = course
	return { id, title, description, startDate, registrationFee, capacity, taken, spotsLeft, isFull, isAlmostFull, tone }
}

export async function loader({ request }: Route.LoaderArgs) {
	if (await getUser(request)) throw redirect('/dashboard')
	const url = new URL(request.url)
	const db = getDb()
	const draft = await getDraft(db, await readDraftId(request))
	const requested = url.searchParams.get('step')
	const step = requested === '2' ? 2 : requested === '3' ? 3 : 1

	if (step === 1) {
		return {
			step,
			details: draft ? { name: draft.name, email: draft.email, accountCreated: draft.userId !== null } : null,
		} as const
	}
	if (!draft) throw redirect(STEP_PATH[1])
	if (step === 2) {
		const courses = (await listCoursesWithAvailability(db)).map(publicCourse)
		const fullCourse = courses.find((course) => course.id === Number(url.searchParams.get('full')))
		const named = fullCourse ? { id: fullCourse.id, title: fullCourse.title } : null
		return {
			step,
			available: courses.filter((course) => !course.isFull),
			full: courses.filter((course) => course.isFull),
			selectedCourseId: draft.courseId,
			fullCourse: named,
			waitlist: url.searchParams.get('dialog') === 'waitlist' ? { course: named } : null,
		} as const
	}
	const course = draft.courseId ? await getCourseWithAvailability(db, draft.courseId) : null
	if (!course) throw redirect(STEP_PATH[2])
	return { step, course: publicCourse(course) } as const
}

export async function action(args: Route.ActionArgs) {
	const { request } = args
	const formData = await readFormData(request)
	switch (formData.get('intent')) {
		case 'details':
			return submitDetails(request, formData)
		case 'course':
			return submitCourse(request, formData)
		case 'agree':
			return submitAgreement(args, formData)
		default:
			throw data('Unknown registration step', { status: 400 })
	}
}

/** Step 1: validates the details and keeps them in the draft, the password only as its hash. */
async function submitDetails(request: Request, formData: FormData) {
	if (isHoneypotFilled(formData)) return redirect(STEP_PATH[1])
	const submission = parseWithZod(formData, { schema: DetailsSchema })
	if (submission.status !== 'success') {
		return data({ step: 1, result: submission.reply({ hideFields: PASSWORD_FIELDS }) }, { status: 400 })
	}
	const db = getDb()
	const limit = await consumeRateLimit('registrationDetails', clientAddress(request))
	if (!limit.allowed) {
		return data(
			{ step: 1, result: submission.reply({ formErrors: [TOO_MANY_REGISTRATIONS_MESSAGE], hideFields: PASSWORD_FIELDS }) },
			{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
		)
	}
	const draftId = await readDraftId(request)
	const draft = await getDraft(db, draftId)
	// Once step 3 has created the account, its details are settled.
	if (draft?.userId) return redirect(STEP_PATH[2])
	if (await emailIsRegistered(db, submission.value.email)) {
		return data(
			{
				step: 1,
				result: submission.reply({ fieldErrors: { email: [EMAIL_TAKEN_MESSAGE] }, hideFields: PASSWORD_FIELDS }),
			},
			{ status: 400 },
		)
	}
	const savedId = await saveDraftDetails(db, draftId, {
		name: submission.value.name,
		email: submission.value.email,
		passwordHash: await hashPassword(submission.value.password),
	})
	return redirect(STEP_PATH[2], { headers: { 'Set-Cookie': await draftCookieHeader(savedId) } })
}

/** Step 2: the choice is checked against the seats free right now. */
async function submitCourse(request: Request, formData: FormData) {
	const db = getDb()
	const draftId = await readDraftId(request)
	if (!draftId || !(await getDraft(db, draftId))) return redirect(STEP_PATH[1])
	const submission = parseWithZod(formData, { schema: CourseChoiceSchema })
	if (submission.status !== 'success') return data({ step: 2, result: submission.reply() }, { status: 400 })
	const course = await getCourseWithAvailability(db, submission.value.courseId)
	if (!course) {
		return data({ step: 2, result: submission.reply({ fieldErrors: { courseId: [SELECT_COURSE_MESSAGE] } }) }, { status: 400 })
	}
	if (course.isFull) return courseFullRedirect(course.id)
	await chooseDraftCourse(db, draftId, course.id)
	return redirect(STEP_PATH[3])
}

/**
 * Step 3: creates the account and either enrols (free course: the browser is
 * signed in and goes to the dashboard) or holds the seat and sends the
 * browser to the checkout (paid course).
 */
async function submitAgreement(args: ActionRequest, formData: FormData) {
	const { request } = args
	const db = getDb()
	const draftId = await readDraftId(request)
	const draft = await getDraft(db, draftId)
	if (!draftId || !draft) return redirect(STEP_PATH[1])
	if (!draft.courseId) return redirect(STEP_PATH[2])
	const submission = parseWithZod(formData, { schema: AgreementSchema })
	if (submission.status !== 'success') return data({ step: 3, result: submission.reply() }, { status: 400 })

	if (!draft.userId) {
		const limit = await consumeRateLimit('registration', clientAddress(request))
		if (!limit.allowed) {
			return data(
				{
					step: 3,
					result: submission.reply({
						formErrors: [TOO_MANY_REGISTRATIONS_MESSAGE],
					}),
				},
				{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
			)
		}
	}

	try {
		const outcome = await completeRegistration(db, getPayments(), draftId, { appUrl: getEnv().APP_URL })
		if (outcome.kind === 'checkout') return redirect(outcome.url, 303)
		const headers = new Headers()
		headers.append('Set-Cookie', await startSession(request, outcome.userId))
		headers.append('Set-Cookie', await clearDraftCookieHeader())
		return redirectWithToast(
			'/dashboard',
			{
				type: 'success',
				title: 'Registration Successful',
				description: `You are enrolled in ${outcome.courseTitle}. Please check your inbox to confirm your email address.`,
			},
			{ headers },
		)
	} catch (error) {
		if (error instanceof SeatUnavailableError) {
			if (error.reason === 'course-full') return courseFullRedirect(draft.courseId)
			return redirectWithToast(STEP_PATH[2], {
				type: 'error',
				title: 'Failed to complete registration: this course is no longer available.',
			})
		}
		if (error instanceof RegistrationError) {
			return error.reason === 'email-taken'
				? redirectWithToast(STEP_PATH[1], { type: 'error', title: `Failed to create account: ${EMAIL_TAKEN_MESSAGE}` })
				: redirect(STEP_PATH[1])
		}
		if (error instanceof CheckoutError) {
			return data(
				{ step: 3, result: submission.reply({ formErrors: [error.message] }) },
				{
					status: 502,
					headers: await actionToastHeaders(args, { type: 'error', title: 'Checkout Error', description: 'Failed to initiate payment' }),
				},
			)
		}
		throw error
	}
}

type StepResult = SubmissionResult<string[]> | undefined

export default function RegisterPage({ loaderData, actionData }: Route.ComponentProps) {
	const resultFor = (step: 1 | 2 | 3): StepResult => (actionData?.step === step ? actionData.result : undefined)
	const hideSteps = loaderData.step === 2 && loaderData.available.length === 0

	return (
		<div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
			<header className="text-center">
				<h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">Start Your Journey</h1>
				<p className="mt-2 text-slate-700">Create an account to join our real estate investment program.</p>
			</header>
			{hideSteps ? null : <StepIndicator current={loaderData.step} />}
			<section className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
				{loaderData.step === 1 ? (
					<DetailsStep details={loaderData.details} lastResult={resultFor(1)} />
				) : loaderData.step === 2 ? (
					<CourseStep data={loaderData} lastResult={resultFor(2)} />
				) : (
					<AgreementStep course={loaderData.course} lastResult={resultFor(3)} />
				)}
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
						<li key={label} aria-current={active ? 'step' : undefined} className="flex items-center gap-2 sm:gap-4">
							{index > 0 ? (
								<span aria-hidden="true" className={cn('h-px w-6 sm:w-12', done || active ? 'bg-brand-600' : 'bg-slate-300')} />
							) : null}
							<span className="flex items-center gap-2">
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

function useIntentSubmitting(intent: string) {
	const navigation = useNavigation()
	return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
}

function DetailsStep({
	details,
	lastResult,
}: {
	details: { name: string; email: string; accountCreated: boolean } | null
	lastResult: StepResult
}) {
	const submitting = useIntentSubmitting('details')
	const [form, fields] = useForm({
		id: 'register-details',
		lastResult,
		defaultValue: { name: details?.name ?? '', email: details?.email ?? '' },
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: DetailsSchema }),
	})

	if (details?.accountCreated) {
		return (
			<>
				<StepHeading title="Your Information" subtitle="Enter your details to continue with registration" />
				<Alert tone="info" title="Your account has been created">
					We created the account for {details.name} ({details.email}). Choose your course and complete your payment to finish registering.
				</Alert>
				<div className="mt-6 flex justify-end">
					<ButtonLink to={STEP_PATH[2]}>Continue</ButtonLink>
				</div>
			</>
		)
	}

	return (
		<>
			<StepHeading title="Your Information" subtitle="Enter your details to continue with registration" />
			{form.errors?.length ? (
				<Alert tone="error" className="mb-4">
					{form.errors[0]}
				</Alert>
			) : null}
			<Form method="post" action="/register" {...getFormProps(form)} className="relative space-y-4">
				<HoneypotField />
				<input type="hidden" name="intent" value="details" />
				<NameEmailFields name={fields.name} email={fields.email} />
				<PasswordField
					label="Password"
					errors={fields.password.errors}
					inputProps={{
						...getInputProps(fields.password, { type: 'password' }),
						name: fields.password.name,
						autoComplete: 'new-password',
						maxLength: MAX_PASSWORD_LENGTH,
					}}
				/>
				<PasswordField
					label="Confirm Password"
					errors={fields.confirmPassword.errors}
					inputProps={{
						...getInputProps(fields.confirmPassword, { type: 'password' }),
						name: fields.confirmPassword.name,
						autoComplete: 'new-password',
						maxLength: MAX_PASSWORD_LENGTH,
					}}
				/>
				<Button type="submit" className="w-full" disabled={submitting}>
					{submitting ? 'Processing...' : 'Continue'}
				</Button>
			</Form>
		</>
	)
}

type CourseStepData = Extract<Route.ComponentProps['loaderData'], { step: 2 }>
type ListedCourse = CourseStepData['available'][number]

/**
 * With JavaScript, choosing a course checks its seats at once (the list may be stale): a course
 * that filled up meanwhile is submitted, and the server answers as Continue would, with the
 * Course Full toast, the message and the waitlist.
 */
function useAvailabilityCheck() {
	const formRef = useRef<HTMLFormElement>(null)
	const availability = useFetcher<typeof coursesLoader>()
	const [chosenId, setChosenId] = useState<number | null>(null)
	const submit = useSubmit()
	const chosenIsFull = availability.state === 'idle' && Boolean(availability.data?.courses.find((course) => course.id === chosenId)?.isFull)
	useEffect(() => {
		const form = formRef.current
		const checked = form?.querySelector<HTMLInputElement>('input[type="radio"]:checked')
		if (form && chosenIsFull && checked?.value === String(chosenId)) void submit(form)
	}, [chosenIsFull, chosenId, submit])
	const onChange = (event: FormEvent<HTMLFormElement>) => {
		const input = event.target
		if (!(input instanceof HTMLInputElement) || input.type !== 'radio') return
		setChosenId(Number(input.value))
		void availability.load('/courses')
	}
	return { formRef, onChange }
}

function CourseStep({ data: stepData, lastResult }: { data: CourseStepData; lastResult: StepResult }) {
	const { available, full, selectedCourseId, fullCourse, waitlist } = stepData
	const checking = useIntentSubmitting('course')
	const availabilityCheck = useAvailabilityCheck()
	const [form, fields] = useForm({
		id: 'register-course',
		lastResult,
		defaultValue: { courseId: selectedCourseId ? String(selectedCourseId) : '' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CourseChoiceSchema }),
	})
	const stepUrl = fullCourse ? `/register?step=2&full=${fullCourse.id}` : STEP_PATH[2]
	const waitlistUrl = `${stepUrl}&dialog=waitlist`
	const listId = 'available-courses-heading'

	return (
		<>
			<LiveSeatCounts />
			<StepHeading title="Select a Course" subtitle="Choose a course to enroll in" />
			{fullCourse ? (
				<Alert tone="error" title={fullCourse.title} className="mb-6">
					{COURSE_FULL_MESSAGE}
				</Alert>
			) : null}

			{available.length === 0 ? (
				<EmptyState
					title="No Courses Available"
					description={
						full.length > 0
							? 'All of our courses are full right now. Join our waitlist to be notified when spots become available.'
							: 'No courses are open for registration right now. Join our waitlist to be notified when one opens.'
					}
					action={
						<ButtonLink to={waitlistUrl} preventScrollReset>
							Join Waitlist
						</ButtonLink>
					}
				/>
			) : (
				<Form
					ref={availabilityCheck.formRef}
					method="post"
					action={STEP_PATH[2]}
					{...getFormProps(form)}
					onChange={availabilityCheck.onChange}
					className="space-y-4"
				>
					<input type="hidden" name="intent" value="course" />
					<fieldset aria-labelledby={listId} aria-describedby={fields.courseId.errors ? fields.courseId.errorId : undefined}>
						<h3 id={listId} className="text-base font-semibold text-ink">
							Available Courses
						</h3>
						<ul className="mt-3 space-y-3">
							{available.map((course) => (
								<li key={course.id}>
									<SelectableCourse
										course={course}
										name={fields.courseId.name}
										defaultChecked={fields.courseId.initialValue === String(course.id)}
									/>
								</li>
							))}
						</ul>
						<ErrorList id={fields.courseId.errorId} errors={fields.courseId.errors} />
					</fieldset>
					<div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:items-center sm:justify-between">
						<ButtonLink to={STEP_PATH[1]} variant="outline">
							Back
						</ButtonLink>
						<Button type="submit" disabled={checking}>
							{checking ? 'Checking Availability...' : 'Continue'}
						</Button>
					</div>
				</Form>
			)}

			{full.length > 0 ? (
				<section aria-labelledby="full-courses-heading" className="mt-8">
					<h3 id="full-courses-heading" className="text-base font-semibold text-ink">
						Full Courses - Join Waitlist
					</h3>
					<ul className="mt-3 space-y-3">
						{full.map((course) => (
							<li key={course.id} className="rounded-xl border border-slate-200 bg-slate-50 p-4">
								<CourseSummary course={course} />
							</li>
						))}
					</ul>
				</section>
			) : null}

			<p className="mt-6 text-sm text-slate-700">
				Can't find a spot?{' '}
				<Link to={waitlistUrl} preventScrollReset className="font-semibold text-brand-700 underline-offset-4 hover:underline">
					Join our waitlist
				</Link>
			</p>
			{available.length === 0 ? (
				<div className="mt-6">
					<ButtonLink to={STEP_PATH[1]} variant="outline">
						Back
					</ButtonLink>
				</div>
			) : null}

			{waitlist ? <WaitlistDialog course={waitlist.course} closeTo={stepUrl} returnTo={STEP_PATH[2]} /> : null}
		</>
	)
}

function SelectableCourse({ course, name, defaultChecked }: { course: ListedCourse; name: string; defaultChecked: boolean }) {
	const id = `course-${course.id}`
	return (
		<label
			htmlFor={id}
			className={cn(
				'flex cursor-pointer gap-3 rounded-xl border border-slate-200 p-4 hover:border-brand-500',
				'has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-200',
			)}
		>
			{/* The draft holds the choice: on Back the browser must not restore one by position, as the list may have changed. */}
			<input
				id={id}
				type="radio"
				name={name}
				value={course.id}
				defaultChecked={defaultChecked}
				autoComplete="off"
				className="mt-1 size-4 text-brand-700"
			/>
			<CourseSummary course={course} />
		</label>
	)
}

function CourseSummary({ course }: { course: ListedCourse }) {
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
				<span className="text-slate-700">Starts {formatDateOnly(course.startDate, 'to be announced')}</span>
				<SpotsLeft availability={course} />
			</span>
		</span>
	)
}

function AgreementStep({
	course,
	lastResult,
}: {
	course: Extract<Route.ComponentProps['loaderData'], { step: 3 }>['course']
	lastResult: StepResult
}) {
	const hydrated = useHydrated()
	const [agreed, setAgreed] = useState(false)
	const submitting = useIntentSubmitting('agree')
	const [form, fields] = useForm({
		id: 'register-agreement',
		lastResult,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: AgreementSchema }),
	})
	const isFree = course.registrationFee === 0

	return (
		<>
			<StepHeading title="Real Estate Mentorship Program Agreement" />
			<p className="mb-4 text-sm text-slate-700">
				Selected course: <strong className="text-ink">{course.title}</strong> — <CoursePrice cents={course.registrationFee} />
			</p>
			{form.errors?.length ? (
				<Alert tone="error" className="mb-4">
					{form.errors[0]}
				</Alert>
			) : null}
			<ProgramAgreement courseTitle={course.title} feeCents={course.registrationFee} />
			<Form method="post" action={STEP_PATH[3]} {...getFormProps(form)} className="mt-5 space-y-5">
				<input type="hidden" name="intent" value="agree" />
				<AgreementCheckbox field={fields.agreeToTerms} onAgreedChange={setAgreed} />
				<div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
					<ButtonLink to={STEP_PATH[2]} variant="outline">
						Back
					</ButtonLink>
					<Button type="submit" disabled={submitting || (hydrated && !agreed)}>
						{submitting ? 'Processing...' : isFree ? 'Register Now' : 'Proceed to Payment'}
					</Button>
				</div>
			</Form>
		</>
	)
}

export const meta: Route.MetaFunction = () => [
	{ title: 'Register | Real Estate Mentorship' },
	{ name: 'description', content: 'Create an account and enrol in our small-group online real estate investment program.' },
]

export function ErrorBoundary() {
	return (
		<div className="mx-auto max-w-2xl px-4 py-16">
			<GeneralErrorBoundary />
		</div>
	)
}
