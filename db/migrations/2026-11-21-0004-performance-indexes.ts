import { type Kysely, sql } from 'kysely'

/**
 * Indexes found missing by EXPLAIN on the scale data set (scripts/bench/explain.ts):
 * the admin enrollment table (newest first, limited) and the admin student list
 * (students newest first) read the first rows of an index instead of sorting every row.
 */
const statements = [
	sql`CREATE INDEX enrollments_created_idx ON enrollments (created_at DESC, id DESC)`,
	sql`CREATE INDEX profiles_students_created_idx ON profiles (created_at DESC, id) WHERE role = 'student' OR role IS NULL`,
]

export async function up(db: Kysely<unknown>) {
	for (const statement of statements) {
		await statement.execute(db)
	}
}

export async function down(db: Kysely<unknown>) {
	await sql`DROP INDEX profiles_students_created_idx`.execute(db)
	await sql`DROP INDEX enrollments_created_idx`.execute(db)
}
