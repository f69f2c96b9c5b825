import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { data, Form, href, Link, redirect, useFetcher, useSubmit } from 'react-router'
import { z } from 'zod'
import { LiveSeatCounts } from '#app/components/live-seat-counts.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { ErrorList } from '#app/components/ui/field.tsx'
import { WaitlistDialog } from '#app/components/waitlist-form.tsx'
import { getCourseWithAvailability, listCoursesWithAvailability } from '#app/models/courses/courses.server.ts'
import type { CourseWithAvailability } from '#app/models/courses/courses.ts'
import { chooseDraftCourse, getDraft } from '#app/models/enrollment/registration.server.ts'
import { COURSE_FULL_MESSAGE } from '#app/models/enrollment/registration.ts'
import { getUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { cn } from '#app/utils/misc.ts'
import { parseRowId, rowIdSchema } from '#app/utils/row-id.ts'
import { readDraftId } from './+shared/draft-cookie.server.ts'
import { courseFullRedirect, publicCourse } from './+shared/wizard.server.ts'
import {
	CourseSummary,
	type ListedCourse,
	RegisterErrorBoundary,
	RegisterFrame,
	registerMeta,
	STEP_PATH,
	type StepResult,
	useIntentSubmitting,
} from './+shared/wizard.tsx'
import type { Route } from './+types/course'

const SELECT_COURSE_MESSAGE = 'Please select a course'

const CourseChoiceSchema = z.object({
	intent: z.literal('course'),
	courseId: rowIdSchema(SELECT_COURSE_MESSAGE),
})

/** Step 2 of registration: the courses with their seats; `?full=` names a course that filled up, `?dialog=waitlist` opens the waitlist. */
export async function loader({ request }: Route.LoaderArgs) {
	if (await getUser(request)) throw redirect(href('/dashboard'))
	const url = new URL(request.url)
	const db = getDb()
	const draft = await getDraft(db, await readDraftId(request))
	if (!draft) throw redirect(STEP_PATH[1])
	const courses = (await listCoursesWithAvailability(db)).map(publicCourse)
	const fullId = parseRowId(url.searchParams.get('full'))
	const fullCourse = courses.find((course) => course.id === fullId)
	const named = fullCourse ? { id: fullCourse.id, title: fullCourse.title } : null
	return {
		available: courses.filter((course) => !course.isFull),
		full: courses.filter((course) => course.isFull),
		selectedCourseId: draft.courseId,
		fullCourse: named,
		// The waitlist takes the name and e-mail given in step 1.
		waitlist: url.searchParams.get('dialog') === 'waitlist' ? { course: named, known: { name: draft.name, email: draft.email } } : null,
	}
}

/** The choice is checked against the seats free right now. */
export async function action({ request }: Route.ActionArgs) {
	const formData = await readFormData(request)
	const db = getDb()
	const draftId = await readDraftId(request)
	if (!draftId || !(await getDraft(db, draftId))) return redirect(STEP_PATH[1])
	const submission = parseWithZod(formData, { schema: CourseChoiceSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const course = await getCourseWithAvailability(db, submission.value.courseId)
	if (!course) {
		return data({ result: submission.reply({ fieldErrors: { courseId: [SELECT_COURSE_MESSAGE] } }) }, { status: 400 })
	}
	if (course.isFull) return courseFullRedirect(course.id)
	await chooseDraftCourse(db, draftId, course.id)
	return redirect(STEP_PATH[3])
}

/**
 * With JavaScript, choosing a course checks its seats at once (the list may be stale): a course
 * that filled up meanwhile is submitted, and the server answers as Continue would, with the
 * Course Full toast, the message and the waitlist.
 */
function useAvailabilityCheck() {
	const formRef = useRef<HTMLFormElement>(null)
	const availability = useFetcher<{ courses: CourseWithAvailability[] }>()
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

export default function CourseStep({ loaderData, actionData }: Route.ComponentProps) {
	const { available, full, selectedCourseId, fullCourse, waitlist } = loaderData
	const lastResult: StepResult = actionData?.result
	const checking = useIntentSubmitting('course')
	const availabilityCheck = useAvailabilityCheck()
	const [form, fields] = useForm({
		id: 'register-course',
		lastResult,
		defaultValue: { courseId: selectedCourseId ? String(selectedCourseId) : '' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CourseChoiceSchema }),
	})
	const stepUrl = fullCourse ? `${STEP_PATH[2]}?full=${fullCourse.id}` : STEP_PATH[2]
	const waitlistUrl = `${stepUrl}${fullCourse ? '&' : '?'}dialog=waitlist`
	const listId = 'available-courses-heading'

	return (
		<RegisterFrame step={2} title="Select a Course" subtitle="Choose a course to enroll in" hideSteps={available.length === 0}>
			{waitlist ? <WaitlistDialog course={waitlist.course} closeTo={stepUrl} returnTo={STEP_PATH[2]} known={waitlist.known} /> : null}
			<LiveSeatCounts />
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
					// The draft holds the choice: on Back the browser must not restore one by position, as the list may have changed.
					autoComplete="off"
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
		</RegisterFrame>
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
			<input id={id} type="radio" name={name} value={course.id} defaultChecked={defaultChecked} className="mt-1 size-4 text-brand-700" />
			<CourseSummary course={course} />
		</label>
	)
}

export const meta: Route.MetaFunction = registerMeta

export const ErrorBoundary = RegisterErrorBoundary
