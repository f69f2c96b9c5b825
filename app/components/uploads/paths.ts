/** The Manage Course Materials screen of a course. */
export function materialsPath(courseId: number) {
	return `/dashboard/admin/courses/${courseId}/materials`
}
