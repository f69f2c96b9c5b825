/**
 * The scale data set (`npm run db:seed -- --scale`): a school that has run for years. 500 courses of
 * 12 weeks, one starting every three and a half days from about four and a half years ago to ten
 * weeks ahead, each with a weekly live session, 5 files a week and one instructor; 20,000 students
 * in two courses each (40,000 enrolments, ended ones completed or not); about 50,000 payments
 * (checkouts, some with a promotion code, some abandoned, some refunded in full or in part, plans
 * of four instalments with a payment row for each later instalment but the older ones); waitlists
 * with offers taken, expired and open; attendance of every session held; 1,000,000 messages. Written
 * with set-based INSERT … SELECT generate_series statements so PostgreSQL fills it in a minute or so.
 * File rows point at storage keys under `scale/` that hold no object: list pages and queries are
 * what the data set measures, not downloads. Every scale account signs in with the demo password.
 */
import { type Kysely, sql } from 'kysely'
import { hashPassword } from '#app/utils/password.server.ts'
import type { Database } from '#db/types.ts'
import { DEMO_PASSWORD } from './demo.ts'

export const SCALE = {
	students: 20_000,
	staff: 20,
	courses: 500,
	/** Course k starts (k − currentCourse) × 3.5 days from today: the last twenty are still to come. */
	currentCourse: 480,
	weeksPerCourse: 12,
	filesPerWeek: 5,
	waitlistPerFullCourse: 12,
	messages: 1_000_000,
} as const

