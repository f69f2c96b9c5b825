import type { Options } from 'csv-stringify'

const FORMULA_START = /^[=+\-@\t\r]/
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/

/**
 * A CSV cell that a spreadsheet would read as a formula (=, +, -, @, a tab or a carriage return
 * first) is written with a leading apostrophe, so a name such as '=HYPERLINK(…)' stays text. A plain
 * number such as a refund's '-45.00' is no formula and stays a number.
 */
export function spreadsheetSafe(value: string) {
	return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value
}

/** The options of every CSV the app writes: each text cell goes through `spreadsheetSafe`. */
export const CSV_OPTIONS = { cast: { string: spreadsheetSafe } } satisfies Options

/** A course's export's file name: what it holds, the course title in safe characters, and the day. */
export function courseCsvFileName(kind: string, courseTitle: string, now: Date) {
	const slug = courseTitle
		.normalize('NFKD')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.slice(0, 60)
		.replace(/^-+|-+$/g, '')
	return `${kind}-${slug || 'course'}-${now.toISOString().slice(0, 10)}.csv`
}
