import { parseWithZod } from '@conform-to/zod/v4'
import { data, href } from 'react-router'
import { z } from 'zod'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { WaitlistQueue } from '#app/components/waitlist/admin-queue.tsx'
import { OfferHoursSchema } from '#app/models/enrollment/waitlist.ts'
import {
	listCourseWaitlist,
	moveWaitlistEntry,
	offerSeatByHand,
	removeWaitlistEntry,
	setOfferHours,
} from '#app/models/enrollment/waitlist-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { findCourse, requireCourseStaff } from './+shared/course-access.server.ts'
import type { Route } from './+types/course-waitlist'

const EntrySchema = z.object({ entryId: rowIdSchema() })
const ActionSchema = z.discriminatedUnion('intent', [
	EntrySchema.extend({ intent: z.literal('move'), direction: z.enum(['up', 'down']) }),
	EntrySchema.extend({ intent: z.literal('remove') }),
	EntrySchema.extend({ intent: z.literal('offer') }),
	OfferHoursSchema,
])

function queueOf(courseId: string) {
	return findCourse(courseId, (id) => listCourseWaitlist(getDb(), id))
}

/**
 * One course's waitlist queue: reorder, remove, offer a seat by hand, and the offer time, for
 * admins; the course's instructors read it (docs/decisions/056), another course's get 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const { user } = await requireCourseStaff(request, params.courseId)
	const queue = await queueOf(params.courseId)
	const url = new URL(request.url)
	const [kind, id] = (url.searchParams.get('confirm') ?? '').split('-')
	const confirming = queue.live.find((entry) => String(entry.id) === id && (kind === 'remove' || kind === 'offer'))
	const confirm = user.isAdmin && confirming ? { kind: kind as 'remove' | 'offer', entry: confirming } : null
	return { ...queue, confirm, readOnly: !user.isAdmin }
}

/** Changing the queue stays the admin's: an instructor reads it only. */
export async function action({ request, params }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const { course } = await queueOf(params.courseId)
	const back = href('/dashboard/admin/courses/:courseId/waitlist', { courseId: String(course.id) })
	const submission = parseWithZod(await readFormData(request), { schema: ActionSchema })
	if (submission.status !== 'success') {
		if (submission.payload.intent === 'offer-hours') return data({ result: submission.reply() }, { status: 400 })
		return redirectWithToast(back, { type: 'error', title: 'That change could not be made' })
	}
	const db = getDb()
	const value = submission.value
	if (value.intent === 'offer-hours') {
		await setOfferHours(db, admin.id, { courseId: course.id, hours: value.hours })
		return redirectWithToast(back, {
			type: 'success',
			title: 'Offer time saved',
			description: `New offers hold a seat for ${value.hours} hours.`,
		})
	}
	const input = { courseId: course.id, entryId: value.entryId }
	if (value.intent === 'move') {
		const moved = await moveWaitlistEntry(db, admin.id, { ...input, direction: value.direction })
		return moved
			? redirectWithToast(back, { type: 'success', title: value.direction === 'up' ? 'Moved up' : 'Moved down' })
			: redirectWithToast(back, { type: 'error', title: 'That entry cannot move that way' })
	}
	if (value.intent === 'remove') {
		const removed = await removeWaitlistEntry(db, admin.id, input)
		return removed
			? redirectWithToast(back, { type: 'success', title: 'Removed from the waitlist' })
			: redirectWithToast(back, { type: 'error', title: 'That entry is no longer on the waitlist' })
	}
	const offered = await offerSeatByHand(db, admin.id, input)
	if (offered.kind !== 'offered') return redirectWithToast(back, { type: 'error', title: 'That person is no longer waiting' })
	return redirectWithToast(back, {
		type: 'success',
		title: 'Seat offered',
		description: offered.capacityRaisedTo ? `The capacity is now ${offered.capacityRaisedTo}.` : 'The offer e-mail is on its way.',
	})
}

export default function CourseWaitlistPage({ loaderData, actionData }: Route.ComponentProps) {
	const { course, live, ended, confirm, readOnly } = loaderData
	const back = href('/dashboard/admin/courses/:courseId/waitlist', { courseId: String(course.id) })
	useLiveRevalidation(['enrollment.changed', 'course.changed'])
	const full = course.taken >= course.capacity
	return (
		<>
			{confirm?.kind === 'remove' ? (
				<ConfirmDialog
					title="Remove from Waitlist"
					description={`Remove ${confirm.entry.name} (${confirm.entry.email}) from the waitlist of ${course.title}?${confirm.entry.status === 'offered' ? ' The seat offered to them goes to the next person.' : ''}`}
					closeTo={back}
					fields={{ intent: 'remove', entryId: String(confirm.entry.id) }}
					confirmLabel="Remove"
					busyLabel="Removing..."
				/>
			) : null}
			{confirm?.kind === 'offer' ? (
				<ConfirmDialog
					title="Offer a Seat"
					description={`Offer ${confirm.entry.name} a seat in ${course.title} now, ahead of the line? ${full ? `No seat is free, so the capacity goes from ${course.capacity} to ${course.taken + 1}.` : 'A free seat is held for them.'} The offer holds it for ${course.offerHours} hours.`}
					closeTo={back}
					fields={{ intent: 'offer', entryId: String(confirm.entry.id) }}
					confirmLabel="Offer Seat"
					busyLabel="Offering..."
				/>
			) : null}
			<WaitlistQueue course={course} live={live} ended={ended} back={back} lastResult={actionData?.result} readOnly={readOnly} />
		</>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
	{ title: `Waitlist${loaderData ? ` of ${loaderData.course.title}` : ''} | Admin` },
]

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