/** Signs in as a student with enrollments in two running courses and conversations, and as an admin. */
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
	const { students, staff, courses, currentCourse, weeksPerCourse, filesPerWeek, waitlistPerFullCourse, messages } = SCALE
	/** The scale courses with their number k (1 is the oldest). */
	const scaleCourses = sql`SELECT c.*, split_part(c.title, ' ', 3)::int AS k FROM courses c WHERE c.title LIKE 'Scale Course %'`

	// Staff 1–5 are admins, the rest instructors.
	await step(
		`${students + staff} users`,
		sql`INSERT INTO users (email, password_hash, email_confirmed_at, created_at)
			SELECT 'scale-staff-' || n || '@example.com', ${passwordHash}, now(), now() - make_interval(days => 2000 - n)
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
	// Every tenth course is free; the others cost $500–$1,250. Even courses seat 80 (their 80
	// enrolments fill them, so they keep waitlists), odd ones 100 and sell a plan of four instalments.
	// A weekly session at 7 pm New York time, on the weekday the course starts.
	await step(
		`${courses} courses`,
		sql`INSERT INTO courses (title, description, start_date, end_date, capacity, registration_fee, time_zone,
				schedule_weekday, schedule_start_time, schedule_minutes, completion_evaluated_at)
			SELECT 'Scale Course ' || lpad(k::text, 3, '0'), 'A course of the scale data set.', start_date, start_date + ${weeksPerCourse * 7 - 1}::int,
				CASE WHEN k % 2 = 0 THEN 80 ELSE 100 END,
				CASE WHEN k % 10 = 0 THEN 0 ELSE 50000 + (k % 4) * 25000 END,
				'America/New_York', extract(isodow FROM start_date)::int, '19:00', 60,
				CASE WHEN start_date + ${weeksPerCourse * 7}::int < current_date THEN (start_date + ${weeksPerCourse * 7}::int)::timestamptz END
			FROM generate_series(1, ${courses}) AS k
			CROSS JOIN LATERAL (SELECT current_date + (k - ${currentCourse}) * 7 / 2 AS start_date) AS dates`,
	)
	await step(
		'course staff',
		sql`INSERT INTO course_staff (course_id, user_id)
			SELECT c.id, u.id FROM (${scaleCourses}) c
			JOIN users u ON u.email = 'scale-staff-' || (6 + c.k % ${staff - 5}) || '@example.com'`,
	)
	// Student n takes courses (n + 469) % 500 + 1 and (7n + 470) % 500 + 1 (never the same, 80 students
	// each), enrolling up to seven weeks before the start; student 1 is in two running courses. Ended
	// courses' enrolments are completed (four in five) or ended; one in twenty of the others is pending.
	await step(
		`${students * 2} enrollments`,
		sql`WITH scale_students AS (
				SELECT id, split_part(split_part(email, '@', 1), '-', 3)::int AS n FROM users WHERE email LIKE 'scale-student-%'
			), choices AS (
				SELECT id, n, (n + ${currentCourse - 11}) % ${courses} + 1 AS k FROM scale_students
				UNION ALL
				SELECT id, n, (7 * n + ${currentCourse - 10}) % ${courses} + 1 FROM scale_students
			)
			INSERT INTO enrollments (user_id, course_id, status, enrollment_date)
			SELECT s.id, c.id,
				CASE
					WHEN c.completion_evaluated_at IS NOT NULL THEN CASE WHEN s.n % 5 = 0 THEN 'inactive' ELSE 'completed' END
					WHEN s.n % 20 = 0 THEN 'pending'
					ELSE 'active'
				END,
				least(c.start_date - make_interval(days => s.n % 50, mins => s.n % 1440), now() - make_interval(mins => s.n % 1440))
			FROM choices s JOIN (${scaleCourses}) c ON c.k = s.k`,
	)
	await step(
		`${courses * weeksPerCourse} weeks`,
		sql`INSERT INTO course_materials (course_id, week_number, topic, zoom_link)
			SELECT c.id, w, 'Week ' || w || ' topic', 'https://zoom.us/j/' || (1000000 + w)
			FROM courses c CROSS JOIN generate_series(1, ${weeksPerCourse}) AS w
			WHERE c.title LIKE 'Scale Course %'`,
	)
	// A session in 29 is cancelled.
	await step(
		`${courses * weeksPerCourse} live sessions`,
		sql`INSERT INTO live_sessions (course_id, week_number, starts_at, ends_at, time_zone, status)
			SELECT c.id, w, starts.at, starts.at + interval '1 hour', 'America/New_York',
				CASE WHEN (c.k + w) % 29 = 0 THEN 'cancelled' ELSE 'scheduled' END
			FROM (${scaleCourses}) c CROSS JOIN generate_series(1, ${weeksPerCourse}) AS w
			CROSS JOIN LATERAL (SELECT ((c.start_date + (w - 1) * 7) + time '19:00') AT TIME ZONE 'America/New_York' AS at) AS starts`,
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
	// Every session held has a status for nine in ten of its roster, from the meeting's report.
	await step(
		'attendance',
		sql`INSERT INTO attendance (live_session_id, user_id, status, minutes, source, created_at, updated_at)
			SELECT s.id, e.user_id, mark.status,
				CASE mark.status WHEN 'present' THEN 55 WHEN 'late' THEN 35 WHEN 'absent' THEN 0 END,
				'report', s.ends_at, s.ends_at
			FROM live_sessions s
			JOIN courses c ON c.id = s.course_id AND c.title LIKE 'Scale Course %'
			JOIN enrollments e ON e.course_id = s.course_id AND e.status IN ('active', 'completed', 'inactive')
			CROSS JOIN LATERAL (
				SELECT CASE
					WHEN (s.id + e.id) % 20 < 14 THEN 'present'
					WHEN (s.id + e.id) % 20 < 16 THEN 'late'
					WHEN (s.id + e.id) % 20 < 19 THEN 'absent'
					ELSE 'excused'
				END AS status
			) AS mark
			WHERE s.status = 'scheduled' AND s.ends_at <= now() AND (s.id * 7 + e.id) % 10 <> 0`,
	)
	await seedScalePayments(step, scaleCourses)
	// Each full course's waitlist: a started course's entries ended (three offers taken, two expired,
	// one declined, the rest left or removed); a course still to start has one offer open, one
	// expired and the rest waiting.
	await step(
		'waitlists',
		sql`INSERT INTO waitlist_entries (course_id, name, email, position, status, token_hash, offer_token_hash, offered_at, offer_expires_at, joined_at)
			SELECT c.id, 'Waitlist ' || c.k || '-' || i, 'scale-waitlist-' || c.k || '-' || i || '@example.com', i, entry.status,
				md5('scale-waitlist-' || c.k || '-' || i),
				CASE WHEN entry.offered_at IS NOT NULL THEN md5('scale-offer-' || c.k || '-' || i) END,
				entry.offered_at, entry.offered_at + interval '48 hours', entry.joined_at
			FROM (${scaleCourses}) c
			CROSS JOIN generate_series(1, ${waitlistPerFullCourse}) AS i
			CROSS JOIN LATERAL (SELECT least(c.start_date - 40 + i, now() - interval '1 day') AS joined_at, c.start_date <= current_date AS started) AS base
			CROSS JOIN LATERAL (
				SELECT
					CASE
						WHEN base.started THEN CASE WHEN i <= 3 THEN 'enrolled' WHEN i <= 5 THEN 'expired' WHEN i = 6 THEN 'declined' WHEN i <= 8 THEN 'left' ELSE 'removed' END
						WHEN i = 1 THEN 'offered'
						WHEN i = 2 THEN 'expired'
						ELSE 'waiting'
					END AS status,
					CASE
						WHEN base.started AND i <= 6 THEN least(base.joined_at + interval '5 days', now() - interval '3 days')
						WHEN NOT base.started AND i = 1 THEN now() - interval '1 hour'
						WHEN NOT base.started AND i = 2 THEN now() - interval '3 days'
					END AS offered_at,
					base.joined_at
			) AS entry
			WHERE c.k % 2 = 0`,
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

type Step = (label: string, statement: ReturnType<typeof sql>) => Promise<void>

/**
 * The money of the scale school: a checkout for every enrolment in a paid course (paid, or pending
 * while the enrolment is), one in five abandoned beforehand (expired); one in seven with the
 * SCALE10 code (10 % off); one in six in a course with a plan bought as a plan of four monthly
 * instalments (the first paid at the checkout, the later ones paid on the day they were due, one plan
 * in eleven failing in the last month, each paid later instalment with a payment row of its own but one in four, as
 * before docs/decisions/063); ended enrolments refunded in full (one in three), and one payment in
 * 31 refunded in half.
 */
async function seedScalePayments(step: Step, scaleCourses: ReturnType<typeof sql>) {
	const surcharge = 5000
	await step('promotion code', sql`INSERT INTO promotion_codes (code, percent_off) VALUES ('SCALE10', 10)`)
	await step(
		'payment plans',
		sql`INSERT INTO course_payment_plans (course_id, kind, instalment_count, surcharge_cents)
			SELECT c.id, 'equal', 4, ${surcharge} FROM (${scaleCourses}) c WHERE c.k % 2 = 1 AND c.registration_fee > 0`,
	)
	/** The enrolments of paid courses, with how each was bought. */
	const sales = sql`SELECT e.id, e.user_id, e.status, e.enrollment_date, c.id AS course_id, c.title, c.registration_fee AS fee,
			u.email, p.course_id IS NOT NULL AND e.id % 6 = 0 AS on_plan
		FROM enrollments e
		JOIN courses c ON c.id = e.course_id AND c.title LIKE 'Scale Course %' AND c.registration_fee > 0
		JOIN users u ON u.id = e.user_id
		LEFT JOIN course_payment_plans p ON p.course_id = c.id`
	await step(
		'plan purchases',
		sql`INSERT INTO plan_purchases (checkout_session_id, provider, user_id, course_id, enrollment_id, kind, total_cents, status, created_at)
			SELECT 'cs_scale_' || s.id, 'stripe', s.user_id, s.course_id, CASE WHEN s.status <> 'pending' THEN s.id END, 'equal',
				s.fee + ${surcharge}, CASE WHEN s.status = 'pending' THEN 'pending' ELSE 'active' END, s.enrollment_date - interval '10 minutes'
			FROM (${sales}) s WHERE s.on_plan`,
	)
	// The deferred trigger checks at commit that each plan's four add up to its total.
	await step(
		'plan instalments',
		sql`INSERT INTO plan_instalments (plan_purchase_id, sequence, label, due_on, amount_cents, status, paid_at, failed_at, provider_invoice_id, payment_intent_id)
			SELECT pp.id, seq, 'Instalment ' || seq || ' of 4', due.on,
				CASE WHEN seq < 4 THEN pp.total_cents / 4 ELSE pp.total_cents - 3 * (pp.total_cents / 4) END,
				state.status,
				CASE WHEN state.status = 'paid' THEN CASE WHEN seq = 1 THEN pp.created_at + interval '10 minutes' ELSE due.on + time '09:00' END END,
				CASE WHEN state.status = 'failed' THEN due.on + time '09:00' END,
				CASE WHEN seq > 1 AND state.status <> 'scheduled' THEN 'in_scale_' || pp.id || '_' || seq END,
				CASE WHEN state.status <> 'paid' THEN NULL WHEN seq = 1 THEN 'pi_' || pp.checkout_session_id ELSE 'pi_scale_plan_' || pp.id || '_' || seq END
			FROM plan_purchases pp
			CROSS JOIN generate_series(1, 4) AS seq
			CROSS JOIN LATERAL (SELECT (pp.created_at::date + make_interval(months => seq - 1))::date AS on) AS due
			CROSS JOIN LATERAL (
				SELECT CASE
					WHEN pp.status = 'pending' THEN 'scheduled'
					WHEN seq = 1 THEN 'paid'
					WHEN due.on >= current_date THEN 'scheduled'
					WHEN pp.id % 11 = 0 AND due.on > current_date - 31 THEN 'failed'
					ELSE 'paid'
				END AS status
			) AS state
			WHERE pp.checkout_session_id LIKE 'cs_scale_%'`,
	)
	await step(
		'plan states',
		sql`UPDATE plan_purchases pp SET
				status = CASE WHEN state.failed IS NOT NULL THEN 'past_due' WHEN state.open = 0 THEN 'completed' ELSE 'active' END,
				failing_since = state.failed
			FROM (
				SELECT plan_purchase_id, min(failed_at) AS failed, count(*) FILTER (WHERE status <> 'paid') AS open
				FROM plan_instalments GROUP BY plan_purchase_id
			) AS state
			WHERE state.plan_purchase_id = pp.id AND pp.status = 'active' AND pp.checkout_session_id LIKE 'cs_scale_%'`,
	)
	await step(
		'checkout payments',
		sql`INSERT INTO registration_payments (checkout_session_id, provider, user_id, course_id, course_title, customer_email, amount_cents,
				status, enrollment_id, created_at, updated_at, fulfilled_at, payment_intent_id, refunded_cents, promotion_code_id, promotion_code, discount_cents)
			SELECT 'cs_scale_' || s.id, 'stripe', s.user_id, s.course_id, s.title, s.email, price.amount,
				CASE WHEN s.status = 'pending' THEN 'pending' WHEN refund.cents = price.amount THEN 'refunded' ELSE 'paid' END,
				CASE WHEN s.status <> 'pending' THEN s.id END,
				s.enrollment_date - interval '10 minutes', s.enrollment_date,
				CASE WHEN s.status <> 'pending' THEN s.enrollment_date END,
				CASE WHEN s.status <> 'pending' THEN 'pi_cs_scale_' || s.id END,
				refund.cents,
				CASE WHEN price.discount > 0 THEN code.id END, CASE WHEN price.discount > 0 THEN code.code END, price.discount
			FROM (${sales}) s
			CROSS JOIN (SELECT id, code FROM promotion_codes WHERE code = 'SCALE10') AS code
			CROSS JOIN LATERAL (
				SELECT
					CASE WHEN s.on_plan THEN (s.fee + ${surcharge}) / 4 WHEN s.id % 7 = 0 THEN s.fee - s.fee / 10 ELSE s.fee END AS amount,
					CASE WHEN NOT s.on_plan AND s.id % 7 = 0 THEN s.fee / 10 ELSE 0 END AS discount
			) AS price
			CROSS JOIN LATERAL (
				SELECT CASE
					WHEN s.on_plan OR s.status = 'pending' THEN 0
					WHEN s.status = 'inactive' AND s.id % 3 = 0 THEN price.amount
					WHEN s.id % 31 = 0 THEN price.amount / 2
					ELSE 0
				END AS cents
			) AS refund
			UNION ALL
			SELECT 'cs_scale_abandoned_' || s.id, 'stripe', s.user_id, s.course_id, s.title, s.email, s.fee, 'expired', NULL,
				s.enrollment_date - interval '2 days', s.enrollment_date - interval '1 day', NULL, NULL, 0, NULL, NULL, 0
			FROM (${sales}) s WHERE s.id % 5 = 0`,
	)
	await step(
		'instalment payments',
		sql`INSERT INTO registration_payments (provider, user_id, course_id, course_title, customer_email, amount_cents, status,
				created_at, updated_at, fulfilled_at, payment_intent_id, plan_instalment_id)
			SELECT 'stripe', pp.user_id, pp.course_id, c.title, u.email, i.amount_cents, 'paid', i.paid_at, i.paid_at, i.paid_at, i.payment_intent_id, i.id
			FROM plan_instalments i
			JOIN plan_purchases pp ON pp.id = i.plan_purchase_id AND pp.checkout_session_id LIKE 'cs_scale_%'
			JOIN courses c ON c.id = pp.course_id
			JOIN users u ON u.id = pp.user_id
			WHERE i.sequence > 1 AND i.status = 'paid' AND i.id % 4 <> 0`,
	)
	await step(
		'refunds',
		sql`INSERT INTO payment_refunds (payment_id, amount_cents, reason, status, source, request_key, provider_refund_id, created_at, updated_at)
			SELECT p.id, p.refunded_cents, 'requested_by_customer', 'succeeded', 'admin', 'scale-refund-' || p.id, 're_scale_' || p.id,
				refunded.at, refunded.at + interval '1 minute'
			FROM registration_payments p
			CROSS JOIN LATERAL (SELECT least(p.fulfilled_at + interval '14 days', now() - interval '1 hour') AS at) AS refunded
			WHERE p.refunded_cents > 0 AND p.checkout_session_id LIKE 'cs_scale_%'`,
	)
}
