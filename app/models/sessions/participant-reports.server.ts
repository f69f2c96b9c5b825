import { CsvError, parse } from 'csv-parse/sync'
import { ATTENDANCE_MESSAGES, MAX_REPORT_ROWS } from './attendance.ts'

/**
 * A meeting provider's participant report, read (docs/decisions/048). Zoom's participant CSV comes
 * in several shapes that schools meet in practice: optionally a block of meeting details first
 * (`Meeting ID,Topic,Start Time,…` then its values and a blank line), then the participant rows
 * under a header such as `Name (Original Name),User Email,Join Time,Leave Time,Duration
 * (Minutes),Guest,…` (older exports: `Name`, `Email`, `Duration(Minutes)`; the 'unique users' one:
 * `Total Duration (Minutes)`). A person appears once per join. Dates are wall-clock times without a
 * zone, `MM/DD/YYYY hh:mm:ss AM/PM` in American accounts, 24-hour or `YYYY-MM-DD HH:mm:ss`
 * elsewhere; they are only used for the minutes when a row has no duration.
 */

export type ParticipantRow = {
	/** The line of the file the row ends on. */
	line: number
	/** The names the row gives: the display name and, in brackets, the original one. */
	names: string[]
	/** As written ('Jane Doe (Jane D.)'). */
	name: string
	email: string
	minutes: number
}

export class ReportError extends Error {}

const HEADERS = {
	name: ['name (original name)', 'name', 'participant', 'participant name', 'user name', 'display name'],
	email: ['user email', 'email', 'email address', 'attendee email', 'participant email'],
	join: ['join time', 'join time (utc)'],
	leave: ['leave time', 'leave time (utc)'],
	minutes: [
		'duration (minutes)',
		'duration(minutes)',
		'duration (mins)',
		'duration',
		'total duration (minutes)',
		'time in session (minutes)',
		'minutes',
	],
} as const

function normalizeHeader(value: string) {
	return value
		.replace(/^\uFEFF/, '')
		.trim()
		.replace(/\s+/g, ' ')
		.toLowerCase()
}

function columnOf(header: string[], names: readonly string[]) {
	const index = header.findIndex((cell) => (names as readonly string[]).includes(normalizeHeader(cell)))
	return index === -1 ? null : index
}

/** The participant header: the first record with a name column and a duration or join-time one. */
function findHeader(records: Array<{ record: string[]; info: { lines: number } }>) {
	for (const [index, { record }] of records.entries()) {
		const name = columnOf(record, HEADERS.name)
		const minutes = columnOf(record, HEADERS.minutes)
		const join = columnOf(record, HEADERS.join)
		if (name === null || (minutes === null && join === null)) continue
		return { index, name, email: columnOf(record, HEADERS.email), join, leave: columnOf(record, HEADERS.leave), minutes }
	}
	return null
}

