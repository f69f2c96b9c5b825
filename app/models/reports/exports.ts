import { z } from 'zod'
import { ATTENDANCE_SOURCE_LABELS, ATTENDANCE_STATUS_LABELS } from '#app/models/sessions/attendance.ts'
import { centsToDollars } from '#app/utils/money.ts'
import type { AttendanceSource, AttendanceStatus } from '#db/types.ts'

/*
 * The CSV exports (issue 43, docs/decisions/066): the accountant's payments and refunds for a range of
 * days, and a course's attendance (student × session). Isomorphic: the exports page's form and the
 * download routes share the range's schema; the columns and cells are written here once.
 */

/** The payments export's range: whole days where the viewer is, the first on or before the last. */
export const ExportRangeSchema = z
	.object({
		from: z.iso.date({ error: 'Give the first day as YYYY-MM-DD' }),
		to: z.iso.date({ error: 'Give the last day as YYYY-MM-DD' }),
	})
	.refine((range) => range.from <= range.to, { error: 'The first day must be on or before the last day', path: ['to'] })

export type ExportRange = z.infer<typeof ExportRangeSchema>

/** The form's default: the current month so far, where the viewer is. */
export function defaultRange(today: string): ExportRange {
	return { from: `${today.slice(0, 8)}01`, to: today }
}

export function paymentsFileName(range: ExportRange) {
	return `payments-${range.from}-to-${range.to}.csv`
}

/** What moved money: a payment (a checkout's), a later plan instalment's payment, an instalment paid outside, a refund. */
export type MoneyEventKind = 'payment' | 'instalment' | 'paid_outside' | 'refund'

/**
 * One line of the payments export, a money event (`money-events.server.ts`). A payment (a checkout,
 * or a later instalment of a plan) has its gross (before any discount) and discount and no refund; a
 * refund has only its amount. Net is always gross − discount − refund, so a column's sum is the
 * range's figure, the overview's for the same days: gross − discount is its paid.
 */
export type PaymentLine = {
	at: Date
	kind: MoneyEventKind
	studentName: string | null
	email: string
	courseTitle: string
	grossCents: number
	discountCents: number
	refundCents: number
	currency: string
	promotionCode: string | null
	/** The plan payment's number and the plan's count, for payments of a plan. */
	instalment: number | null
	instalments: number | null
	provider: string
	/** Null for a later instalment's payment, charged without a checkout (docs/decisions/063). */
	checkoutSessionId: string | null
	paymentIntentId: string | null
	invoiceId: string | null
	refundId: string | null
}

const KIND_LABELS: Record<PaymentLine['kind'], string> = {
	payment: 'Payment',
	instalment: 'Plan instalment',
	paid_outside: 'Plan instalment paid outside',
	refund: 'Refund',
}

/** The payments export's header; its dates are in the viewer's time zone, which the first column names. */
export const paymentColumns = (timeZone: string) => [
	`Date (${timeZone})`,
	'Type',
	'Student',
	'Email',
	'Course',
	'Gross',
	'Discount',
	'Refund',
	'Net',
	'Currency',
	'Promotion code',
	'Plan payment',
	'Provider',
	'Checkout session',
	'Payment intent',
	'Invoice',
	'Refund id',
]

/** A timestamp as spreadsheets read it: '2026-11-29 06:16:58' (UTC). */
function utcTimestamp(at: Date) {
	return at.toISOString().slice(0, 19).replace('T', ' ')
}

/** A timestamp in `timeZone` as spreadsheets read it: '2026-11-29 01:16:58'. */
function zonedTimestamp(timeZone: string) {
	const format = new Intl.DateTimeFormat('sv-SE', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
		hourCycle: 'h23',
	})
	return (at: Date) => format.format(at)
}

/** The cells of a payments export's line, its date in the viewer's `timeZone`. */
export function paymentCells(timeZone: string) {
	const timestamp = zonedTimestamp(timeZone)
	return (line: PaymentLine) => [
		timestamp(line.at),
		KIND_LABELS[line.kind],
		line.studentName ?? '',
		line.email,
		line.courseTitle,
		centsToDollars(line.grossCents),
		centsToDollars(line.discountCents),
		centsToDollars(line.refundCents),
		centsToDollars(line.grossCents - line.discountCents - line.refundCents),
		line.currency.toUpperCase(),
		line.promotionCode ?? '',
		line.instalment === null ? '' : `${line.instalment} of ${line.instalments ?? line.instalment}`,
		line.provider,
		line.checkoutSessionId ?? '',
		line.paymentIntentId ?? '',
		line.invoiceId ?? '',
		line.refundId ?? '',
	]
}

/** One line of a course's attendance export: a student and a session held, with what was recorded. */
export type AttendanceLine = {
	name: string
	email: string
	weekNumber: number
	startsAt: Date
	endsAt: Date
	status: AttendanceStatus | null
	minutes: number | null
	source: AttendanceSource | null
}

export const ATTENDANCE_COLUMNS = [
	'Student',
	'Email',
	'Week',
	'Session start (UTC)',
	'Session end (UTC)',
	'Status',
	'Minutes',
	'Recorded from',
]

export function attendanceCells(line: AttendanceLine) {
	return [
		line.name,
		line.email,
		line.weekNumber,
		utcTimestamp(line.startsAt),
		utcTimestamp(line.endsAt),
		line.status ? ATTENDANCE_STATUS_LABELS[line.status] : 'Not recorded',
		line.minutes ?? '',
		line.source ? ATTENDANCE_SOURCE_LABELS[line.source] : '',
	]
}
