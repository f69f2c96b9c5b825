import { href, useLocation, useNavigation } from 'react-router'
import { parsePage, withPage } from '#app/utils/pagination.ts'

const COURSES_PATH = href('/dashboard/admin/courses')

/** Manage Courses at the page of the grid a course dialog was opened over: where its action goes back to. */
export function courseListPath(request: Request) {
	return withPage(COURSES_PATH, parsePage(new URL(request.url).search))
}

/**
 * A course's dialog over Manage Courses (edit, run again, publish, delete): the page of the grid it
 * was opened over is where it goes back to and what its form posts with; `busy` while that form is sent.
 */
export function useCourseDialog(courseId: number, dialog: 'edit' | 'run-again' | 'publish' | 'delete') {
	const navigation = useNavigation()
	const page = parsePage(useLocation().search)
	const action = withPage(`${COURSES_PATH}/${courseId}/${dialog}`, page)
	return { listPath: withPage(COURSES_PATH, page), action, busy: navigation.state === 'submitting' && navigation.formAction === action }
}
