import { z } from 'zod'

/** PostgreSQL's largest `integer`, the type of every id column. */
const MAX_ROW_ID = 2_147_483_647

/**
 * Exactly the digits an id is written with in the app's own links and forms. Number() would also
 * take '1e1', '12.0', ' 12', '0x10' or '+12' and turn them into another address of the same row.
 */
const ROW_ID_PATTERN = /^[1-9][0-9]{0,9}$/

/** An integer row id from a URL or form (PostgreSQL integer range, written as plain digits), or null. */
export function parseRowId(value: unknown) {
	if (typeof value !== 'string' || !ROW_ID_PATTERN.test(value)) return null
	const id = Number(value)
	return id <= MAX_ROW_ID ? id : null
}

/** The id of a row as a form sends it (parseRowId's rule), with one message for every way it can be wrong. */
export function rowIdSchema(message?: string) {
	return z.string(message === undefined ? undefined : { error: message }).transform((value, context) => {
		const id = parseRowId(value)
		if (id === null) {
			context.issues.push({ code: 'custom', input: value, ...(message === undefined ? {} : { message }) })
			return z.NEVER
		}
		return id
	})
}
