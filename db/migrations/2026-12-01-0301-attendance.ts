import { type Kysely, sql } from 'kysely'

/**
 * Attendance of live sessions (issue 40, docs/decisions/048). `session_joins` records the first time
 * a student went through the app's join link of a session (one row, however many clicks).
 * `attendance` holds one status per session and student — present, late, absent or excused — with
 * the minutes when a report gave them, where it came from (the join link, the meeting provider's
 * report, or an admin by hand) and who set it (null for the join link). A course's
 * `attendance_present_percent` is the share of a session a report must show for present.
 * `attendance_imports` keeps an uploaded report's parsed outcome between its preview and its
 * confirmation (the file itself is not kept); `applied_at` makes the confirmation happen once.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE courses
		ADD COLUMN attendance_present_percent smallint NOT NULL DEFAULT 50 CHECK (attendance_present_percent BETWEEN 1 AND 100)`.execute(db)

	await sql`CREATE TABLE session_joins (
		live_session_id integer NOT NULL REFERENCES live_sessions (id) ON DELETE CASCADE,
		user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
		joined_at timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (live_session_id, user_id)
	)`.execute(db)

	await sql`CREATE TABLE attendance (
		live_session_id integer NOT NULL REFERENCES live_sessions (id) ON DELETE CASCADE,
		user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
		status text NOT NULL CHECK (status IN ('present', 'late', 'absent', 'excused')),
		minutes integer CHECK (minutes BETWEEN 0 AND 720),
		source text NOT NULL CHECK (source IN ('join_link', 'report', 'hand')),
		set_by uuid REFERENCES users (id) ON DELETE SET NULL,
		created_at timestamptz NOT NULL DEFAULT now(),
		updated_at timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (live_session_id, user_id),
		CONSTRAINT attendance_join_link_has_no_setter CHECK (source <> 'join_link' OR set_by IS NULL)
	)`.execute(db)
	await sql`CREATE INDEX attendance_user ON attendance (user_id)`.execute(db)

	await sql`CREATE TABLE attendance_imports (
		id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
		live_session_id integer NOT NULL REFERENCES live_sessions (id) ON DELETE CASCADE,
		created_by uuid REFERENCES users (id) ON DELETE SET NULL,
		file_name text NOT NULL CHECK (char_length(file_name) BETWEEN 1 AND 255),
		plan jsonb NOT NULL CHECK (jsonb_typeof(plan) = 'object'),
		applied_at timestamptz,
		created_at timestamptz NOT NULL DEFAULT now()
	)`.execute(db)
	await sql`CREATE INDEX attendance_imports_session ON attendance_imports (live_session_id)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DROP TABLE attendance_imports`.execute(db)
	await sql`DROP TABLE attendance`.execute(db)
	await sql`DROP TABLE session_joins`.execute(db)
	await sql`ALTER TABLE courses DROP COLUMN attendance_present_percent`.execute(db)
}
