import { formatFileSize } from '#app/utils/misc.ts'

/** The file handed in with a submission, as a download link with its size; the student's page and the grading panel show it alike. */
export function SubmissionFile({ submissionId, name, size }: { submissionId: number; name: string; size: number | null }) {
	return (
		<p>
			<span className="font-medium text-slate-700">File: </span>
			<a href={`/files/submissions/${submissionId}`} className="font-medium text-brand-700 underline-offset-4 hover:underline">
				{name}
			</a>
			{size !== null ? <span className="text-slate-600"> ({formatFileSize(size)})</span> : null}
		</p>
	)
}
