/** Helpers shared by server and browser code. */

// Built once: creating an Intl formatter costs far more than formatting with one.
const utcDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })

export function initials(name: string | null | undefined) {
	const trimmed = name?.trim()
	if (!trimmed) return 'UN'
	return trimmed.slice(0, 2).toUpperCase()
}

export function formatFileSize(bytes: number) {
	if (bytes < 1024) return `${bytes} bytes`
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
	if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
	return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`
}

/**
 * Date fields are `<input type="date">`, which browsers without a date picker (lynx, Dillo,
 * older Safari) show as text: the refusal says the one format accepted.
 */
export const INVALID_DATE_MESSAGE = 'Please enter a valid date as YYYY-MM-DD, for example 2026-12-01'

/** Formats a 'YYYY-MM-DD' date without shifting it through the local time zone. */
export function formatDateOnly(value: string | null | undefined, fallback = 'Not set') {
	if (!value) return fallback
	const [year, month, day] = value.split('-').map(Number)
	if (!year || !month || !day) return fallback
	return utcDate.format(new Date(Date.UTC(year, month - 1, day)))
}

/** A due date is the end of a UTC day: shown as that date wherever the reader is. */
export function formatDueDate(value: Date | string | null) {
	if (!value) return 'No due date'
	return utcDate.format(new Date(value))
}

/** Whether a text has control characters (PostgreSQL text cannot hold NUL); `lineBreaks` lets tabs and line breaks through. */
export function hasControlCharacters(text: string, { lineBreaks = false } = {}) {
	return (lineBreaks ? /[^\P{Cc}\t\n\r]/u : /\p{Cc}/u).test(text)
}

/**
 * The text of a page's search box (`?q=` unless named otherwise): trimmed, capped, and
 * without control characters, which a search never needs and PostgreSQL text cannot hold (NUL).
 */
export function searchText(params: URLSearchParams, { name = 'q', maxLength = 200 } = {}) {
	return (params.get(name) ?? '')
		.replace(/\p{Cc}/gu, ' ')
		.trim()
		.slice(0, maxLength)
}

export function cn(...classes: Array<string | false | null | undefined>) {
	return classes.filter(Boolean).join(' ')
}
