import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'

export type CourseProgressLine = { courseId: number; title: string; line: string }

/** The student's progress, one line per course they can read (docs/decisions/051). */
export function ProgressLines({ courses }: { courses: CourseProgressLine[] }) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>Your Progress</CardTitle>
			</CardHeader>
			<CardContent>
				<ul className="space-y-3">
					{courses.map((course) => (
						<li key={course.courseId} className="min-w-0">
							<span className="block font-medium break-words text-ink">{course.title}</span>
							<span className="block text-sm break-words text-slate-700">{course.line}</span>
						</li>
					))}
				</ul>
			</CardContent>
		</Card>
	)
}
