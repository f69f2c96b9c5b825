import { z } from 'zod'

/** PostgreSQL's largest `integer`, the type of every id column. */
const MAX_ROW_ID = 2_147_483_647

/**
 * The id of a row as a form or an address sends it, with one message for every way it can be wrong.
 * A number past the safe-integer range breaks both the integer rule and the maximum; the integer
 * rule stops the checks there, so the field shows its message once rather than twice.
 */
export function rowIdSchema(message?: string) {
	const error = message === undefined ? undefined : { error: message }
	return z.coerce
		.number(error)
		.int({ ...error, abort: true })
		.positive(error)
		.max(MAX_ROW_ID, error)
}

const anyRowId = rowIdSchema()

/** An integer row id from a URL or form (PostgreSQL integer range), or null. */
export function parseRowId(value: unknown) {
	const parsed = anyRowId.safeParse(value)
	return parsed.success ? parsed.data : null
}
