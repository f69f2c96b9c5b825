import { type Kysely, sql } from 'kysely'

/**
 * A course's completion rule (issue 40 point 3, docs/decisions/052): the share of its held live
 * sessions a student must have attended (present or late; 0–100 %), whether every assignment must be
 * handed in, and an optional passing mark (1–100 %) every graded hand-in must reach.
 * `completion_evaluated_at` is when the end-of-course job applied the rule: the job claims a course by
 * setting it with a conditional UPDATE, so the rule is applied once however many processes run it.
 * Courses that ended before the rule existed count as evaluated: their cohorts are not completed (and
 * mailed) by a rule nobody set.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE courses
		ADD COLUMN completion_min_attendance_percent smallint NOT NULL DEFAULT 75
			CHECK (completion_min_attendance_percent BETWEEN 0 AND 100),
		ADD COLUMN completion_requires_all_assignments boolean NOT NULL DEFAULT true,
		ADD COLUMN completion_passing_grade_percent smallint
			CHECK (completion_passing_grade_percent BETWEEN 1 AND 100),
		ADD COLUMN completion_evaluated_at timestamptz`.execute(db)
	await sql`UPDATE courses SET completion_evaluated_at = now() WHERE end_date < current_date`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE courses
		DROP COLUMN completion_evaluated_at,
		DROP COLUMN completion_passing_grade_percent,
		DROP COLUMN completion_requires_all_assignments,
		DROP COLUMN completion_min_attendance_percent`.execute(db)
}
