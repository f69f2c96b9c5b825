/** A course select's options, one per course by its title; an empty first option stays with the select. */
export function CourseOptions({ courses }: { courses: ReadonlyArray<{ id: number; title: string }> }) {
	return courses.map((course) => (
		<option key={course.id} value={course.id}>
			{course.title}
		</option>
	))
}
