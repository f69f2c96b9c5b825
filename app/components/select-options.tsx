/** A select's options from a list of values with their labels; an empty first option stays with the select. */
export function LabelledOptions({ options }: { options: ReadonlyArray<{ value: string; label: string }> }) {
	return options.map((option) => (
		<option key={option.value} value={option.value}>
			{option.label}
		</option>
	))
}

/** A course select's options, one per course by its title; an empty first option stays with the select. */
export function CourseOptions({ courses }: { courses: ReadonlyArray<{ id: number; title: string }> }) {
	return courses.map((course) => (
		<option key={course.id} value={course.id}>
			{course.title}
		</option>
	))
}

/** A time zone as people read it: 'America/New York' for America/New_York. */
export function timeZoneLabel(zone: string) {
	return zone.replaceAll('_', ' ')
}

/** A time zone select's options, each zone by its label; an empty first option stays with the select. */
export function TimeZoneOptions({ zones }: { zones: readonly string[] }) {
	return zones.map((zone) => (
		<option key={zone} value={zone}>
			{timeZoneLabel(zone)}
		</option>
	))
}
