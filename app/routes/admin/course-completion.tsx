import { parseWithZod } from '@conform-to/zod/v4'
import { data, href } from 'react-router'
import { z } from 'zod'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { CompletionRoster, CompletionRuleForm, CompletionSchedule } from '#app/components/admin/course-completion.tsx'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { COMPLETION_MESSAGES, CompletionRuleSchema } from '#app/models/enrollment/completion.ts'
import { getCourseCompletion, saveCompletionRule, setCompletionByHand } from '#app/models/enrollment/completion-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { parseRowId, rowIdSchema } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { courseIdOf, findCourse } from './+shared/course-access.server.ts'
import type { Route } from './+types/course-completion'

const ActionSchema = z.discriminatedUnion('intent', [
	CompletionRuleSchema,
	z.object({ intent: z.literal('complete'), enrollmentId: rowIdSchema() }),
	z.object({ intent: z.literal('reopen'), enrollmentId: rowIdSchema() }),
])

function completionOf(courseId: string) {
	return findCourse(courseId, (id) => getCourseCompletion(getDb(), id))
}

function pathOf(courseId: number) {
	return href('/dashboard/admin/courses/:courseId/completion', { courseId: String(courseId) })
}

/** One course's completion: its rule, when it is applied, and each student against it, to complete or reopen by hand. */
export async function loader({ request, params }: Route.LoaderArgs) {
	await requireAdmin(request)
	const completion = await completionOf(params.courseId)
	const confirm = new URL(request.url).searchParams.get('confirm')
	const reopenId = parseRowId(confirm?.match(/^reopen-(.+)$/)?.[1])
	const reopening = completion.students.find((student) => student.enrollmentId === reopenId && student.status === 'completed')
	return { ...completion, reopening: reopening ?? null }
}

export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const courseId = courseIdOf(params.courseId)
	const back = pathOf(courseId)
	const submission = parseWithZod(await readFormData(request), { schema: ActionSchema })
	if (submission.status !== 'success') {
		if (submission.payload.intent === 'rule') return data({ result: submission.reply() }, { status: 400 })
		return redirectWithToast(back, { type: 'error', title: 'That change could not be made' })
	}
	const db = getDb()
	const value = submission.value
	if (value.intent === 'rule') {
		if (!(await saveCompletionRule(db, admin.id, { courseId, values: value }))) throw data('Course Not Found', { status: 404 })
		return redirectWithToast(back, { type: 'success', title: COMPLETION_MESSAGES.saved })
	}
	const outcome = await setCompletionByHand(db, admin.id, {
		courseId,
		enrollmentId: value.enrollmentId,
		change: value.intent,
	})
	if (outcome === 'completed') {
		return redirectWithToast(back, {
			type: 'success',
			title: 'Marked completed',
			description: 'Their certificate is on its way by e-mail.',
		})
	}
	if (outcome === 'reopened') {
		return redirectWithToast(back, {
			type: 'success',
			title: 'Enrollment reopened',
			description: 'It is active again; its certificate was revoked.',
		})
	}
	return redirectWithToast(back, {
		type: 'error',
		title: 'That change could not be made',
		description: outcome === 'not-found' ? 'That enrollment is not in this course.' : 'It was made already.',
	})
}

export default function CourseCompletionPage({ loaderData, actionData }: Route.ComponentProps) {
	const { course, rule, students, reopening } = loaderData
	const back = pathOf(course.id)
	useLiveRevalidation(['enrollment.changed', 'course.changed'])
	return (
		<>
			{reopening ? (
				<ConfirmDialog
					title="Reopen Enrollment"
					description={`Reopen ${reopening.name || reopening.email}'s completed enrollment in ${course.title}? It becomes active again and their certificate is revoked; completing them again issues a new one.`}
					closeTo={back}
					fields={{ intent: 'reopen', enrollmentId: String(reopening.enrollmentId) }}
					confirmLabel="Reopen"
					busyLabel="Reopening..."
				/>
			) : null}
			<h1 className="text-2xl font-bold text-ink">Completion of {course.title}</h1>
			<CompletionSchedule endsAt={course.endsAt} evaluatedAt={course.evaluatedAt} />
			<CompletionRuleForm rule={rule} action={back} lastResult={actionData?.result} />
			<h2 className="text-lg font-semibold text-ink">Students</h2>
			<CompletionRoster students={students} confirmPath={(query) => `${back}?${query}`} />
		</>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
	{ title: `Completion${loaderData ? ` of ${loaderData.course.title}` : ''} | Admin` },
]

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