const US_OR_DAY_FIRST = /^(\d{1,2})\/(\d{1,2})\/(\d{4})[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/
const ISO_LIKE = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/

function wallClock(year: number, month: number, day: number, hour: number, minute: number, second: number) {
	const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
	const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
	return valid && hour < 24 && minute < 60 && second < 60 ? date.getTime() : null
}

/**
 * A report's time as milliseconds of its wall clock (no zone: only differences are used). Slashed
 * dates are month first, as Zoom writes them in American accounts, unless that cannot be a date.
 */
export function parseReportTime(value: string): number | null {
	const text = value.trim()
	const slashed = US_OR_DAY_FIRST.exec(text)
	if (slashed) {
		const [, first, second, year, rawHour, minute, secondsText, period] = slashed
		let hour = Number(rawHour)
		if (period) {
			if (hour < 1 || hour > 12) return null
			hour = (hour % 12) + (period.toLowerCase() === 'pm' ? 12 : 0)
		}
		const time = [hour, Number(minute), Number(secondsText ?? 0)] as const
		return (
			wallClock(Number(year), Number(first), Number(second), ...time) ?? wallClock(Number(year), Number(second), Number(first), ...time)
		)
	}
	const iso = ISO_LIKE.exec(text)
	if (!iso) return null
	const [, year, month, day, hour, minute, seconds] = iso
	return wallClock(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(seconds ?? 0))
}

/** 'Jane Doe (Jane D.)' → ['Jane Doe (Jane D.)', 'Jane Doe', 'Jane D.']. */
function namesOf(value: string) {
	const names = [value]
	const bracketed = /^(.*?)\s*\(([^()]+)\)\s*$/.exec(value)
	if (bracketed?.[1]) names.push(bracketed[1], bracketed[2]!)
	return names.map((name) => name.trim()).filter(Boolean)
}

function readMinutes(cells: string[], columns: NonNullable<ReturnType<typeof findHeader>>, line: number) {
	const text = columns.minutes === null ? '' : (cells[columns.minutes] ?? '').trim()
	if (text !== '') {
		const minutes = Number(text.replace(/,/g, ''))
		if (!Number.isFinite(minutes) || minutes < 0) throw new ReportError(`Line ${line}: the duration "${text}" is not a number of minutes.`)
		return Math.round(minutes)
	}
	const joinText = columns.join === null ? '' : (cells[columns.join] ?? '').trim()
	const leaveText = columns.leave === null ? '' : (cells[columns.leave] ?? '').trim()
	const joined = parseReportTime(joinText)
	const left = parseReportTime(leaveText)
	if (joined === null || left === null) {
		const bad = joined === null ? joinText : leaveText
		throw new ReportError(`Line ${line}: the row has no duration, and "${bad}" is not a date and time.`)
	}
	if (left < joined) throw new ReportError(`Line ${line}: the leave time is before the join time.`)
	return Math.round((left - joined) / 60_000)
}

/**
 * The participant rows of a report, or a ReportError naming the line that could not be read
 * (csv-parse finds the broken quoting; this finds a missing header, an unreadable duration or date).
 */
export function parseParticipantReport(text: string): ParticipantRow[] {
	let records: Array<{ record: string[]; info: { lines: number } }>
	let lastRecordLine = 0
	try {
		// csv-parse's types do not know that `info` wraps each record with its line.
		records = parse(text, {
			bom: true,
			relax_column_count: true,
			skip_empty_lines: true,
			info: true,
			trim: true,
			on_record: (record, context) => {
				lastRecordLine = context.lines
				return record
			},
		}) as unknown as typeof records
	} catch (error) {
		if (!(error instanceof CsvError)) throw error
		// A quote left open runs to the end of the file: it opened on the line after the last whole record.
		if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
			throw new ReportError(`Line ${lastRecordLine + 1}: a quoted field is opened with " and never closed.`)
		}
		const line = (error as CsvError & { lines?: number }).lines
		const detail = error.message.replace(/^[^:]*: /, '')
		throw new ReportError(`${line ? `Line ${line}: ` : ''}${detail.charAt(0).toUpperCase()}${detail.slice(1)}`)
	}
	const header = findHeader(records)
	if (!header) {
		throw new ReportError(
			'No participant rows were found: the file needs a header row with a "Name (Original Name)" column and a "Duration (Minutes)" or "Join Time" column.',
		)
	}
	const rows: ParticipantRow[] = []
	for (const { record, info } of records.slice(header.index + 1)) {
		if (record.every((cell) => cell === '')) continue
		if (rows.length === MAX_REPORT_ROWS) throw new ReportError(`${ATTENDANCE_MESSAGES.tooManyRows}.`)
		const name = (record[header.name] ?? '').trim()
		const email = header.email === null ? '' : (record[header.email] ?? '').trim()
		if (!name && !email) throw new ReportError(`Line ${info.lines}: the row has neither a name nor an e-mail address.`)
		rows.push({ line: info.lines, name, names: namesOf(name), email, minutes: readMinutes(record, header, info.lines) })
	}
	return rows
}
