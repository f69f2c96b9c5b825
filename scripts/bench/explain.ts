/**
 * `node scripts/bench/explain.ts`: runs the model functions behind the hot pages on the
 * database of DATABASE_URL (or DATA_DIR's embedded PostgreSQL), seeded with `npm run db:seed -- --scale`,
 * and prints EXPLAIN ANALYZE of every statement they issue (numbered: a page's count of statements), to check that
 * indexes are used.
 */
import { type CompiledQuery, type LogEvent, sql } from 'kysely'
import { listStudents } from '#app/models/accounts/users-admin.server.ts'
import { listCoursesWithAvailability } from '#app/models/courses/courses.server.ts'
import { listEnrollments } from '#app/models/enrollment/enrollments-admin.server.ts'
import { getCourseWeeks, listAccessibleCourses } from '#app/models/materials/materials.server.ts'
import { listContacts } from '#app/models/messaging/message-contacts.server.ts'
import { listConversation } from '#app/models/messaging/messages.server.ts'
import { streamPaymentLines } from '#app/models/reports/exports.server.ts'
import { getOverview } from '#app/models/reports/overview.server.ts'
import { defaultRangeStart } from '#app/models/reports/overview.ts'
import { openDatabase } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { SCALE_ACCOUNTS } from '#db/seed/scale.ts'
import { openDatabaseServer } from '../lib/database-server.ts'

const env = getEnv()
const captured: CompiledQuery[] = []
const server = await openDatabaseServer(env, 'command')
const handle = await openDatabase({
	databaseUrl: server.url,
	onQuery: (event: LogEvent) => {
		if (event.level === 'query') captured.push(event.query)
	},
})
const db = handle.db

async function explain(label: string, run: () => Promise<unknown>) {
	captured.length = 0
	await run()
	const queries = [...captured]
	for (const [index, query] of queries.entries()) {
		const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS OFF) ${sql.raw(inline(query))}`.execute(db)
		const lines = plan.rows.map((row) => row['QUERY PLAN'])
		console.log(`\n## ${label} (statement ${index + 1} of ${queries.length})\n${query.sql}\n${lines.join('\n')}`)
	}
}

/** EXPLAIN takes no bind parameters: inline them as literals (trusted values of this script). */
function inline(query: CompiledQuery) {
	return query.sql.replace(/\$(\d+)/g, (_match, index: string) => {
		const value = query.parameters[Number(index) - 1]
		if (value === null || value === undefined) return 'NULL'
		if (typeof value === 'number' || typeof value === 'boolean') return String(value)
		if (value instanceof Date) return `'${value.toISOString()}'`
		return `'${String(value).replace(/'/g, "''")}'`
	})
}

/** Reads a streamed export to its end, as its download would. */
async function drain(lines: AsyncIterable<unknown>) {
	let count = 0
	for await (const _line of lines) count++
	return count
}

const person = async (email: string) =>
	db
		.selectFrom('users')
		.innerJoin('profiles', 'profiles.id', 'users.id')
		.select(['users.id', 'profiles.role'])
		.where('users.email', '=', email)
		.executeTakeFirstOrThrow()

try {
	const student = await person(SCALE_ACCOUNTS.student)
	const admin = await person(SCALE_ACCOUNTS.admin)
	const studentReader = { id: student.id, isAdmin: false }
	const courses = await listAccessibleCourses(db, studentReader)
	const [firstContact] = (await listContacts(db, { id: student.id, storedRole: student.role })).contacts

	await explain('dashboard: accessible courses (student)', () => listAccessibleCourses(db, studentReader))
	await explain('dashboard: course weeks', () => getCourseWeeks(db, courses[0]!.id))
	await explain('messages: contacts with unread counts (student)', () => listContacts(db, { id: student.id, storedRole: student.role }))
	await explain('messages: contacts with unread counts (admin)', () => listContacts(db, { id: admin.id, storedRole: admin.role }))
	await explain('messages: contacts search (admin)', () =>
		listContacts(db, { id: admin.id, storedRole: admin.role }, { search: 'Student 12' }),
	)
	await explain('messages: thread', () => listConversation(db, { userId: student.id, partnerId: firstContact!.id }))
	await explain('courses / admin courses', () => listCoursesWithAvailability(db))
	await explain('admin users', () => listStudents(db))
	await explain('admin users search', () => listStudents(db, { query: 'student-99' }))
	const adminViewer = { id: admin.id, isAdmin: true }
	await explain('admin enrollments', () => listEnrollments(db, adminViewer))
	await explain('admin enrollments search', () => listEnrollments(db, adminViewer, { query: 'Student 42' }))

	// The school's figures (issue 43): the overview's default range and its longest, and a year's payments export.
	const today = new Date().toISOString().slice(0, 10)
	const yearsAgo = (years: number) => `${Number(today.slice(0, 4)) - years}${today.slice(4)}`
	const instructor = await person('scale-staff-6@example.com')
	const lastSixMonths = { from: defaultRangeStart(today), to: today, group: 'month' as const, timeZone: 'UTC' }
	await explain('overview, last six months (admin)', () => getOverview(db, adminViewer, lastSixMonths))
	await explain('overview, five years by month (admin)', () =>
		getOverview(db, adminViewer, { ...lastSixMonths, from: yearsAgo(5), group: 'month' }),
	)
	await explain('overview, last six months (instructor)', () => getOverview(db, { id: instructor.id, isAdmin: false }, lastSixMonths))
	await explain('payments export, a year', () => drain(streamPaymentLines(db, { from: yearsAgo(1), to: today, timeZone: 'UTC' })))
} finally {
	await handle.close()
	await server.stop()
}
