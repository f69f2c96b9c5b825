import { useLiveRevalidation } from './live-revalidation.tsx'

/** Reloads the page's seat counts whenever an enrollment, a seat hold or a course changes. */
export function LiveSeatCounts() {
	useLiveRevalidation(['enrollment.changed', 'course.changed'])
	return null
}
