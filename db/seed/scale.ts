/**
 * The scale data set (`npm run db:seed -- --scale`): 10,000 students, 50 courses (each with a weekly live session),
 * 2,000 weeks, 10,000 files and 1,000,000 messages, written with set-based
 * INSERT … SELECT generate_series statements so PostgreSQL fills it in seconds.
 * File rows point at storage keys under `scale/` that hold no object: list pages
 * and queries are what the data set measures, not downloads.
 * Every scale account signs in with the demo password.
 */
import { type Kysely, sql } from 'kysely'
import { hashPassword } from '#app/utils/password.server.ts'
import type { Database } from '#db/types.ts'
import { DEMO_PASSWORD } from './demo.ts'

export const SCALE = {
	students: 10_000,
	staff: 20,
	courses: 50,
	weeksPerCourse: 40,
	filesPerWeek: 5,
	messages: 1_000_000,
} as const

/** Signs in as a student with enrollments and conversations, and as an admin. */
export const SCALE_ACCOUNTS = {
	student: 'scale-student-1@example.com',
	admin: 'scale-staff-1@example.com',
} as const

export async function hasScaleData(db: Kysely<Database>) {
	const row = await db.selectFrom('users').select('id').where('email', '=', SCALE_ACCOUNTS.student).executeTakeFirst()
	return Boolean(row)
}

