import { parseWithZod } from '@conform-to/zod/v4'
import { data, href } from 'react-router'
import { AuthCard } from '#app/components/auth/auth-card.tsx'
import { WaitlistForm } from '#app/components/waitlist-form.tsx'
import { getCourseWithAvailability } from '#app/models/courses/courses.server.ts'
import { joinWaitlist } from '#app/models/enrollment/waitlist.server.ts'
import { DEFAULT_PROGRAM, WaitlistSchema, waitlistDescription, waitlistJoinedDescription } from '#app/models/enrollment/waitlist.ts'
import { getUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { HONEYPOT_REFUSAL, isHoneypotFilled } from '#app/utils/honeypot.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { clientAddress, consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { safeRedirectPath } from '#app/utils/safe-redirect.ts'
import { actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'
import { RegisterErrorBoundary } from './+shared/wizard.tsx'
import type { Route } from './+types/waitlist'

const CourseIdSchema = rowIdSchema()

async function joinedToast(course: { title: string } | null) {
	const anyCourse =
		course !== null ||
		(await getDb().selectFrom('courses').select('id').where('published', '=', true).limit(1).executeTakeFirst()) !== undefined
	return {
		type: 'success',
		title: 'Waitlist Joined',
		description: waitlistJoinedDescription({ courseTitle: course?.title ?? null, anyCourse }),
	} as const
}

const alreadyEnrolledToast = { type: 'info', title: 'You are already enrolled in this course.' } as const

async function findCourse(id: unknown) {
	const parsed = CourseIdSchema.safeParse(id)
	if (!parsed.success) return null
	const course = await getCourseWithAvailability(getDb(), parsed.data)
	return course ? { id: course.id, title: course.title } : null
}

/** The waitlist as a page: where the dialog's form lands without JavaScript, and a link target of its own. */
export async function loader({ request }: Route.LoaderArgs) {
	const url = new URL(request.url)
	return {
		course: await findCourse(url.searchParams.get('course')),
		returnTo: safeRedirectPath(url.searchParams.get('returnTo'), '/courses'),
	}
}

/**
 * A signed-in user lands on the dashboard (the spec); a visitor, who has no
 * dashboard, goes back to the page the waitlist was opened from.
 */
export async function action(args: Route.ActionArgs) {
	const { request } = args
	const formData = await readFormData(request)
	const user = await getUser(request)
	const returnTo = safeRedirectPath(formData.get('returnTo'), '/courses')
	const target = user ? href('/dashboard') : returnTo
	const submission = parseWithZod(formData, { schema: WaitlistSchema })
	// The page that renders a refused post (without JavaScript) keeps the course and the way back.
	const course = await findCourse(formData.get('courseId'))
	if (isHoneypotFilled(formData)) {
		return data({ result: submission.reply({ formErrors: [HONEYPOT_REFUSAL] }), course, returnTo }, { status: 400 })
	}
	if (submission.status !== 'success') return data({ result: submission.reply(), course, returnTo }, { status: 400 })

	const db = getDb()
	// A signed-in user is limited on their own, so people behind one shared address do not use up each other's requests.
	const limit = await consumeRateLimit('waitlist', user ? `user:${user.id}` : `address:${clientAddress(request)}`)
	if (!limit.allowed) {
		return data(
			{ result: submission.reply({ formErrors: ['Too many requests. Please wait a few minutes and try again.'] }), course, returnTo },
			{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
		)
	}
	let joined: Awaited<ReturnType<typeof joinWaitlist>>
	try {
		joined = await joinWaitlist(db, {
			...submission.value,
			// A place belongs to an address: a signed-in user's request is for their own (docs/decisions/041).
			email: user?.email ?? submission.value.email,
			program: course?.title ?? DEFAULT_PROGRAM,
			courseId: course?.id ?? null,
			userId: user?.id ?? null,
		})
	} catch (error) {
		console.error('[waitlist] could not store a request:', error instanceof Error ? error.message : error)
		const message = 'There was an error adding you to the waitlist. Please try again.'
		return data(
			{ result: submission.reply({ formErrors: [message] }), course, returnTo },
			{ status: 503, headers: await actionToastHeaders(args, { type: 'error', title: 'Error', description: message }) },
		)
	}
	// A visitor gets the same answer whatever the address (the address itself is told by e-mail where it stands); a
	// signed-in user asked about their own, and may be told.
	return redirectWithToast(target, user && joined.kind === 'enrolled' ? alreadyEnrolledToast : await joinedToast(course))
}

export default function WaitlistPage({ loaderData, actionData }: Route.ComponentProps) {
	const { course, returnTo } = actionData ?? loaderData
	return (
		<AuthCard title="Join Our Waitlist" subtitle={waitlistDescription(course)}>
			<WaitlistForm course={course} returnTo={returnTo} cancelTo={returnTo} lastResult={actionData?.result} />
		</AuthCard>
	)
}

export const meta: Route.MetaFunction = () => [
	...pageTitle('Join Our Waitlist'),
	{ name: 'description', content: 'Sign up to be notified when a spot in our real estate investment programs opens.' },
]

export const ErrorBoundary = RegisterErrorBoundary
