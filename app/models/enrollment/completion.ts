import { z } from 'zod'

/*
 * A course's completion rule (issue 40 point 3, docs/decisions/052): what a student must have done for
 * the end-of-course job to mark their enrolment completed and issue their certificate.
 */

export const DEFAULT_MIN_ATTENDANCE_PERCENT = 75

export const COMPLETION_MESSAGES = {
	minAttendance: 'Enter a whole percentage from 0 to 100',
	passingGrade: 'Enter a whole percentage from 1 to 100, or leave it empty for no passing grade',
	saved: 'Completion rule saved',
} as const

function percent(message: string, min: number) {
	return z.preprocess(
		(value) => (typeof value === 'string' ? Number(value.trim()) : value),
		z.number({ error: message }).int(message).min(min, message).max(100, message),
	)
}

export const CompletionRuleSchema = z.object({
	intent: z.literal('rule'),
	minAttendancePercent: percent(COMPLETION_MESSAGES.minAttendance, 0),
	requiresAllAssignments: z.boolean().optional().default(false),
	/** Empty: no passing grade. */
	passingGradePercent: percent(COMPLETION_MESSAGES.passingGrade, 1).optional(),
})

export type CompletionRuleValues = z.output<typeof CompletionRuleSchema>

export type CompletionRule = {
	minAttendancePercent: number
	requiresAllAssignments: boolean
	passingGradePercent: number | null
}

/** Lower bounds of the common US letter scale; a letter grade reads as the lowest mark it stands for. */
const LETTER_PERCENT: Record<string, number> = {
	'A+': 97,
	A: 93,
	'A-': 90,
	'B+': 87,
	B: 83,
	'B-': 80,
	'C+': 77,
	C: 73,
	'C-': 70,
	'D+': 67,
	D: 63,
	'D-': 60,
	F: 0,
}

/**
 * A grade as a percentage, as the completion rule reads the free text a grader typed
 * (docs/decisions/052): '85', '85%', '85.5' (0–100); '17/20', '8.5 / 10'; a letter A+ … F; 'Pass' (100)
 * or 'Fail' (0). Anything else is null: the rule cannot read it, so it does not pass.
 */
export function gradePercent(grade: string): number | null {
	const text = grade.trim()
	const fraction = text.match(/^(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/)
	if (fraction) {
		const [score, out] = [Number(fraction[1]), Number(fraction[2])]
		return out > 0 && score <= out ? (score / out) * 100 : null
	}
	const plain = text.match(/^(\d+(?:\.\d+)?)\s*%?$/)
	if (plain) {
		const value = Number(plain[1])
		return value <= 100 ? value : null
	}
	const upper = text.toUpperCase()
	if (upper in LETTER_PERCENT) return LETTER_PERCENT[upper] ?? null
	if (upper === 'PASS' || upper === 'PASSED') return 100
	if (upper === 'FAIL' || upper === 'FAILED') return 0
	return null
}

/** What the rule needs to know of one student. */
export type CompletionRecord = {
	/** Held (not cancelled) live sessions of the course, and how many of them the student attended present or late. */
	heldSessions: number
	attendedSessions: number
	/** Assignments of the course, and how many the student handed in. */
	assignments: number
	handedIn: number
	/** The grades of the student's hand-ins: null for one not graded yet. */
	grades: Array<string | null>
}

export type CompletionCheck = {
	meets: boolean
	attendanceMet: boolean
	assignmentsMet: boolean
	gradesMet: boolean
	/** Attended share of the held sessions, in whole percent (rounded down); null without held sessions. */
	attendancePercent: number | null
	/** Hand-ins that are not graded yet or whose grade is below the passing mark (or unreadable). */
	gradesBelow: number
}

/**
 * Whether a student meets the course's rule. Attendance counts present and late against every held
 * session; a course without held sessions asks for none. A passing grade applies to every hand-in,
 * which must be graded at or above it.
 */
export function checkCompletion(rule: CompletionRule, record: CompletionRecord): CompletionCheck {
	const attendanceMet = record.heldSessions === 0 || record.attendedSessions * 100 >= rule.minAttendancePercent * record.heldSessions
	const assignmentsMet = !rule.requiresAllAssignments || record.handedIn >= record.assignments
	const passing = rule.passingGradePercent
	const gradesBelow =
		passing === null
			? 0
			: record.grades.filter((grade) => {
					const mark = grade === null ? null : gradePercent(grade)
					return mark === null || mark < passing
				}).length
	const gradesMet = gradesBelow === 0
	return {
		meets: attendanceMet && assignmentsMet && gradesMet,
		attendanceMet,
		assignmentsMet,
		gradesMet,
		attendancePercent: record.heldSessions === 0 ? null : Math.floor((record.attendedSessions * 100) / record.heldSessions),
		gradesBelow,
	}
}
