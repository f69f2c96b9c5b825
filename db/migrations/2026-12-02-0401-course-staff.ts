import { type Kysely, sql } from 'kysely'

/**
 * Course staff and invitations (issue 42, docs/decisions/055). `course_staff` says which instructors
 * teach which course; a trigger refuses a row whose user is not an instructor, so no code path can
 * make a student or an admin course staff. `auth_tokens` gains the `invite` purpose: the single-use
 * link an invited person sets their first password with.
 */
export async function up(db: Kysely<unknown>) {
	await sql`CREATE TABLE course_staff (
		course_id integer NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
		user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
		added_at timestamptz NOT NULL DEFAULT now(),
		added_by uuid REFERENCES users (id) ON DELETE SET NULL,
		PRIMARY KEY (course_id, user_id)
	)`.execute(db)
	await sql`CREATE INDEX course_staff_user_idx ON course_staff (user_id)`.execute(db)
	await sql`CREATE FUNCTION course_staff_must_be_instructor() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF NOT EXISTS (SELECT 1 FROM profiles WHERE id = NEW.user_id AND role = 'instructor') THEN
				RAISE EXCEPTION 'course staff must be an instructor' USING ERRCODE = 'check_violation';
			END IF;
			RETURN NEW;
		END
	$$`.execute(db)
	await sql`CREATE TRIGGER course_staff_instructor_check BEFORE INSERT OR UPDATE ON course_staff
		FOR EACH ROW EXECUTE FUNCTION course_staff_must_be_instructor()`.execute(db)
	await sql`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_purpose_check`.execute(db)
	await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_purpose_check
		CHECK (purpose IN ('confirm_email', 'reset_password', 'invite'))`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`DELETE FROM auth_tokens WHERE purpose = 'invite'`.execute(db)
	await sql`ALTER TABLE auth_tokens DROP CONSTRAINT auth_tokens_purpose_check`.execute(db)
	await sql`ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_purpose_check
		CHECK (purpose IN ('confirm_email', 'reset_password'))`.execute(db)
	await sql`DROP TABLE course_staff`.execute(db)
	await sql`DROP FUNCTION course_staff_must_be_instructor()`.execute(db)
}
