import { z } from 'zod'
import { hasFile } from '#app/models/materials/uploads.ts'
import { INVALID_DATE_MESSAGE } from '#app/utils/misc.ts'
import { rowIdSchema } from '#app/utils/row-id.ts'
import { boundedText, requiredText } from '#app/utils/text-fields.ts'

const rowId = rowIdSchema()
/** A multi-line text that may be left out (then undefined). */
const optionalText = (label: string, max: number) =>
	boundedText({ label, max, lineBreaks: true })
		.optional()
		.transform((value) => value || undefined)

export const GRADING_MESSAGES = {
	gradeRequired: 'Please enter a grade',
	graded: 'Assignment graded successfully',
	submitted: 'Assignment submitted successfully',
	emptySubmission: 'Please write your answer or attach a file',
	assignmentCreated: 'Assignment created successfully',
} as const

/** A student's answer: text, a file, or both. */
export const SubmitAssignmentSchema = z
	.object({
		body: optionalText('Your answer', 20_000),
		file: z.unknown().optional(),
	})
	.superRefine((value, context) => {
		if (!value.body && !hasFile(value.file)) context.addIssue({ code: 'custom', path: [], message: GRADING_MESSAGES.emptySubmission })
	})

export const GradeSchema = z.object({
	submissionId: rowId,
	grade: requiredText({ label: 'Grade', max: 20, required: GRADING_MESSAGES.gradeRequired }),
	feedback: optionalText('Feedback', 5000),
})

export const CreateAssignmentSchema = z.object({
	intent: z.literal('create-assignment'),
	title: requiredText({ label: 'Title', max: 300 }),
	instructions: optionalText('Instructions', 10_000),
	weekId: rowId.optional(),
	dueDate: z.iso.date(INVALID_DATE_MESSAGE).optional(),
})

export type SubmissionStatus = 'submitted' | 'graded'

export type CourseAssignment = {
	id: number
	title: string
	weekNumber: number | null
	dueAt: Date | null
	submissions: number
	pending: number
}

export type StudentAssignment = {
	id: number
	title: string
	weekNumber: number | null
	dueAt: Date | null
	status: SubmissionStatus | 'not-submitted'
	grade: string | null
	/** When its week opens ('Tue 6 Jan'), while it is closed to the reader; null once it is open to them. */
	opensOn: string | null
}

export type StudentSubmission = {
	id: number
	body: string | null
	fileName: string | null
	fileSize: number | null
	status: SubmissionStatus
	grade: string | null
	feedback: string | null
	submittedAt: Date
	gradedAt: Date | null
}

export type AssignmentForStudent = {
	assignment: {
		id: number
		title: string
		instructions: string
		dueAt: Date | null
		courseId: number
		courseTitle: string
		weekNumber: number | null
		topic: string | null
	}
	submission: StudentSubmission | null
	/** The reader completed the course (decision 035): they read, they hand nothing in. */
	courseCompleted: boolean
	/** Only a student with an active enrollment hands work in, and only until it is graded. */
	canSubmit: boolean
}

export type GradingTab = 'pending' | 'graded'

export type GradingRow = {
	id: number
	studentName: string
	studentEmail: string
	courseTitle: string
	assignmentTitle: string
	submittedAt: Date
	grade: string | null
}

export type SubmissionDetail = GradingRow & {
	body: string | null
	fileName: string | null
	fileSize: number | null
	status: SubmissionStatus
	feedback: string | null
	instructions: string
}
