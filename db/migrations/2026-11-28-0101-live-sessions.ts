import { type Kysely, sql } from 'kysely'

/**
 * Dated live sessions (docs/decisions/031). A course has an IANA time zone and, optionally, a weekly
 * schedule (ISO weekday, wall-clock start, minutes) from its start date; week N of the course has at
 * most one live session, stored as instants plus the zone it was planned in, which an admin may move,
 * shorten or cancel with a note (`sequence` counts the changes, for calendar clients). Week N's files
 * open at its session's `opens_at` when an admin set one, else `weeks_open_days_before` days before
 * the session; a week without a session is open.
 * Reminders are e-mailed `reminder_*_minutes` before a session (null: that reminder is off);
 * `session_reminders` records each one sent, once per student, session, lead time and start.
 * A student's own time zone and private calendar-feed token live on the profile.
 */
export async function up(db: Kysely<unknown>) {
	await sql`ALTER TABLE courses
		ADD COLUMN time_zone text NOT NULL DEFAULT 'America/New_York' CHECK (time_zone <> '' AND length(time_zone) <= 64),
		ADD COLUMN schedule_weekday smallint CHECK (schedule_weekday BETWEEN 1 AND 7),
		ADD COLUMN schedule_start_time time,
		ADD COLUMN schedule_minutes smallint CHECK (schedule_minutes BETWEEN 5 AND 720),
		ADD COLUMN weeks_open_days_before smallint NOT NULL DEFAULT 7 CHECK (weeks_open_days_before BETWEEN 0 AND 365),
		ADD COLUMN reminder_first_minutes integer DEFAULT 1440 CHECK (reminder_first_minutes BETWEEN 5 AND 20160),
		ADD COLUMN reminder_second_minutes integer DEFAULT 60 CHECK (reminder_second_minutes BETWEEN 5 AND 20160),
		ADD COLUMN announce_week_open boolean NOT NULL DEFAULT false,
		ADD CONSTRAINT courses_schedule_whole CHECK (
			(schedule_weekday IS NULL) = (schedule_start_time IS NULL) AND (schedule_weekday IS NULL) = (schedule_minutes IS NULL)
		),
		ADD CONSTRAINT courses_schedule_needs_start CHECK (schedule_weekday IS NULL OR start_date IS NOT NULL)`.execute(db)

	await sql`CREATE TABLE live_sessions (
		id serial PRIMARY KEY,
		course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
		week_number integer NOT NULL CHECK (week_number BETWEEN 1 AND 1000),
		starts_at timestamptz NOT NULL,
		ends_at timestamptz NOT NULL,
		time_zone text NOT NULL CHECK (time_zone <> '' AND length(time_zone) <= 64),
		status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'cancelled')),
		note text CHECK (length(note) <= 1000),
		sequence integer NOT NULL DEFAULT 0 CHECK (sequence >= 0),
		rescheduled boolean NOT NULL DEFAULT false,
		opens_at timestamptz,
		open_notice_sent_at timestamptz,
		created_at timestamptz NOT NULL DEFAULT now(),
		updated_at timestamptz NOT NULL DEFAULT now(),
		CHECK (ends_at > starts_at),
		CHECK (ends_at - starts_at <= interval '12 hours'),
		UNIQUE (course_id, week_number)
	)`.execute(db)
	await sql`CREATE INDEX live_sessions_starts_at ON live_sessions (starts_at) WHERE status = 'scheduled'`.execute(db)

	await sql`CREATE TABLE session_reminders (
		session_id integer NOT NULL REFERENCES live_sessions(id) ON DELETE CASCADE,
		user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
		lead_minutes integer NOT NULL,
		starts_at timestamptz NOT NULL,
		sent_at timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (session_id, user_id, lead_minutes, starts_at)
	)`.execute(db)

	await sql`ALTER TABLE profiles
		ADD COLUMN time_zone text CHECK (time_zone <> '' AND length(time_zone) <= 64),
		ADD COLUMN calendar_token text UNIQUE CHECK (length(calendar_token) BETWEEN 32 AND 128)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`ALTER TABLE profiles DROP COLUMN time_zone, DROP COLUMN calendar_token`.execute(db)
	await sql`DROP TABLE session_reminders`.execute(db)
	await sql`DROP TABLE live_sessions`.execute(db)
	await sql`ALTER TABLE courses
		DROP CONSTRAINT courses_schedule_whole, DROP CONSTRAINT courses_schedule_needs_start,
		DROP COLUMN time_zone, DROP COLUMN schedule_weekday, DROP COLUMN schedule_start_time, DROP COLUMN schedule_minutes,
		DROP COLUMN weeks_open_days_before, DROP COLUMN reminder_first_minutes, DROP COLUMN reminder_second_minutes,
		DROP COLUMN announce_week_open`.execute(db)
}
