import type { CourseWithAvailability } from '#app/models/courses.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { ListedCourse } from './wizard.tsx'

export const COURSE_FULL_MESSAGE = 'This course is now full. Please join our waitlist to be notified when spots become available.'
export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists. Please log in instead.'
export const TOO_MANY_REGISTRATIONS_MESSAGE = 'Too many registrations from your network. Please wait an hour and try again.'

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
	const { id, title, description, startDate, registrationFee, capacity, taken, spotsLeft, isFull, isAlmostFull, tone } = course
	return { id, title, description, startDate, registrationFee, capacity, taken, spotsLeft, isFull, isAlmostFull, tone }
}
