/**
 * The program agreement as a template the school edits (docs/decisions/043): Markdown with
 * {placeholders} that each course fills in. The rules here are shared by the admin's editor and
 * its action; rendering to HTML happens on the server (`agreement.server.ts`).
 */
import { z } from 'zod'
import { describeMinutes } from '#app/emails/durations.ts'
import { courseLengthInWeeks } from '#app/models/courses/courses.ts'
import { formatDateOnly, hasControlCharacters } from '#app/utils/misc.ts'
import { formatMoney } from '#app/utils/money.ts'

export const AGREEMENT_MAX_LENGTH = 20_000

/** Each placeholder and what it becomes, as the editor lists them. */
export const AGREEMENT_PLACEHOLDERS = {
	school: 'the school’s name',
	course: 'the course’s title',
	fee: 'the fee, e.g. $2,500.00, or “free”',
	weeks: 'the course’s length, e.g. 8 weeks',
	sessions: 'its live sessions, e.g. 8 weekly live sessions',
	session_length: 'one session’s length, e.g. 90 minutes',
	start_date: 'the start date, or “to be announced”',
	payment_terms: 'when the fee is paid (a sentence; for a free course, that it is free)',
	refund_terms: 'the course’s refund terms (a sentence or more)',
} as const

export type AgreementPlaceholder = keyof typeof AGREEMENT_PLACEHOLDERS

const PLACEHOLDER_PATTERN = /\{([a-z_]+)\}/g

function unknownPlaceholders(body: string) {
	return [...body.matchAll(PLACEHOLDER_PATTERN)].map((match) => match[1]!).filter((name) => !(name in AGREEMENT_PLACEHOLDERS))
}

export const AgreementTemplateSchema = z.object({
	body: z
		.string({ error: 'The agreement cannot be empty' })
		.trim()
		.min(1, 'The agreement cannot be empty')
		.max(AGREEMENT_MAX_LENGTH, `The agreement must be at most ${AGREEMENT_MAX_LENGTH.toLocaleString('en-US')} characters`)
		.refine((body) => !hasControlCharacters(body, { lineBreaks: true }), 'The agreement must not contain control characters')
		.superRefine((body, context) => {
			const unknown = [...new Set(unknownPlaceholders(body))]
			if (unknown.length > 0) {
				context.addIssue({
					code: 'custom',
					message: `Unknown ${unknown.length === 1 ? 'placeholder' : 'placeholders'} ${unknown.map((name) => `{${name}}`).join(', ')}: use ${Object.keys(
						AGREEMENT_PLACEHOLDERS,
					)
						.map((name) => `{${name}}`)
						.join(', ')}`,
				})
			}
		}),
})

/** The school's refund clause when a course has none of its own: what refunds do in this app (docs/decisions/036). */
export const DEFAULT_REFUND_TERMS =
	'The Participant may ask the Company in writing for a refund. A refund is paid back to the card that paid the fee, in full or in part, and ends the Participant’s place in the program.'

/** A live session's length when a course has no weekly schedule: the program's one hour. */
const PROGRAM_SESSION_MINUTES = 60

/** What the agreement needs of a course. */
export type AgreementCourse = {
	title: string
	registrationFee: number
	startDate: string | null
	endDate: string | null
	/** Minutes of each weekly session; null without a schedule. */
	sessionMinutes: number | null
	/** The scheduled sessions, null without a schedule (one a week is assumed). */
	sessionCount: number | null
	refundTerms: string | null
}

/** Text typed by someone else, made literal in Markdown. */
function literal(text: string) {
	return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&')
}

/** The payment plan a buyer may choose instead (docs/decisions/059): the agreement names its total and its last day. */
export type AgreementPlan = { totalCents: number; paidInFullBy: string; paymentCount: number }

/** Each placeholder's Markdown for one course, and the plan on offer when there is one. */
export function agreementValues(
	course: AgreementCourse,
	school: string,
	plan: AgreementPlan | null = null,
): Record<AgreementPlaceholder, string> {
	const weeks = courseLengthInWeeks(course.startDate, course.endDate)
	const sessions = course.sessionCount ?? weeks
	const isFree = course.registrationFee === 0
	const fee = formatMoney(course.registrationFee)
	return {
		school: literal(school),
		course: literal(course.title),
		fee: isFree ? 'free' : fee,
		weeks: weeks === 1 ? '1 week' : `${weeks} weeks`,
		sessions: sessions === 1 ? '1 weekly live session' : `${sessions} weekly live sessions`,
		session_length: describeMinutes(course.sessionMinutes ?? PROGRAM_SESSION_MINUTES),
		start_date: literal(formatDateOnly(course.startDate, 'to be announced')),
		payment_terms: isFree
			? 'This course is **free**: no fee is charged for it.'
			: plan
				? `The fee for this course is **${fee}**, paid in full when the Participant enrols, before they join any class; or, on the payment plan the Participant may choose instead, **${formatMoney(plan.totalCents)}** in ${plan.paymentCount} payments, the first when the Participant enrols, **paid in full by ${literal(formatDateOnly(plan.paidInFullBy))}**. While a payment of the plan is overdue past the grace period, access to the course's materials, recordings and live sessions pauses until it is paid.`
				: `The fee for this course is **${fee}**, paid in full when the Participant enrols, before they join any class.`,
		refund_terms: isFree ? 'No fee is charged, so there is nothing to refund.' : (course.refundTerms ?? DEFAULT_REFUND_TERMS),
	}
}

/** The template with a course's values in place of its placeholders (Markdown). */
export function fillAgreement(body: string, values: Record<AgreementPlaceholder, string>) {
	return body.replace(PLACEHOLDER_PATTERN, (whole, name: string) => (name in values ? values[name as AgreementPlaceholder] : whole))
}

/** What the purchase form shows and sends back: the version in force, rendered for one course. */
export type AgreementForCourse = { versionId: number; html: string }

export const AGREEMENT_CHANGED_MESSAGE = 'The agreement changed while you were reading it. Please read the new version and agree again.'
