import type { SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import type { CourseWithAvailability } from '#app/models/courses.ts'
import { COURSE_FULL_MESSAGE } from '#app/models/registration.ts'
import { type ActionRequest, actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'
import type { ListedCourse } from './wizard.tsx'

/** Back to the course step, the full course named and the waitlist open, with the Course Full toast. */
export function courseFullRedirect(courseId: number) {
	return redirectWithToast(`/register/course?full=${courseId}&dialog=waitlist`, {
		type: 'error',
		title: 'Course Full',
		description: COURSE_FULL_MESSAGE,
	})
}

/** What the wizard shows of a course. */
export function publicCourse(course: CourseWithAvailability): ListedCourse {
	const { id, title, description, startDate, endDate, registrationFee, capacity, schedule, taken, spotsLeft, isFull, isAlmostFull, tone } =
		course
	return { id, title, description, startDate, endDate, registrationFee, capacity, schedule, taken, spotsLeft, isFull, isAlmostFull, tone }
}

/** The payment provider could not open a checkout: the form again with the reason, and the Checkout Error toast. */
export async function checkoutFailed(action: ActionRequest, result: SubmissionResult<string[]>) {
	const headers = await actionToastHeaders(action, { type: 'error', title: 'Checkout Error', description: 'Failed to initiate payment' })
	return data({ result }, { status: 502, headers })
}