/** Adds the scale data set (beside any demo data) unless it is there already. */
export async function seedScaleData(db: Kysely<Database>, { log = (_line: string) => {} } = {}) {
	if (await hasScaleData(db)) return { seeded: false }
	const passwordHash = await hashPassword(DEMO_PASSWORD)
	const step = async (label: string, statement: ReturnType<typeof sql>) => {
		const started = performance.now()
		await statement.execute(db)
		log(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
	}
	const { students, staff, courses, weeksPerCourse, filesPerWeek, messages } = SCALE

	// Staff 1–5 are admins, the rest instructors; students enrol in two courses each.
	await step(
		`${students + staff} users`,
		sql`INSERT INTO users (email, password_hash, email_confirmed_at, created_at)
			SELECT 'scale-staff-' || n || '@example.com', ${passwordHash}, now(), now() - make_interval(days => n)
			FROM generate_series(1, ${staff}) AS n
			UNION ALL
			SELECT 'scale-student-' || n || '@example.com', ${passwordHash}, now(), now() - make_interval(mins => n)
			FROM generate_series(1, ${students}) AS n`,
	)
	await step(
		'profiles',
		sql`INSERT INTO profiles (id, name, role, created_at)
			SELECT id,
				CASE WHEN email LIKE 'scale-staff-%' THEN 'Staff ' ELSE 'Student ' END || split_part(split_part(email, '@', 1), '-', 3),
				CASE
					WHEN email LIKE 'scale-student-%' THEN 'student'
					WHEN split_part(split_part(email, '@', 1), '-', 3)::int <= 5 THEN 'admin'
					ELSE 'instructor'
				END,
				created_at
			FROM users WHERE email LIKE 'scale-%@example.com'`,
	)
	await step(
		`${courses} courses`,
		sql`INSERT INTO courses (title, description, start_date, end_date, capacity, registration_fee)
			SELECT 'Scale Course ' || lpad(n::text, 2, '0'), 'A course of the scale data set.',
				current_date + n, current_date + n + 90, 1000, (n % 3) * 50000
			FROM generate_series(1, ${courses}) AS n`,
	)
	await step(
		'enrollments',
		sql`WITH scale_courses AS (
				SELECT id, row_number() OVER (ORDER BY id) - 1 AS idx, count(*) OVER () AS total
				FROM courses WHERE title LIKE 'Scale Course %'
			), scale_students AS (
				SELECT id, split_part(split_part(email, '@', 1), '-', 3)::int AS n FROM users WHERE email LIKE 'scale-student-%'
			)
			INSERT INTO enrollments (user_id, course_id, status, enrollment_date)
			SELECT s.id, c.id, CASE WHEN s.n % 10 = 0 THEN 'pending' ELSE 'active' END, now() - make_interval(hours => s.n + c.idx::int)
			FROM scale_students s
			JOIN scale_courses c ON c.idx = s.n % c.total OR c.idx = (s.n * 7 + 1) % c.total`,
	)
	await step(
		`${courses * weeksPerCourse} weeks`,
		sql`INSERT INTO course_materials (course_id, week_number, topic, zoom_link)
			SELECT c.id, w, 'Week ' || w || ' topic', 'https://zoom.us/j/' || (1000000 + w)
			FROM courses c CROSS JOIN generate_series(1, ${weeksPerCourse}) AS w
			WHERE c.title LIKE 'Scale Course %'`,
	)
	await step(
		`${courses * weeksPerCourse} live sessions`,
		// Tuesdays 7 pm New York time, the first twenty weeks past: week cards show session times,
		// and the later weeks are not open yet (docs/decisions/032).
		sql`WITH scheduled AS (
				UPDATE courses SET time_zone = 'America/New_York', schedule_weekday = 2, schedule_start_time = '19:00', schedule_minutes = 60
				WHERE title LIKE 'Scale Course %' RETURNING id
			)
			INSERT INTO live_sessions (course_id, week_number, starts_at, ends_at, time_zone)
			SELECT c.id, w, starts.at, starts.at + interval '1 hour', 'America/New_York'
			FROM scheduled c CROSS JOIN generate_series(1, ${weeksPerCourse}) AS w
			CROSS JOIN LATERAL (
				SELECT (date_trunc('week', now() AT TIME ZONE 'America/New_York') + make_interval(weeks => w - 21, days => 1, hours => 19))
					AT TIME ZONE 'America/New_York' AS at
			) AS starts`,
	)
	await step(
		`${courses * weeksPerCourse * filesPerWeek} files`,
		sql`INSERT INTO material_items (material_id, title, type, category, storage_key, mime_type, size_bytes)
			SELECT w.id, 'Handout ' || f || '.pdf',
				CASE WHEN f = ${filesPerWeek} THEN 'video' ELSE 'document' END,
				CASE WHEN f = ${filesPerWeek} THEN 'recording' ELSE 'material' END,
				'scale/' || w.course_id || '/' || w.id || '/' || f || CASE WHEN f = ${filesPerWeek} THEN '.mp4' ELSE '.pdf' END,
				CASE WHEN f = ${filesPerWeek} THEN 'video/mp4' ELSE 'application/pdf' END,
				1024 * f
			FROM course_materials w
			JOIN courses c ON c.id = w.course_id AND c.title LIKE 'Scale Course %'
			CROSS JOIN generate_series(1, ${filesPerWeek}) AS f`,
	)
	// Message n goes between student n % students and staff (n / students) % staff, in either
	// direction: every student talks with every staff member; the newest 50,000 are unread.
	await step(
		`${messages.toLocaleString('en-US')} messages`,
		sql`WITH st AS (
				SELECT array_agg(id ORDER BY split_part(split_part(email, '@', 1), '-', 3)::int) AS ids
				FROM users WHERE email LIKE 'scale-student-%'
			), sf AS (
				SELECT array_agg(id ORDER BY split_part(split_part(email, '@', 1), '-', 3)::int) AS ids
				FROM users WHERE email LIKE 'scale-staff-%'
			)
			INSERT INTO messages (sender_id, receiver_id, content, read, created_at)
			SELECT
				CASE WHEN n % 2 = 0 THEN st.ids[n % ${students} + 1] ELSE sf.ids[(n / ${students}) % ${staff} + 1] END,
				CASE WHEN n % 2 = 0 THEN sf.ids[(n / ${students}) % ${staff} + 1] ELSE st.ids[n % ${students} + 1] END,
				'Scale message ' || n,
				n < ${messages - 50_000},
				now() - make_interval(secs => ${messages} - n)
			FROM generate_series(1, ${messages}) AS n, st, sf`,
	)
	// Fresh statistics and visibility maps, so the planner picks (index-only) index scans at once.
	await step('vacuum analyze', sql`VACUUM ANALYZE`)
	return { seeded: true }
}
