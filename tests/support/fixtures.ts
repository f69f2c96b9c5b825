/**
 * Rows a test needs, written straight to the database: shared by the integration and the
 * end-to-end tests, so each test says only what is particular about its data. One entry point
 * for the files under fixtures/ (users, courses and their contents, messages, payments); each
 * fixture has defaults for what a test does not care about and returns the row it wrote (the
 * older ones, insertUser, insertWeek, insertMaterialItem, insertLiveSession and
 * insertPaidPayment, its id). An insert that IS what a test examines (a CHECK constraint
 * refusing a row, a stored value the app must survive) stays written out in the test.
 */
import type { Kysely } from 'kysely'
import type { Database } from '#db/types.ts'

export * from './fixtures/attendance.ts'
export * from './fixtures/certificates.ts'
export * from './fixtures/community.ts'
export * from './fixtures/courses.ts'
export * from './fixtures/messages.ts'
export * from './fixtures/payments.ts'
export * from './fixtures/progress.ts'
export * from './fixtures/users.ts'

/** How many rows a table holds (e.g. the audit entries an action wrote). */
export async function countRows(db: Kysely<Database>, table: 'audit_log' | 'enrollments' | 'messages' | 'courses') {
	const row = await db
		.selectFrom(table)
		.select((eb) => eb.fn.countAll<string>().as('n'))
		.executeTakeFirstOrThrow()
	return Number(row.n)
}
