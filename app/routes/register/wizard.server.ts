import type { CourseWithAvailability } from '#app/models/courses.ts'
import { COURSE_FULL_MESSAGE } from '#app/models/registration.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
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
	const { id, title, description, startDate, registrationFee, capacity, taken, spotsLeft, isFull, isAlmostFull, tone } = course
	return { id, title, description, startDate, registrationFee, capacity, taken, spotsLeft, isFull, isAlmostFull, tone }
}
