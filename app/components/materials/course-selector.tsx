import { Form, href, useSubmit } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { CourseOptions } from '#app/components/select-options.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { SelectField } from '#app/components/ui/field.tsx'

export type SelectableCourse = { id: number; title: string }

/**
 * A GET form, so the choice works without JavaScript (the Show button) and is linkable;
 * with JavaScript a change submits at once and the button goes. The server remembers the
 * choice in a cookie. A select cuts a long title short on a phone: the chosen course's
 * title is written out in full beneath it.
 */
export function CourseSelector({ courses, selectedId }: { courses: SelectableCourse[]; selectedId: number | null }) {
	const submit = useSubmit()
	const hydrated = useHydrated()
	const selected = courses.find((course) => course.id === selectedId)
	return (
		<div className="space-y-2">
			<Form method="get" action={href('/dashboard')} className="flex flex-wrap items-end gap-3">
				<SelectField
					// Remount on a new selection so the uncontrolled select shows it after navigation.
					key={selectedId ?? 'none'}
					label="Select a course"
					className="min-w-0 flex-1 sm:max-w-md"
					selectProps={{
						name: 'course',
						defaultValue: selectedId ?? '',
						onChange: (event) => void submit(event.currentTarget.form, { preventScrollReset: true }),
					}}
				>
					{selectedId === null ? <option value="">Choose a course…</option> : null}
					<CourseOptions courses={courses} />
				</SelectField>
				{hydrated ? null : (
					<Button type="submit" variant="outline">
						Show
					</Button>
				)}
			</Form>
			{selected ? (
				<p className="text-lg font-semibold break-words text-ink" data-testid="selected-course-title">
					{selected.title}
				</p>
			) : null}
		</div>
	)
}
